import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { claudeCodeHarness } from "../src/harnesses/claude-code/claude-code-harness.js";
import { taskNotification } from "../src/harnesses/claude-code/task-notification.js";
import { claudeCodeBareHarness } from "../src/harnesses/claude-code-bare/claude-code-bare-harness.js";
import { BACKGROUND_UNSUPPORTED } from "../src/harnesses/shared/claude-code-core/tools/bash.js";
import type { HistoryEventOf } from "../src/store/events.js";
import { type BackgroundProcess, BackgroundProcesses } from "../src/tools/exec/background-processes.js";
import { harnessContext, tempDir, toolContext, toolRunner } from "./support/harness-fixtures.js";

// Claude Code 2.1.44's background shells on real processes; every text is held to what the real
// 2.1.44 answered for the same calls (/root/cap/i21/claude-code/NOTES.md §1).

function setup() {
  const cwd = tempDir("oi-cc-bg-");
  const scratchDir = path.join(cwd, ".scratch");
  const ended: BackgroundProcess[] = [];
  const background = new BackgroundProcesses({ onEnd: (p) => ended.push(p) });
  const session = new AbortController();
  const tools = claudeCodeHarness.open(harnessContext({ cwd, scratchDir })).tools;
  const run = toolRunner(tools, toolContext(cwd, { background, sessionSignal: session.signal }));
  const start = async (command: string, description?: string) => {
    const { output, isError } = await run("Bash", { command, description, run_in_background: true });
    const match =
      /^Command running in background with ID: (b[0-9a-f]{6})\. Output is being written to: (.+)$/.exec(
        output,
      );
    expect(match, output).not.toBeNull();
    expect(isError).toBeFalsy();
    return { id: match![1]!, file: match![2]! };
  };
  return { cwd, scratchDir, run, start, ended, session, background };
}

const sections = (...parts: string[]) => parts.join("\n\n");

