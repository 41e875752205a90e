import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { kimiCliHarness } from "../src/harnesses/kimi-cli/kimi-cli-harness.js";
import { harnessWorkspace } from "./support/harness-fixtures.js";

const workspace = () => harnessWorkspace(kimiCliHarness, { prefix: "oi-kimi-cli-" });

describe("kimi-cli tool results", () => {
  it("ReadFile numbers lines like cat -n and counts what it read", async () => {
    const { run, file } = workspace();
    file("a.txt", "one\ntwo\r\nthree\n");
    expect((await run("ReadFile", { path: "a.txt" })).output).toBe(
      "<system>3 lines read from file starting from line 1. Total lines in file: 3. End of file reached.</system>" +
        "     1\tone\n     2\ttwo\n     3\tthree\n",
    );
    expect((await run("ReadFile", { path: "a.txt", line_offset: -1 })).output).toBe(
      "<system>1 lines read from file starting from line 3. Total lines in file: 3. End of file reached.</system>     3\tthree\n",
    );
    expect((await run("ReadFile", { path: "a.txt", line_offset: 2, n_lines: 1 })).output).toBe(
      "<system>1 lines read from file starting from line 2. Total lines in file: 3.</system>     2\ttwo\n",
    );
  });

  // With n_lines at its default of 1000, 1.49.0 stops on n_lines before its "Max 1000 lines" check.
  it("ReadFile cuts long lines with ... and stops at 1000 lines", async () => {
    const { run, file } = workspace();
    file("long.txt", `${"x".repeat(2500)}\n${"y\n".repeat(1200)}`);
    const out = (await run("ReadFile", { path: "long.txt" })).output;
    expect(out).toMatch(
      /^<system>1000 lines read from file starting from line 1\. Total lines in file: 1201\. Lines \[1\] were truncated\.<\/system>/,
    );
    expect(out).toContain(`     1\t${"x".repeat(1996)}...\n     2\ty\n`);
  });

  it("ReadFile refuses what 1.49.0 refuses, with its words", async () => {
    const { run, file } = workspace();
    file(".env", "KEY=1\n");
    expect(await run("ReadFile", { path: "missing.txt" })).toEqual({
      output: "<system>ERROR: `missing.txt` does not exist.</system>",
      isError: true,
    });
    expect((await run("ReadFile", { path: ".env" })).output).toContain("appears to contain secrets");
    expect((await run("ReadFile", { path: "../x.txt" })).output).toBe(
      "<system>ERROR: `../x.txt` is not an absolute path. You must provide an absolute path to read a file outside the working directory.</system>",
    );
  });

  it("StrReplaceFile replaces the first occurrence and counts; no match is its error", async () => {
    const { run, file, cwd } = workspace();
    file("f.txt", "a a a\n");
    expect(
      (
        await run("StrReplaceFile", {
          path: "f.txt",
          edit: [
            { old: "a", new: "b" },
            { old: "a", new: "c", replace_all: true },
          ],
        })
      ).output,
    ).toBe("<system>File successfully edited. Applied 2 edit(s) with 4 total replacement(s).</system>");
    expect(readFileSync(path.join(cwd, "f.txt"), "utf8")).toBe("b c c\n");
    expect(await run("StrReplaceFile", { path: "f.txt", edit: { old: "zzz", new: "q" } })).toEqual({
      output: "<system>ERROR: No replacements were made. The old string was not found in the file.</system>",
      isError: true,
    });
  });

  it("WriteFile overwrites or appends and tells the size", async () => {
    const { run, cwd } = workspace();
    expect((await run("WriteFile", { path: "w.txt", content: "hi\n" })).output).toBe(
      "<system>File successfully overwritten. Current size: 3 bytes.</system>",
    );
    expect((await run("WriteFile", { path: "w.txt", content: "yo\n", mode: "append" })).output).toBe(
      "<system>File successfully appended to. Current size: 6 bytes.</system>",
    );
    expect((await run("WriteFile", { path: "no/dir/w.txt", content: "x" })).output).toBe(
      "<system>ERROR: `no/dir/w.txt` parent directory does not exist.</system>",
    );
    expect(readFileSync(path.join(cwd, "w.txt"), "utf8")).toBe("hi\nyo\n");
  });

  it("Shell: success, exit code and timeout lines; 2000-character lines cut with [...truncated]", async () => {
    const { run } = workspace();
    expect((await run("Shell", { command: "echo hi" })).output).toBe(
      "<system>Command executed successfully.</system>hi\n",
    );
    expect(await run("Shell", { command: "echo oops >&2; exit 3" })).toEqual(
      expect.objectContaining({
        output: "<system>ERROR: Command failed with exit code: 3.</system>oops\n",
        isError: true,
      }),
    );
    expect((await run("Shell", { command: "sleep 5", timeout: 1 })).output).toBe(
      "<system>ERROR: Command killed by timeout (1s)</system>",
    );
    const long = (await run("Shell", { command: "printf '%02500d\\n' 0" })).output;
    expect(long).toBe(
      `<system>Command executed successfully. Output is truncated to fit in the message.</system>${"0".repeat(1985)}[...truncated]\n`,
    );
    expect(() => run("Shell", { command: "x", timeout: 301 })).toThrow(/foreground commands/);
  });

  it("Shell in the background: a bash- task, TaskOutput waits for it, TaskList and TaskStop", async () => {
    const { run } = workspace();
    const started = await run("Shell", {
      command: "echo done",
      run_in_background: true,
      description: "say done",
    });
    const id = /task_id: (bash-[0-9a-z]{8})/.exec(started.output)?.[1];
    expect(started.output).toMatch(
      /^<system>Background task started\.<\/system>task_id: bash-[0-9a-z]{8}\nkind: bash\nstatus: running\ndescription: say done\ncommand: echo done\nautomatic_notification: true\n/,
    );
    const output = (await run("TaskOutput", { task_id: id, block: true, timeout: 10 })).output;
    expect(output).toMatch(/^<system>Task output retrieved\.<\/system>retrieval_status: success\n/);
    expect(output).toContain("status: completed\n");
    expect(output).toContain("exit_code: 0\n");
    expect(output).toMatch(/\n\[output\]\ndone$/);
    expect((await run("TaskList", { active_only: false })).output).toContain(
      `background_tasks: 1\n\n[1]\ntask_id: ${id}\n`,
    );
    expect((await run("TaskList", {})).output).toBe(
      "<system>Task list retrieved.</system>active_background_tasks: 0\n[no tasks]",
    );
    expect((await run("TaskStop", { task_id: "bash-nope" })).output).toBe(
      "<system>ERROR: Task not found: bash-nope</system>",
    );
    expect(() => run("Shell", { command: "x", run_in_background: true })).toThrow(/description is required/);
  });

  it("Glob lists relative paths sorted, refuses a leading ** with the listing", async () => {
    const { run, file } = workspace();
    file("src/b.ts", "");
    file("src/a.ts", "");
    file("src/.hidden.ts", "");
    expect((await run("Glob", { pattern: "src/*.ts" })).output).toBe(
      "<system>Found 3 matches for pattern `src/*.ts`.</system>src/.hidden.ts\nsrc/a.ts\nsrc/b.ts",
    );
    const refused = await run("Glob", { pattern: "**/*.ts" });
    expect(refused.isError).toBe(true);
    expect(refused.output).toMatch(
      /^<system>ERROR: Pattern `\*\*\/\*\.ts` starts with '\*\*' which is not allowed\./,
    );
    expect(refused.output).toContain("</system>└── src/");
  });

  it("Grep answers in ripgrep's lines with 1.49.0's summaries", async () => {
    const { run, file, cwd } = workspace();
    file("a.py", "x = 1\nx = 2\n");
    file("b.py", "x = 3\n");
    expect((await run("Grep", { pattern: "x =", output_mode: "count_matches" })).output).toMatch(
      /^<system>Found 3 total occurrences across 2 files\.<\/system>(\.\/a\.py:2\n\.\/b\.py:1|\.\/b\.py:1\n\.\/a\.py:2)$/,
    );
    expect((await run("Grep", { pattern: "nothing-here" })).output).toBe(
      "<system>No matches found.</system>",
    );
    // No message at all: no <system> line; the default `.` shows in ripgrep's paths.
    expect((await run("Grep", { pattern: "x = 2", output_mode: "content" })).output).toBe("./a.py:2:x = 2");
    // An absolute path: the paths come back relative to it.
    expect((await run("Grep", { pattern: "x = 3", path: cwd })).output).toBe("b.py");
  });

  it("SetTodoList replaces, reads back, and becomes the editor's plan", async () => {
    const { run } = workspace();
    expect((await run("SetTodoList", {})).output).toBe("Todo list is empty.");
    const set = await run("SetTodoList", { todos: [{ title: "fix", status: "in_progress" }] });
    expect(set.output).toBe("<system>Todo list updated</system>Todo list updated");
    expect(set.plan).toEqual([{ content: "fix", status: "in_progress", priority: "medium" }]);
    expect((await run("SetTodoList", {})).output).toBe("Current todo list:\n- [in_progress] fix");
  });
});
