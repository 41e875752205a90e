import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { qwenCodeHarness } from "../src/harnesses/qwen-code/qwen-code-harness.js";
import { taskNotification } from "../src/harnesses/qwen-code/task-notification.js";
import type { HistoryEventOf } from "../src/store/events.js";
import { BackgroundProcesses } from "../src/tools/exec/background-processes.js";
import { harnessContext, tempDir, toolContext, toolRunner } from "./support/harness-fixtures.js";

// Qwen Code 0.24.4's background shells on real processes; texts as the real 0.24.4 answered
// (/root/cap/i21/gemini-qwen/NOTES.md Q3) and as its source words the notification.

function setup() {
  const cwd = tempDir("oi-qwen-bg-");
  const scratchDir = tempDir("oi-qwen-bg-scratch-");
  const background = new BackgroundProcesses();
  const session = new AbortController();
  const tools = qwenCodeHarness.open(harnessContext({ cwd, scratchDir })).tools;
  const run = toolRunner(tools, toolContext(cwd, { background, sessionSignal: session.signal }));
  return { cwd, scratchDir, run, background, session };
}

const status = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
};

describe("Qwen Code background shells", () => {
  it("starts a shell with 0.24.4's launch text, output and status files", async () => {
    const { run, scratchDir, cwd, background } = setup();
    const { output, isError } = await run("run_shell_command", {
      command: "echo bg-done; exit 7 &",
      is_background: true,
    });
    expect(isError).toBeFalsy();
    const dir = path.join(scratchDir, "background-shells");
    const match = new RegExp(
      `^Background shell started\\.\\nid: (bg_[0-9a-f]{8})\\npid: (\\d+)\\noutput file: ${dir}/shell-(bg_[0-9a-f]{8})\\.output\\nstatus file: ${dir}/shell-(bg_[0-9a-f]{8})\\.status\\nTo check whether this process is still running, Read the status file \\(status: running\\|completed\\|failed\\|cancelled\\)\\. Do NOT infer liveness`,
    ).exec(output);
    expect(match, output).not.toBeNull();
    const [, id, pid] = match!;
    expect(output.endsWith("Read the output file directly to view the captured output.")).toBe(true);
    const process = background.get(id!)!;
    // The trailing `&` is dropped: the shell is the command, not a detached child of it.
    expect(process.command).toBe("echo bg-done; exit 7");
    await process.ended();
    await until(() => status(path.join(dir, `shell-${id}.status`)).status !== "running");
    expect(readFileSync(path.join(dir, `shell-${id}.output`), "utf8")).toBe("bg-done\n");
    expect(status(path.join(dir, `shell-${id}.status`))).toEqual({
      id,
      status: "failed",
      command: "echo bg-done; exit 7",
      cwd,
      startTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      pid: Number(pid),
      endTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      error: "exited with code 7",
    });
  });

  it("marks a shell cancelled when the session closes, and kills it", async () => {
    const { run, scratchDir, cwd, session } = setup();
    const marker = path.join(cwd, "survived");
    const { output } = await run("run_shell_command", {
      command: `sleep 1 && touch ${marker}`,
      is_background: true,
    });
    const id = /id: (bg_[0-9a-f]{8})/.exec(output)![1]!;
    const file = path.join(scratchDir, "background-shells", `shell-${id}.status`);
    expect(status(file).status).toBe("running");
    session.abort();
    await until(() => status(file).status === "cancelled");
    expect(Object.keys(status(file))).toEqual([
      "id",
      "status",
      "command",
      "cwd",
      "startTime",
      "updatedAt",
      "pid",
      "endTime",
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(existsSync(marker)).toBe(false);
  });
});

describe("taskNotification", () => {
  const event = (over: Partial<HistoryEventOf<"background_ended">>): HistoryEventOf<"background_ended"> => ({
    type: "background_ended",
    id: "bg_7d06b181",
    harness: "qwen-code",
    command: "npm run dev",
    cwd: "/w",
    status: "completed",
    exitCode: 0,
    pid: 8315,
    outputFile: "/s/background-shells/shell-bg_7d06b181.output",
    outputBytes: 11,
    outputTail: "ready <ok>\n",
    durationMs: 900,
    ...over,
  });

  it("words ends as 0.24.4's source does, escaping XML", () => {
    expect(taskNotification(event({}))).toBe(
      '<task-notification>\n<task-id>bg_7d06b181</task-id>\n<kind>shell</kind>\n<status>completed</status>\n<summary>Shell command "npm run dev" completed.</summary>\n<command>npm run dev</command>\n<cwd>/w</cwd>\n<pid>8315</pid>\n<exit-code>0</exit-code>\n<output-tail truncated="false">ready &lt;ok&gt;</output-tail>\n<output-file>/s/background-shells/shell-bg_7d06b181.output</output-file>\n</task-notification>',
    );
    expect(taskNotification(event({ status: "failed", exitCode: 7 }))).toContain(
      '<status>failed</status>\n<summary>Shell command "npm run dev" failed.</summary>\n<command>npm run dev</command>\n<cwd>/w</cwd>\n<pid>8315</pid>\n<result>exited with code 7</result>\n',
    );
    const cancelled = taskNotification(
      event({ status: "killed", exitCode: null, signal: "SIGTERM", outputTail: "" }),
    );
    expect(cancelled).toContain(
      '<status>cancelled</status>\n<summary>Shell command "npm run dev" was cancelled.</summary>',
    );
    expect(cancelled).not.toContain("<output-tail");
  });
});
