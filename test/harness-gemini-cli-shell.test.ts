import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { geminiCliHarness } from "../src/harnesses/gemini-cli/gemini-cli-harness.js";
import { formatShellOutput, truncatedToolOutput } from "../src/harnesses/gemini-cli/shell-output.js";
import type { HarnessContext } from "../src/harnesses/types.js";
import { execResult, harnessWorkspace, toolContext, toolRunner } from "./support/harness-fixtures.js";

/** A temp workspace; the harness's tools are built on the first `run`. */
const setup = (overrides: Partial<HarnessContext> = {}) =>
  harnessWorkspace(geminiCliHarness, {
    prefix: "oi-gc-",
    context: { model: "gemini-2.5-flash", currentDate: "2026-08-21", isGitRepo: false, ...overrides },
  });

describe("run_shell_command", () => {
  const result = execResult;

  it("answers in Gemini's Output/Exit Code/PGID shape inside <untrusted_context>", async () => {
    const { run } = setup();
    // The group id is the command's own: `ps -o pgid= $$` inside it prints the same number.
    const own = await run("run_shell_command", {
      command: "ps -o pgid= $$ | tr -d ' '",
      description: "pgid",
    });
    const [, printed, reported] =
      /^<untrusted_context>\nOutput: (\d+)\nProcess Group PGID: (\d+)\n<\/untrusted_context>$/.exec(
        own.output,
      ) ?? [];
    expect(printed).toBeDefined();
    expect(reported).toBe(printed);
    const failed = await run("run_shell_command", {
      command: "printf 'line1\\nline2\\n'; echo err >&2; exit 3",
    });
    expect(failed.isError).toBe(true);
    expect(failed.output).toMatch(
      /^<untrusted_context>\nOutput: line1\nline2\nerr\nExit Code: 3\nProcess Group PGID: \d+\n<\/untrusted_context>$/,
    );
    expect((await run("run_shell_command", { command: "true" })).output).toMatch(
      /^<untrusted_context>\nOutput: \(empty\)\nProcess Group PGID: \d+\n<\/untrusted_context>$/,
    );
    expect(formatShellOutput(result({ output: "x", exitCode: 1, processGroup: 42 }))).toBe(
      "<untrusted_context>\nOutput: x\nExit Code: 1\nProcess Group PGID: 42\n</untrusted_context>",
    );
    expect(formatShellOutput(result({ output: "\u001b[31mred\u001b[0m\n" }))).toBe(
      "<untrusted_context>\nOutput: red\n</untrusted_context>",
    );
    expect(formatShellOutput(result({ exitCode: null, signal: "SIGKILL" }))).toBe(
      "<untrusted_context>\nOutput: (empty)\nSignal: 9\n</untrusted_context>",
    );
    expect(formatShellOutput(result({ exitCode: null, timedOut: true, output: "partial" }))).toBe(
      "<untrusted_context>\nCommand was automatically cancelled because it exceeded the timeout of 5.0 minutes without output. Below is the output before it was cancelled:\npartial\n</untrusted_context>",
    );
  });

  it("spills output over 40 000 characters to a file and shows its first 20% and last 80%", async () => {
    const { run, ctx } = setup();
    const { output } = await run("run_shell_command", { command: "seq 1 100000" });
    const header = output.split("\n")[0]!;
    expect(header).toMatch(
      /^Output too large\. Showing first 8,000 and last 32,000 characters\. For full output see: (.+\.txt)$/,
    );
    const spilled = /For full output see: (.+\.txt)$/.exec(header)![1]!;
    // Gemini's place and name: tool-outputs/session-<id>/<tool>__<tool>_<unix ms>_<index>.txt
    expect(path.relative(ctx.scratchDir, spilled)).toMatch(
      new RegExp(
        `^tool-outputs/session-${ctx.sessionId}/run_shell_command__run_shell_command_\\d{13}_0\\.txt$`,
      ),
    );
    const full = readFileSync(spilled, "utf8");
    expect(full).toMatch(
      /^<untrusted_context>\nOutput: 1\n2\n[\s\S]*\n100000\nProcess Group PGID: \d+\n<\/untrusted_context>$/,
    );
    // The frame around seq's 588 894 characters (trailing newline trimmed), as in the capture.
    const pgid = /PGID: (\d+)/.exec(full)![1]!;
    expect(full.length).toBe(
      "<untrusted_context>\nOutput: ".length +
        588_894 +
        `\nProcess Group PGID: ${pgid}\n</untrusted_context>`.length,
    );
    expect(output).toContain(
      `\n\n... [${(full.length - 40_000).toLocaleString("en-US")} characters omitted] ...\n\n`,
    );
    expect(output.split("\n")[1]).toBe("<untrusted_context>");
    expect(output).toMatch(/\n99999\n100000\nProcess Group PGID: \d+\n<\/untrusted_context>$/);
    expect(truncatedToolOutput("short", "/x", 10)).toBe("short");
  });

  it("runs in dir_path", async () => {
    const { run, cwd } = setup();
    mkdirSync(path.join(cwd, "sub"));
    expect((await run("run_shell_command", { command: "pwd", dir_path: "sub" })).output).toMatch(
      new RegExp(
        `^<untrusted_context>\nOutput: ${path.join(cwd, "sub")}\nProcess Group PGID: \\d+\n</untrusted_context>$`,
      ),
    );
  });

  it("starts is_background commands for the session, lists them and reads their output as 0.61", async () => {
    const { cwd, ctx, tools } = setup();
    const session = new AbortController();
    const run = toolRunner(tools, toolContext(cwd, { sessionSignal: session.signal }));
    expect((await run("list_background_processes", {})).output).toBe("No background processes found.");
    const started = await run("run_shell_command", {
      command: "echo tick1; echo tick2; echo tick3; sleep 0.4; exit 4",
      is_background: true,
      delay_ms: 100,
    });
    const pid = Number(
      /^<untrusted_context>\nCommand moved to background \(PID: (\d+)\)\. Output hidden\. Press Ctrl\+B to view\.\n<\/untrusted_context>$/.exec(
        started.output,
      )?.[1],
    );
    expect(pid).toBeGreaterThan(0);
    // Background commands go through the permission gate like any other.
    const shell = tools().find((t) => t.name === "run_shell_command")!;
    expect(shell.access({ command: "touch started", is_background: true }, toolContext(cwd))).toEqual({
      type: "exec",
      command: "touch started",
      cwd,
    });
    expect((await run("list_background_processes", {})).output).toBe(
      `- [PID ${pid}] RUNNING: \`echo tick1; echo tick2; echo tick3; sleep 0.4; exit 4\``,
    );
    expect((await run("read_background_output", { pid, lines: 2 })).output).toBe(
      "Showing last 2 of 3 lines:\ntick2\ntick3",
    );
    expect((await run("read_background_output", { pid, delay_ms: 600 })).output).toBe(
      "Full Log Output:\ntick1\ntick2\ntick3",
    );
    expect((await run("list_background_processes", { wait_for_previous: true })).output).toBe(
      `- [PID ${pid}] EXITED: \`echo tick1; echo tick2; echo tick3; sleep 0.4; exit 4\` (Exit Code: 4)`,
    );
    expect(readFileSync(path.join(ctx.scratchDir, "background-processes", "background-1.log"), "utf8")).toBe(
      "tick1\ntick2\ntick3\n",
    );

    const quiet = await run("run_shell_command", {
      command: "sleep 1; touch late",
      is_background: true,
      delay_ms: 0,
    });
    const quietPid = Number(/PID: (\d+)/.exec(quiet.output)?.[1]);
    expect((await run("read_background_output", { pid: quietPid })).output).toBe("Log is empty.");
    expect(await run("read_background_output", { pid: 999999 })).toEqual({
      output: "Background process history lookup failed for PID 999999",
      isError: true,
    });
    // Killed with the session, before it could touch its file.
    session.abort();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(existsSync(path.join(cwd, "late"))).toBe(false);
    expect((await run("list_background_processes", {})).output).toContain(
      `- [PID ${quietPid}] EXITED: \`sleep 1; touch late\` (Signal: `,
    );
  });
});

describe("write_todos", () => {
  it("echoes the numbered list, feeds the editor's plan and allows one in_progress task", async () => {
    const { run } = setup();
    const result = await run("write_todos", {
      todos: [
        { description: "Read the code", status: "completed" },
        { description: "Fix the bug", status: "in_progress" },
        { description: "Old idea", status: "cancelled" },
      ],
    });
    expect(result.output).toBe(
      "Successfully updated the todo list. The current list is now:\n1. [completed] Read the code\n2. [in_progress] Fix the bug\n3. [cancelled] Old idea",
    );
    expect(result.plan).toEqual([
      { content: "Read the code", status: "completed", priority: "medium" },
      { content: "Fix the bug", status: "in_progress", priority: "medium" },
      { content: "Old idea (cancelled)", status: "completed", priority: "medium" },
    ]);
    expect((await run("write_todos", { todos: [] })).output).toBe("Successfully cleared the todo list.");
    const two = await run("write_todos", {
      todos: [
        { description: "a", status: "in_progress" },
        { description: "b", status: "in_progress" },
      ],
    });
    expect(two).toEqual({
      output: 'Invalid parameters: Only one task can be "in_progress" at a time.',
      isError: true,
    });
  });
});
