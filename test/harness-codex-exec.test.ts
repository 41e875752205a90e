import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { codexHarness } from "../src/harnesses/codex/codex-harness.js";
import { formatExecChunk } from "../src/harnesses/codex/exec-output.js";
import type { BoundedText } from "../src/tools/exec/bounded-output.js";
import { harnessWorkspace, toolContext, toolRunner } from "./support/harness-fixtures.js";

// Codex 0.171's unified exec tools on real processes. Result texts are held to what the real
// Codex 0.171.0 returned for the same calls (captured with ../shared/tools/capture-requests).

const chunk = (text: string): BoundedText => ({
  text,
  droppedBytes: 0,
  totalBytes: Buffer.byteLength(text),
  totalLines: text.split("\n").length - 1,
});
const header = (text: string) => text.replace(/^Chunk ID: [0-9a-f]{6}\nWall time: \d+\.\d{4} seconds\n/, "");
const sessionOf = (text: string) => Number(/Process running with session ID (\d+)/.exec(text)?.[1]);

describe("exec_command and write_stdin", () => {
  it("answers a finished command in Codex's format, exit code and approximate tokens", async () => {
    const { run } = harnessWorkspace(codexHarness, { prefix: "oi-codex-exec-" });
    const result = await run("exec_command", { cmd: "printf 'line1\\nline2\\n'; echo err >&2; exit 3" });
    expect(result.output).toMatch(/^Chunk ID: [0-9a-f]{6}\nWall time: \d+\.\d{4} seconds\n/);
    expect(header(result.output)).toMatch(/^Process exited with code 3\nOriginal token count: 4\nOutput:\n/);
    expect(result.output).toContain("line1\nline2\n");
    expect(result.output).toContain("err\n");
    expect(result.isError).toBe(true);
  });

  it("leaves a slow command running under a session id that write_stdin polls to its end", async () => {
    const { run } = harnessWorkspace(codexHarness, { prefix: "oi-codex-exec-" });
    const started = await run("exec_command", { cmd: "sleep 1; echo done", yield_time_ms: 250 });
    expect(header(started.output)).toMatch(
      /^Process running with session ID \d{4,5}\nOriginal token count: 0\nOutput:\n$/,
    );
    const id = sessionOf(started.output);
    expect(id).toBeGreaterThanOrEqual(1000);
    expect(id).toBeLessThan(100_000);
    const polled = await run("write_stdin", { session_id: id, chars: "", yield_time_ms: 5000 });
    expect(header(polled.output)).toBe(
      "Process exited with code 0\nOriginal token count: 2\nOutput:\ndone\n",
    );
    // Once its end was reported the session is gone, as in Codex.
    expect((await run("write_stdin", { session_id: id })).output).toBe(
      `write_stdin failed: Unknown process id ${id}`,
    );
  });

  it("refuses writes to stdin with Codex's text and names unknown ids", async () => {
    const { run } = harnessWorkspace(codexHarness, { prefix: "oi-codex-exec-" });
    const started = await run("exec_command", { cmd: "sleep 5", yield_time_ms: 250 });
    const write = await run("write_stdin", { session_id: sessionOf(started.output), chars: "y\n" });
    expect(write.output).toBe(
      "write_stdin failed: stdin is closed for this session; rerun exec_command with tty=true to keep stdin open",
    );
    expect((await run("write_stdin", { session_id: 424242 })).output).toBe(
      "write_stdin failed: Unknown process id 424242",
    );
  });

  it("kills what is still running when the turn's signal ends", async () => {
    const { cwd, tools } = harnessWorkspace(codexHarness, { prefix: "oi-codex-exec-" });
    const turn = new AbortController();
    const run = toolRunner(tools, toolContext(cwd, { signal: turn.signal }));
    const marker = path.join(cwd, "survived");
    await run("exec_command", { cmd: `sleep 1.5 && touch ${marker}`, yield_time_ms: 250 });
    turn.abort();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(existsSync(marker)).toBe(false);
  });

  it("applies an apply_patch heredoc natively, with 0.171's wrapped result and bare verification failures", async () => {
    const { cwd, run, file } = harnessWorkspace(codexHarness, { prefix: "oi-codex-exec-" });
    const add = "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch\nEOF";
    const added = await run("exec_command", { cmd: add });
    expect(added.output).toMatch(
      /^Wall time: \d+\.\d{4} seconds\nOutput:\nExit code: 0\nWall time: [\d.]+ seconds\nOutput:\nSuccess\. Updated the following files:\nA hello\.txt\n$/,
    );
    expect(readFileSync(path.join(cwd, "hello.txt"), "utf8")).toBe("hi\n");
    file("notes.txt", "alpha\nbeta\n");
    const missing =
      "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: notes.txt\n@@\n-zzz\n+yyy\n*** End Patch\nEOF";
    expect((await run("exec_command", { cmd: missing })).output).toBe(
      `apply_patch verification failed: Failed to find expected lines in ${path.join(cwd, "notes.txt")}:\nzzz`,
    );
  });
});

describe("formatExecChunk", () => {
  const seq = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1}\n`).join("");

  it("narrows to max_output_tokens and then counts the cut in tokens, whatever the family's unit", () => {
    const text = formatExecChunk(
      {
        waitedMs: 0,
        exitCode: 0,
        output: chunk(seq(1000)),
        policy: { mode: "bytes", limit: 10_000 },
        maxOutputTokens: 10,
      },
      "aaaaaa",
    );
    expect(text).toBe(
      "Chunk ID: aaaaaa\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 974\nOutput:\n" +
        "Warning: truncated output (original token count: 974)\nTotal output lines: 1000\n\n" +
        "1\n2\n3\n4\n5\n6\n7\n8\n9\n10…964 tokens truncated…96\n997\n998\n999\n1000\n",
    );
  });

  it("keeps the family's budget when max_output_tokens asks for more", () => {
    const text = formatExecChunk(
      {
        waitedMs: 0,
        exitCode: 0,
        output: chunk(seq(100_000)),
        policy: { mode: "bytes", limit: 10_000 },
        maxOutputTokens: 50_000,
      },
      "aaaaaa",
    );
    expect(text).toContain("…578895 chars truncated…");
    const tokens = formatExecChunk(
      { waitedMs: 0, exitCode: 0, output: chunk(seq(100_000)), policy: { mode: "tokens", limit: 10_000 } },
      "aaaaaa",
    );
    expect(tokens).toContain("…137224 tokens truncated…");
  });

  it("answers a zero budget with the marker alone", () => {
    const text = formatExecChunk(
      {
        waitedMs: 0,
        exitCode: 0,
        output: chunk(seq(1000)),
        policy: { mode: "bytes", limit: 10_000 },
        maxOutputTokens: 0,
      },
      "aaaaaa",
    );
    expect(text.endsWith("Total output lines: 1000\n\n…974 tokens truncated…")).toBe(true);
  });

  it("leads with the exec buffer's omission line past 1 MiB", () => {
    const text = formatExecChunk(
      {
        waitedMs: 0,
        exitCode: 0,
        output: { text: "a".repeat(20_000), droppedBytes: 5_000_000, totalBytes: 5_020_000, totalLines: 9 },
        policy: { mode: "bytes", limit: 10_000 },
      },
      "aaaaaa",
    );
    expect(text).toContain(
      "Output:\nWarning: truncated output (original token count: 1255000)\n... 5000000 bytes omitted ...\n\n",
    );
    expect(text).not.toContain("Total output lines");
  });
});
