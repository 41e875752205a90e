import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { deepseekTuiHarness } from "../src/harnesses/deepseek-tui/deepseek-tui-harness.js";
import { harnessWorkspace } from "./support/harness-fixtures.js";

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
