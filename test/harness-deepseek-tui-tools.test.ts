import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
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

function workspace(model = "mock-model") {
  const w = harnessWorkspace(deepseekTuiHarness, { prefix: "oi-deepseek-tools-", context: { model } });
  const read = (rel: string) => readFileSync(path.join(w.cwd, rel), "utf8");
  return { ...w, read, abs: (rel: string) => path.join(w.cwd, rel) };
}

describe("deepseek-tui read_file and list_dir", () => {
  it("returns a small file as it is and a range as numbered <file> lines with the continuation note", async () => {
    const { run, file } = workspace();
    file("a.txt", "one\ntwo\nthree\n");
    expect((await run("read_file", { path: "a.txt" })).output).toBe("one\ntwo\nthree");
    expect((await run("read_file", { path: "a.txt", start_line: 2, max_lines: 1 })).output).toBe(
      '<file path="a.txt" total_lines="3" shown_lines="2-2" truncated="true" next_start_line="3">\n     2│ two\n\n[TRUNCATED] Showing lines 2-2 of 3. To continue, call read_file with path="a.txt" start_line=3 max_lines=1\n</file>',
    );
    expect((await run("read_file", { path: "a.txt", start_line: 9 })).output).toBe(
      '<file path="a.txt" total_lines="3" shown_lines="none" truncated="false">\n\n[NO CONTENT] start_line 9 is beyond total_lines 3.\n</file>',
    );
  });

  it("pages a long file 200 lines at a time and words its failures as CodeWhale does", async () => {
    const { run, file, abs } = workspace();
    file("long.txt", Array.from({ length: 250 }, (_, i) => `L${i + 1}`).join("\n"));
    const page = (await run("read_file", { path: "long.txt" })).output;
    expect(page).toContain('shown_lines="1-200" truncated="true" next_start_line="201"');
    expect(page).toContain("   200│ L200\n");
    expect(page).not.toContain("L201");
    expect(await run("read_file", { path: "long.txt", start_line: 0 })).toEqual({
      output: "Error: Invalid input for tool 'read_file': start_line must be 1-based and greater than 0",
      isError: true,
    });
    expect((await run("read_file", { path: "gone.txt" })).output).toBe(
      `Error: Failed to read ${abs("gone.txt")}: No such file or directory (os error 2)`,
    );
  });

  it("lists a directory as {name, is_dir} JSON", async () => {
    const { run, file } = workspace();
    file("sub/x.txt", "");
    const entries = JSON.parse((await run("list_dir", {})).output);
    expect(entries).toEqual([{ name: "sub", is_dir: true }]);
  });
});

describe("deepseek-tui write_file and edit_file", () => {
  it("answers a write with its unified diff and CodeWhale's summary", async () => {
    const { run, abs, read } = workspace();
    expect((await run("write_file", { path: "n/new.txt", content: "a\nb\n" })).output).toBe(
      `--- a/${abs("n/new.txt")}\n+++ b/${abs("n/new.txt")}\n@@ -0,0 +1,2 @@\n+a\n+b\n\nCreated ${abs("n/new.txt")} (4 bytes)`,
    );
    expect((await run("write_file", { path: "n/new.txt", content: "a\nc" })).output).toBe(
      `--- a/${abs("n/new.txt")}\n+++ b/${abs("n/new.txt")}\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n\nWrote 3 bytes to ${abs("n/new.txt")}`,
    );
    expect(read("n/new.txt")).toBe("a\nc");
  });

  it("replaces exact text, tolerates indentation with fuzz, and refuses what it cannot place", async () => {
    const { run, file, abs, read } = workspace();
    file("calc.js", "function add(a, b) {\n  return a - b;\n}\n");
    const edited = await run("edit_file", { path: "calc.js", search: "a - b", replace: "a + b" });
    expect(edited.output).toBe(
      `--- a/${abs("calc.js")}\n+++ b/${abs("calc.js")}\n@@ -1,3 +1,3 @@\n function add(a, b) {\n-  return a - b;\n+  return a + b;\n }\n\nReplaced 1 occurrence in ${abs("calc.js")}`,
    );
    expect(await run("edit_file", { path: "calc.js", search: "a * b", replace: "x" })).toEqual({
      output: `Error: Search string not found in ${abs("calc.js")}`,
      isError: true,
    });
    const fuzzy = await run("edit_file", {
      path: "calc.js",
      search: "return a + b;",
      replace: "return b + a;",
      fuzz: true,
    });
    expect(fuzzy.output).toContain("Replaced 1 occurrence in");
    const indented = await run("edit_file", {
      path: "calc.js",
      search: "    return b + a;",
      replace: "  return a + b;",
      fuzz: true,
    });
    expect(indented.output).toMatch(/Replaced 1 occurrence in .* \(fuzzy indentation match\)$/);
    expect(read("calc.js")).toBe("function add(a, b) {\n  return a + b;\n}\n");
    expect((await run("edit_file", { path: "calc.js", search: "x", replace: "x" })).output).toBe(
      "Error: Invalid input for tool 'edit_file': search and replace are identical, no change intended",
    );
  });

  it("replaces every occurrence and warns when there were several", async () => {
    const { run, file, read } = workspace();
    file("t.txt", "x\nx\n");
    const out = (await run("edit_file", { path: "t.txt", search: "x", replace: "y" })).output;
    expect(out).toMatch(/Replaced 2 occurrence\(s\) in .*\nWarning: multiple matches were replaced/);
    expect(read("t.txt")).toBe("y\ny\n");
  });
});

