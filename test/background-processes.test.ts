import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BackgroundProcesses, firstEnded } from "../src/tools/exec/background-processes.js";
import { createLocalExec } from "../src/tools/exec/run-command.js";
import { tempDir } from "./support/harness-fixtures.js";

// The session's table of background commands: what it keeps of their output, on disk and in
// memory, and how their ends are seen.

const exec = createLocalExec();
const life = () => new AbortController().signal;

describe("BackgroundProcesses", () => {
  it("keeps a file up to its cap and says the rest was not saved, while counting every byte", async () => {
    const file = path.join(tempDir("oi-bg-file-"), "deep", "out.log");
    const table = new BackgroundProcesses({ fileCap: 20 });
    const p = table.start({ exec, command: "seq 1 1000", cwd: "/", signal: life(), outputFile: file });
    await p.ended();
    expect(readFileSync(file, "utf8")).toBe(
      "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n[output past 20 bytes was not saved]\n",
    );
    expect(p.outputBytes).toBe(3893);
    expect(p.tail().endsWith("999\n1000\n")).toBe(true);
    expect(p.status).toBe("completed");
  });

  it("knows its process group while it runs, times out on its own limit, and lists in start order", async () => {
    const table = new BackgroundProcesses();
    const slow = table.start({ exec, command: "sleep 5", cwd: "/", signal: life(), timeoutMs: 300 });
    const quick = table.start({ exec, command: "exit 2", cwd: "/", signal: life() });
    await slow.running();
    expect(slow.pid).toBeGreaterThan(0);
    expect(await firstEnded([slow, quick], 5000, life())).toBe(quick);
    expect(quick.status).toBe("failed");
    table.get(slow.id);
    expect(table.list().map((p) => p.id)).toEqual([slow.id, quick.id]);
    await slow.ended();
    expect(slow.status).toBe("timed_out");
    expect(await firstEnded([], 10, life())).toBeUndefined();
  });

  it("records why a process was stopped", async () => {
    const table = new BackgroundProcesses();
    const p = table.start({ exec, command: "sleep 30", cwd: "/", signal: life() });
    await table.kill(p.id, "Stopped by TaskStop");
    expect([p.status, p.stopReason, p.exit?.aborted]).toEqual(["killed", "Stopped by TaskStop", true]);
  });
});
