import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { deepseekTuiHarness } from "../src/harnesses/deepseek-tui/deepseek-tui-harness.js";
import type { UserPort } from "../src/tools/ask/types.js";
import {
  harnessContext,
  harnessWorkspace,
  tempDir,
  toolContext,
  toolRunner,
} from "./support/harness-fixtures.js";

// CodeWhale's tools that reach beyond the files: background shell tasks, git, questions.

function workspace() {
  return harnessWorkspace(deepseekTuiHarness, { prefix: "oi-deepseek-session-" });
}

describe("deepseek-tui background shell tasks", () => {
  it("starts a task, waits for its new output and end, and cancels by id or all at once", async () => {
    const { run } = workspace();
    const started = (await run("exec_shell", { command: "echo one; sleep 0.3; echo two", background: true }))
      .output;
    expect(started).toMatch(/^Background task started: shell_[0-9a-f]{8}$/);
    const idOf = (out: string) => out.slice(out.indexOf("shell_"));
    const id = idOf(started);
    expect((await run("exec_shell_wait", { task_id: id, timeout_ms: 5000 })).output).toBe("one\ntwo");
    expect((await run("exec_wait", { task_id: id, wait: false })).output).toBe("(no new output)");
    const failing = idOf((await run("exec_shell", { command: "exit 4", background: true })).output);
    expect(await run("exec_shell_wait", { task_id: failing })).toMatchObject({
      output: "Command failed (exit code: Some(4))",
      isError: true,
    });
    const slow = idOf((await run("exec_shell", { command: "sleep 30", background: true })).output);
    expect((await run("exec_shell_wait", { task_id: slow, wait: false })).output).toBe(
      "Background task running (no new output).",
    );
    expect((await run("exec_shell_cancel", { task_id: slow })).output).toBe(
      `Canceled background command: ${slow}`,
    );
    expect((await run("exec_shell_cancel", { all: true })).output).toBe("No running background commands.");
    expect((await run("exec_shell_wait", { task_id: "shell_00000000" })).output).toBe(
      "Error: Task shell_00000000 not found",
    );
  });
});

describe("deepseek-tui git_status and git_diff", () => {
  it("run git's porcelain status (paths unquoted) and a plain diff, scoped to a path", async () => {
    const { run, file, cwd } = workspace();
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.email=t@e.st", "-c", "user.name=t", ...args], { cwd, stdio: "pipe" });
    git("init", "-q", "-b", "main");
    file("a.txt", "one\n");
    git("add", "a.txt");
    git("commit", "-qm", "one");
    file("a.txt", "two\n");
    file("café.txt", "x");
    expect((await run("git_status", {})).output).toBe("## main\n M a.txt\n?? café.txt");
    expect((await run("git_status", { path: "a.txt" })).output).toBe("## main\n M a.txt");
    expect((await run("git_diff", { unified: 0 })).output).toMatch(
      /^diff --git a\/a\.txt b\/a\.txt\n[\s\S]*@@ -1 \+1 @@\n-one\n\+two$/,
    );
    expect((await run("git_diff", { cached: true })).output).toBe("");
    expect((await run("git_status", { path: "gone" })).output).toBe(
      "Error: Invalid input for tool 'git_status': Path does not exist or is not accessible: gone (No such file or directory (os error 2))",
    );
  });

  it("git_log, git_show and git_blame read the history with CodeWhale's flags", async () => {
    const { run, file, cwd } = workspace();
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.email=t@e.st", "-c", "user.name=T", ...args], { cwd, stdio: "pipe" });
    git("init", "-q", "-b", "main");
    file("a.txt", "one\ntwo\n");
    git("add", "a.txt");
    git("commit", "-qm", "first");
    const sha = git("rev-parse", "HEAD").toString().trim();
    expect((await run("git_log", {})).output).toMatch(
      new RegExp(`^${sha}\nAuthor: T <t@e.st>\nDate: \\d{4}-\\d\\d-\\d\\dT[^\n]+\nSubject: first$`),
    );
    const shown = (await run("git_show", { rev: "HEAD" })).output;
    expect(shown).toContain(" a.txt | 2 ++");
    expect(shown).toContain("+one");
    expect((await run("git_show", { rev: "HEAD", patch: false })).output).not.toContain("+one");
    expect((await run("git_blame", { path: "a.txt", start_line: 2, max_lines: 1 })).output).toMatch(
      /^\^?[0-9a-f]+ \(T .* 2\) two$/,
    );
    expect((await run("git_show", { rev: "nope" })).output).toMatch(/^git show failed for 'nope': fatal: /);
    expect((await run("git_blame", { path: "." })).output).toBe(
      "Error: Invalid input for tool 'git_blame': Path must point to a file: .",
    );
  });

  it("says git failed outside a repository", async () => {
    const { run } = workspace();
    expect((await run("git_status", {})).output).toMatch(/^git status failed: fatal: not a git repository/);
  });
});

describe("deepseek-tui request_user_input", () => {
  const question = {
    header: "Runner",
    id: "runner",
    question: "Which test runner?",
    options: [
      { label: "vitest", description: "Fast" },
      { label: "jest", description: "Familiar" },
    ],
  };
  const runner = (user?: UserPort) => {
    const cwd = tempDir("oi-deepseek-ask-");
    const tools = deepseekTuiHarness.open(harnessContext({ cwd })).tools;
    return toolRunner(tools, toolContext(cwd, user ? { user } : {}));
  };

  it("answers with the choice as {id, label, value}, a dismissal as CodeWhale's error", async () => {
    const choose = async (request: { options: Array<{ id: string }> }) => request.options[1]!.id;
    const picked = await runner({ forms: false, form: async () => ({ action: "cancel" }), choose })(
      "request_user_input",
      { questions: [question] },
    );
    expect(picked.output).toBe(
      '{\n  "answers": [\n    {\n      "id": "runner",\n      "label": "jest",\n      "value": "jest"\n    }\n  ]\n}',
    );
    const skip = async () => "skip";
    const dismissed = await runner({ forms: false, form: async () => ({ action: "cancel" }), choose: skip })(
      "request_user_input",
      { questions: [question] },
    );
    expect(dismissed).toEqual({ output: "Error: User input cancelled", isError: true });
  });

  it("checks the questions as CodeWhale does and says when nobody can answer", async () => {
    const run = runner();
    expect(
      (await run("request_user_input", { questions: [{ ...question, options: [question.options[0]] }] }))
        .output,
    ).toBe(
      "Error: Invalid input for tool 'request_user_input': request_user_input.questions.options must contain 2 or 3 items",
    );
    expect((await run("request_user_input", { questions: [question] })).output).toMatch(
      /^No user is available to answer/,
    );
  });
});