describe("deepseek-tui apply_patch", () => {
  it("applies a unified diff under `path` and answers with its PatchResult", async () => {
    const { run, file, read } = workspace();
    file("calc.js", "function add(a, b) {\n  return a - b;\n}\n");
    const patch = "@@ -1,3 +1,3 @@\n function add(a, b) {\n-  return a - b;\n+  return a + b;\n }\n";
    const result = JSON.parse((await run("apply_patch", { path: "calc.js", patch })).output);
    expect(result).toEqual({
      success: true,
      files_applied: 1,
      files_total: 1,
      hunks_applied: 1,
      hunks_total: 1,
      fuzz_used: 0,
      hunks_with_fuzz: 0,
      touched_files: ["calc.js"],
      file_summaries: [
        {
          path: "calc.js",
          hunks: 1,
          hunks_applied: 1,
          fuzz_used: 0,
          hunks_with_fuzz: 0,
          created: false,
          deleted: false,
        },
      ],
      message: "Applied 1/1 hunks across 1 file(s). Files: calc.js.",
    });
    expect(read("calc.js")).toBe("function add(a, b) {\n  return a + b;\n}\n");
  });

  it("finds a shifted hunk with fuzz, creates files from /dev/null headers, and explains a miss", async () => {
    const { run, file, read } = workspace();
    file("a.txt", "0\n1\n2\n3\n");
    const patch =
      "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n 2\n-3\n+three\n--- /dev/null\n+++ b/b.txt\n@@ -0,0 +1 @@\n+new\n";
    const result = JSON.parse((await run("apply_patch", { patch })).output);
    expect(result.message).toBe(
      "Applied 2/2 hunks across 2 file(s). Files: a.txt, b.txt. Fuzz used on 1 hunk(s) (total fuzz: 2).",
    );
    expect(read("a.txt")).toBe("0\n1\n2\nthree\n");
    expect(read("b.txt")).toBe("new\n");
    const miss = await run("apply_patch", { path: "a.txt", patch: "@@ -1,1 +1,1 @@\n-zzz\n+y\n", fuzz: 1 });
    expect(miss.output).toBe(
      "Error: Failed to apply hunk 1/1 for `a.txt`: could not find matching context near line 1 (searched around line 1 with offset +0 and fuzz up to 1). Expected context preview:\n  -zzz\nFile snippet near line 1:\n     1: 0\n     2: 1\n     3: 2\nHints: ensure the patch matches the current file contents, increase `fuzz`, or regenerate the patch.",
    );
    expect((await run("apply_patch", { patch: "no hunks" })).output).toBe(
      "Error: Invalid input for tool 'apply_patch': Patch must include at least one hunk header (`@@ -start,count +start,count @@`).",
    );
  });
});

describe("deepseek-tui exec_shell", () => {
  it("shows stdout, stderr after it, silence and failure in CodeWhale's words", async () => {
    const { run } = workspace();
    expect((await run("exec_shell", { command: "echo hi" })).output).toBe("hi");
    expect((await run("exec_shell", { command: "true" })).output).toBe("(no output)");
    expect((await run("exec_shell", { command: "echo out; echo err >&2" })).output).toBe(
      "out\n\n\nSTDERR:\nerr",
    );
    expect(await run("exec_shell", { command: "echo bad >&2; exit 3" })).toMatchObject({
      output: "Command failed (exit code: Some(3))\n\nSTDOUT:\n\n\nSTDERR:\nbad",
      isError: true,
    });
    expect((await run("exec_shell", { command: "sleep 5", timeout_ms: 200 })).output).toMatch(
      /^Command timed out after 200ms; process killed\.\n\nForeground exec_shell is for bounded commands\./,
    );
    expect((await run("exec_shell", { command: "cat", stdin: "x" })).output).toMatch(
      /^Error: interactive, tty and stdin runs are not available/,
    );
  });

  it("compacts long output around its first lines, with the large limits for DeepSeek V4", async () => {
    const small = workspace();
    const out = (await small.run("exec_shell", { command: "seq 1 2000" })).output;
    expect(out).toMatch(
      /^\[exec_shell output compacted to protect context\]\nSummary: 1\n2\n3\nSnippet: 1\n2\n/,
    );
    expect(out).toMatch(
      /\n\n\[\.\.\. output truncated for context \.\.\.\]\n\n.*2000\n\(Original: 8892 chars, omitted: \d+ chars\.\)$/s,
    );
    const large = workspace("deepseek-v4-pro");
    expect((await large.run("exec_shell", { command: "seq 1 2000" })).output).toMatch(/^1\n2\n.*\n2000$/s);
  });
});

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