describe("Claude Code background shells", () => {
  it("starts a command, answers not_ready, then waits for its end and shows its output", async () => {
    const { run, start, scratchDir } = setup();
    const { id, file } = await start("sleep 0.5; echo bg-done", "Background sleep");
    expect(file).toBe(path.join(scratchDir, "tasks", `${id}.output`));
    expect((await run("TaskOutput", { task_id: id, block: false, timeout: 1000 })).output).toBe(
      sections(
        "<retrieval_status>not_ready</retrieval_status>",
        `<task_id>${id}</task_id>`,
        "<task_type>local_bash</task_type>",
        "<status>running</status>",
      ),
    );
    expect((await run("TaskOutput", { task_id: id, block: true, timeout: 10000 })).output).toBe(
      sections(
        "<retrieval_status>success</retrieval_status>",
        `<task_id>${id}</task_id>`,
        "<task_type>local_bash</task_type>",
        "<status>completed</status>",
        "<exit_code>0</exit_code>",
        "<output>\nbg-done\n</output>",
      ),
    );
    expect(readFileSync(file, "utf8")).toBe("bg-done\n");
  });

  it("times out a blocking read with the output so far and the new-output reminder", async () => {
    const { run, start } = setup();
    const { id, file } = await start("echo tick1; echo tick2; sleep 30", "ticks");
    const result = await run("TaskOutput", { task_id: id, block: true, timeout: 400 });
    expect(result.output).toBe(
      `${sections(
        "<retrieval_status>timeout</retrieval_status>",
        `<task_id>${id}</task_id>`,
        "<task_type>local_bash</task_type>",
        "<status>running</status>",
        "<output>\ntick1\ntick2\n</output>",
      )}\n\n<system-reminder>\nBackground bash ${id} has new output: 2 lines of stdout. Read ${file} to see output.\n</system-reminder>`,
    );
    // Told once: the next result carries no reminder for the same lines.
    expect((await run("TaskOutput", { task_id: id, block: false })).output).not.toContain("system-reminder");
    expect(JSON.parse((await run("TaskStop", { task_id: id })).output)).toEqual({
      message: `Successfully stopped task: ${id} (echo tick1; echo tick2; sleep 30)`,
      task_id: id,
      task_type: "local_bash",
      command: "echo tick1; echo tick2; sleep 30",
    });
    expect((await run("TaskOutput", { task_id: id, block: false, timeout: 0 })).output).toBe(
      sections(
        "<retrieval_status>success</retrieval_status>",
        `<task_id>${id}</task_id>`,
        "<task_type>local_bash</task_type>",
        "<status>killed</status>",
        "<output>\ntick1\ntick2\n</output>",
      ),
    );
  });

  it("reports a failure with its exit code and cuts a large output to its last 32000 characters", async () => {
    const { run, start } = setup();
    const failing = await start("echo oops; exit 4", "fails");
    expect((await run("TaskOutput", { task_id: failing.id })).output).toBe(
      sections(
        "<retrieval_status>success</retrieval_status>",
        `<task_id>${failing.id}</task_id>`,
        "<task_type>local_bash</task_type>",
        "<status>failed</status>",
        "<exit_code>4</exit_code>",
        "<output>\noops\n</output>",
      ),
    );
    const big = await start("seq 1 100000", "numbers");
    const { output } = await run("TaskOutput", { task_id: big.id });
    const body = /<output>\n([\s\S]*)\n<\/output>$/.exec(output)![1]!;
    // 32000 characters, less the final newline that 2.1.44 trims before `</output>`.
    expect(body.length).toBe(31_999);
    expect(body.startsWith(`[Truncated. Full output: ${big.file}]\n\n`)).toBe(true);
    expect(body.endsWith("99999\n100000")).toBe(true);
  });

  it("answers bad calls with 2.1.44's errors", async () => {
    const { run, start } = setup();
    const err = (text: string) => ({ output: `<tool_use_error>${text}</tool_use_error>`, isError: true });
    expect(await run("TaskOutput", {})).toEqual(err("Task ID is required"));
    expect(await run("TaskOutput", { task_id: "nope123", timeout: 1000 })).toEqual(
      err("No task found with ID: nope123"),
    );
    expect(await run("TaskStop", {})).toEqual(err("Missing required parameter: task_id"));
    expect(await run("TaskStop", { task_id: "nope123" })).toEqual(err("No task found with ID: nope123"));
    const { id } = await start("true");
    await run("TaskOutput", { task_id: id });
    expect(await run("TaskStop", { shell_id: id })).toEqual(
      err(`Task ${id} is not running (status: completed)`),
    );
  });

  it("reports ends to the session, except stopped tasks, and dies with the session", async () => {
    const { start, run, ended, session, cwd } = setup();
    const done = await start("echo hi", "Say hi");
    const stopped = await start("sleep 30", "Long sleep");
    await run("TaskOutput", { task_id: done.id });
    await run("TaskStop", { task_id: stopped.id });
    expect(ended.map((p) => p.id)).toEqual([done.id]);
    const marker = path.join(cwd, "survived");
    await start(`sleep 1 && touch ${marker}`);
    session.abort();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(existsSync(marker)).toBe(false);
  });

  it("is refused by the bare profile, which has no tools to read or stop it", async () => {
    const cwd = tempDir("oi-ccb-bg-");
    const tools = claudeCodeBareHarness.open(harnessContext({ cwd, scratchDir: path.join(cwd, ".s") })).tools;
    const run = toolRunner(tools, toolContext(cwd));
    expect((await run("Bash", { command: "sleep 100", run_in_background: true })).output).toBe(
      `<tool_use_error>${BACKGROUND_UNSUPPORTED}</tool_use_error>`,
    );
  });
});

describe("taskNotification", () => {
  const event = (over: Partial<HistoryEventOf<"background_ended">>): HistoryEventOf<"background_ended"> => ({
    type: "background_ended",
    id: "bd7b57f",
    harness: "claude-code",
    command: "sleep 1; echo late-done",
    description: "Late bg",
    cwd: "/w",
    status: "completed",
    exitCode: 0,
    outputFile: "/s/tasks/bd7b57f.output",
    outputBytes: 10,
    outputTail: "late-done\n",
    durationMs: 1000,
    ...over,
  });

  it("words completed and failed tasks as 2.1.44 and tells nothing of killed ones", () => {
    expect(taskNotification(event({}))).toBe(
      '<task-notification>\n<task-id>bd7b57f</task-id>\n<output-file>/s/tasks/bd7b57f.output</output-file>\n<status>completed</status>\n<summary>Background command "Late bg" completed (exit code 0)</summary>\n</task-notification>\nRead the output file to retrieve the result: /s/tasks/bd7b57f.output',
    );
    expect(taskNotification(event({ status: "failed", exitCode: 4, description: "ticks" }))).toContain(
      '<status>failed</status>\n<summary>Background command "ticks" failed with exit code 4</summary>',
    );
    expect(taskNotification(event({ status: "killed", exitCode: null }))).toBeUndefined();
  });
});
