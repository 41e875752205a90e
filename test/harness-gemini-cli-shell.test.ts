import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { geminiCliHarness } from "../src/harnesses/gemini-cli/gemini-cli-harness.js";
import { formatShellOutput, truncatedToolOutput } from "../src/harnesses/gemini-cli/shell-output.js";
import type { HarnessContext } from "../src/harnesses/types.js";
import { execResult, harnessWorkspace } from "./support/harness-fixtures.js";

/** A temp workspace; the harness's tools are built on the first `run`. */
const setup = (overrides: Partial<HarnessContext> = {}) =>
  harnessWorkspace(geminiCliHarness, {
    prefix: "oi-gc-",
    context: { model: "gemini-2.5-flash", currentDate: "2026-08-21", isGitRepo: false, ...overrides },
  });

describe("run_shell_command", () => {
  const result = execResult;

  it("answers in Gemini's Output/Exit Code shape inside <untrusted_context>", async () => {
    const { run } = setup();
    expect((await run("run_shell_command", { command: "echo hello", description: "Say hello" })).output).toBe(
      "<untrusted_context>\nOutput: hello\n</untrusted_context>",
    );
    const failed = await run("run_shell_command", { command: "echo oops >&2; exit 3" });
    expect(failed).toMatchObject({
      output: "<untrusted_context>\nOutput: oops\nExit Code: 3\n</untrusted_context>",
      isError: true,
    });
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
    const { output } = await run("run_shell_command", { command: "seq 1 20000" });
    const header = output.split("\n")[0]!;
    expect(header).toMatch(
      /^Output too large\. Showing first 8,000 and last 32,000 characters\. For full output see: (.+\.txt)$/,
    );
    const spilled = /For full output see: (.+\.txt)$/.exec(header)![1]!;
    expect(spilled.startsWith(path.join(ctx.scratchDir, "tool-outputs"))).toBe(true);
    expect(readFileSync(spilled, "utf8")).toMatch(
      /^<untrusted_context>\nOutput: 1\n2\n[\s\S]*\n20000\n<\/untrusted_context>$/,
    );
    expect(output).toContain("\n\n... [68,942 characters omitted] ...\n\n");
    expect(output.endsWith("19999\n20000\n</untrusted_context>")).toBe(true);
    expect(truncatedToolOutput("short", "/x", 10)).toBe("short");
  });

  it("runs in dir_path", async () => {
    const { run, cwd } = setup();
    mkdirSync(path.join(cwd, "sub"));
    expect((await run("run_shell_command", { command: "pwd", dir_path: "sub" })).output).toBe(
      `<untrusted_context>\nOutput: ${path.join(cwd, "sub")}\n</untrusted_context>`,
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