describe("deepseek-tui search tools", () => {
  it("grep_files answers with matches, context and counts as JSON", async () => {
    const { run, file } = workspace();
    file("src/a.ts", "one\nneedle here\nthree\n");
    file("node_modules/x/b.ts", "needle\n");
    const result = JSON.parse((await run("grep_files", { pattern: "needle", context_lines: 1 })).output);
    expect(result).toEqual({
      matches: [
        {
          file: "src/a.ts",
          line_number: 2,
          line: "needle here",
          context_before: "one",
          context_after: "three",
        },
      ],
      total_matches: 1,
      files_searched: 1,
      truncated: false,
    });
    expect((await run("grep_files", { pattern: "(" })).output).toMatch(
      /^Error: Invalid input for tool 'grep_files': Invalid regex pattern: /,
    );
  });

  it("file_search ranks names by CodeWhale's scores, a whole number written as 1.0", async () => {
    const { run, file } = workspace();
    file("src/main.rs", "");
    file("src/main_test.rs", "");
    file("target/main.rs", "");
    const out = (await run("file_search", { query: "main.rs" })).output;
    expect(out).toContain('"score": 1.0\n');
    // The exact name first; main_test.rs holds the query's letters in order; target/ is left out.
    expect(JSON.parse(out).map((m: { path: string }) => m.path)).toEqual(["src/main.rs", "src/main_test.rs"]);
    const fuzzy = JSON.parse((await run("file_search", { query: "mts" })).output);
    expect(fuzzy.map((m: { path: string }) => m.path)).toEqual(["src/main_test.rs"]);
  });
});

describe("deepseek-tui checklist and plan", () => {
  it("keeps one checklist per session with ids, one item in progress and rounded completion", async () => {
    const { run } = workspace();
    const written = await run("checklist_write", {
      todos: [
        { content: "Read", status: "completed" },
        { content: "Fix", status: "in_progress" },
        { content: "Test", status: "pending" },
      ],
    });
    expect(written.output).toMatch(/^Todo list updated \(3 items, 33% complete\)\n\{\n {2}"items": \[/);
    expect(written.plan?.map((p) => p.status)).toEqual(["completed", "in_progress", "pending"]);
    const updated = await run("checklist_update", { id: 3, status: "in_progress" });
    expect(updated.output).toMatch(/^Updated todo #3 to in_progress\n/);
    expect(JSON.parse(updated.output.slice(updated.output.indexOf("\n") + 1))).toMatchObject({
      completion_pct: 33,
      in_progress_id: 3,
      items: [{ id: 1 }, { id: 2, status: "pending" }, { id: 3, status: "in_progress" }],
    });
    expect((await run("checklist_add", { content: "Ship" })).output).toMatch(/^Added todo #4 \(pending\)\n/);
    expect((await run("checklist_list", {})).output).toMatch(/^Todo list \(4 items, 25% complete\)\n/);
    expect((await run("checklist_update", { id: 9, status: "done" })).output).toBe("Todo id 9 not found");
    // The older todo_* names work on the same list.
    expect((await run("todo_add", { content: "Tag" })).output).toMatch(/^Added todo #5 \(pending\)\n/);
    expect((await run("todo_list", {})).output).toMatch(/^Todo list \(5 items, 20% complete\)\n/);
  });

  it("update_plan counts the steps and keeps one in progress", async () => {
    const { run } = workspace();
    const out = await run("update_plan", {
      plan: [
        { step: "a", status: "completed" },
        { step: "b", status: "in_progress" },
        { step: "c", status: "in_progress" },
      ],
    });
    expect(out.output).toBe(
      'Plan updated: 1 pending, 1 in progress, 1 completed (33% done)\n{\n  "explanation": null,\n  "items": [\n    {\n      "step": "a",\n      "status": "completed"\n    },\n    {\n      "step": "b",\n      "status": "in_progress"\n    },\n    {\n      "step": "c",\n      "status": "pending"\n    }\n  ]\n}',
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
