import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { kimiCodeHarness } from "../src/harnesses/kimi-code/kimi-code-harness.js";
import { TODO_WRITE_REMINDER } from "../src/harnesses/kimi-code/tools/todo-list.js";
import type { ToolResult } from "../src/tools/types.js";
import { harnessContext, tempDir, toolContext, toolRunner, writeFileAt } from "./support/harness-fixtures.js";

let dir: string;
let call: (name: string, args: object) => Promise<ToolResult>;

/** Bash, Glob and Grep lead with Kimi Code 2.1.0's wall-time line: checked here, then set aside. */
function withoutWallTime(name: string, result: ToolResult): ToolResult {
  if (!["Bash", "Glob", "Grep"].includes(name)) return result;
  expect(result.output).toMatch(/^Wall time: \d+\.\d{3} seconds\n/);
  return { ...result, output: result.output.replace(/^Wall time: [0-9.]+ seconds\n/, "") };
}

beforeEach(() => {
  dir = tempDir("oi-kimi-files-");
  const opened = kimiCodeHarness.open(harnessContext({ cwd: dir, scratchDir: dir }));
  const tools = opened.tools;
  const run = toolRunner(tools, toolContext(dir));
  call = async (name, args) => withoutWallTime(name, await run(name, args));
});

const file = (name: string, content: string, ageSeconds = 0) => writeFileAt(dir, name, content, ageSeconds);
const read = (name: string) => readFileSync(path.join(dir, name), "utf8");

describe("Write", () => {
  it("overwrites, appends and creates parents, reporting bytes like Kimi Code", async () => {
    expect(await call("Write", { path: "a/b/new.txt", content: "héllo\n" })).toMatchObject({
      output: "Wrote 7 bytes to a/b/new.txt",
    });
    expect((await call("Write", { path: "a/b/new.txt", content: "more", mode: "append" })).output).toBe(
      "Appended 4 bytes to a/b/new.txt",
    );
    expect(read("a/b/new.txt")).toBe("héllo\nmore");
  });

  it("refuses secrets and relative paths outside the workspace", async () => {
    expect(await call("Write", { path: ".env.local", content: "x" })).toEqual({
      output:
        '".env.local" matches a sensitive-file pattern (env / credential / SSH key). Access is blocked to protect secrets.',
      isError: true,
    });
    expect((await call("Write", { path: "../x.txt", content: "x" })).output).toBe(
      '"../x.txt" is not an absolute path. You must provide an absolute path to write or edit a file outside the working directory.',
    );
  });
});

describe("Edit", () => {
  it("replaces a unique string and says how many occurrences changed", async () => {
    file("calc.js", "return a - b;\n");
    expect(await call("Edit", { path: "calc.js", old_string: "a - b", new_string: "a + b" })).toMatchObject({
      output: "Replaced 1 occurrence in calc.js",
    });
    expect(read("calc.js")).toBe("return a + b;\n");
  });

  it("requires uniqueness unless replace_all, with Kimi Code's messages", async () => {
    file("dup.txt", "x x x\n");
    expect(await call("Edit", { path: "dup.txt", old_string: "x", new_string: "y" })).toEqual({
      output:
        "old_string is not unique in dup.txt (found 3 occurrences). To replace every occurrence, set replace_all=true. To replace only one occurrence, include more surrounding context in old_string.",
      isError: true,
    });
    expect(
      (await call("Edit", { path: "dup.txt", old_string: "x", new_string: "y", replace_all: true })).output,
    ).toBe("Replaced 3 occurrences in dup.txt");
    expect((await call("Edit", { path: "dup.txt", old_string: "zzz", new_string: "w" })).output).toBe(
      "old_string not found in dup.txt, the file contents may be out of date. Please use the Read Tool to reload the content.\n",
    );
    expect((await call("Edit", { path: "dup.txt", old_string: "y", new_string: "y" })).output).toBe(
      "No changes to make: old_string and new_string are exactly the same.",
    );
    expect((await call("Edit", { path: "gone.txt", old_string: "a", new_string: "b" })).output).toBe(
      "read failed: path does not exist",
    );
  });

  it("matches the LF view of a CRLF file and writes CRLF back", async () => {
    file("win.txt", "one\r\ntwo\r\n");
    await call("Edit", { path: "win.txt", old_string: "one\ntwo", new_string: "1\n2" });
    expect(read("win.txt")).toBe("1\r\n2\r\n");
  });
});

describe("Glob", () => {
  it("matches a bare pattern at any depth, newest first, relative to the search root", async () => {
    file("old.ts", "", 100);
    file("src/new.ts", "", 10);
    file("src/deep/mid.ts", "", 50);
    file("readme.md", "");
    expect((await call("Glob", { pattern: "*.ts" })).output).toBe("src/new.ts\nsrc/deep/mid.ts\nold.ts");
    expect((await call("Glob", { pattern: "src/*.ts" })).output).toBe("src/new.ts");
    expect((await call("Glob", { pattern: "*.ts", path: "src" })).output).toBe("new.ts\ndeep/mid.ts");
    expect((await call("Glob", { pattern: "*.rs" })).output).toBe("No matches found");
  });

  it("leaves out secrets, counting those ripgrep did not already skip, and pages at 100 paths", async () => {
    file(".env", "");
    file("keep.env.example", "");
    expect((await call("Glob", { pattern: ".env" })).output).toBe("No matches found");
    file(".env.local", "");
    expect((await call("Glob", { pattern: ".env.l*" })).output).toBe(
      "No non-sensitive matches found (1 sensitive file(s) filtered).",
    );
    for (let i = 0; i < 101; i++) file(`many/f${String(i).padStart(3, "0")}.txt`, "", i);
    const lines = (await call("Glob", { pattern: "many/*.txt" })).output.split("\n");
    expect(lines.slice(0, 4)).toEqual([
      "Showing matches 1–100 of 101.",
      "Continue with the same search arguments and offset=100.",
      "To remove the match-count limit, omit offset and use head_limit=0.",
      "many/f000.txt",
    ]);
    expect(lines).toHaveLength(103);
    expect((await call("Glob", { pattern: "many/*.txt", offset: 100 })).output).toBe(
      "Showing matches 101–101 of 101.\nmany/f100.txt",
    );
    expect((await call("Glob", { pattern: "x", path: "nope" })).output).toBe(
      `${path.join(dir, "nope")} does not exist`,
    );
  });
});

describe("Grep", () => {
  beforeEach(() => {
    file("src/a.ts", "const alpha = 1;\nconst beta = 2;\nalpha + beta;\n", 100);
    file("src/b.ts", "export const alpha = 3;\n", 10);
    file(".env", "alpha=secret\n");
  });

  it("lists files newest first by default and filters secrets", async () => {
    expect((await call("Grep", { pattern: "alpha" })).output).toBe(
      "src/b.ts\nsrc/a.ts\nFiltered 1 sensitive file(s): .env",
    );
  });

  it("shows content lines with numbers and context, paths relative to the working directory", async () => {
    expect(
      (await call("Grep", { pattern: "beta", path: "src", output_mode: "content", "-B": 1 })).output,
    ).toBe("src/a.ts-1-const alpha = 1;\nsrc/a.ts:2:const beta = 2;\nsrc/a.ts:3:alpha + beta;");
    expect(
      (await call("Grep", { pattern: "beta", path: "src/a.ts", output_mode: "content", "-n": false })).output,
    ).toBe("src/a.ts:const beta = 2;\nsrc/a.ts:alpha + beta;");
  });

  it("counts matches under a total line, and pages with head_limit and offset", async () => {
    expect((await call("Grep", { pattern: "alpha", path: "src", output_mode: "count_matches" })).output).toBe(
      "Found 3 total occurrences across 2 files.\nsrc/a.ts:2\nsrc/b.ts:1",
    );
    expect(
      (await call("Grep", { pattern: "a", path: "src", output_mode: "content", head_limit: 2, offset: 1 }))
        .output,
    ).toBe(
      "src/a.ts:2:const beta = 2;\nsrc/a.ts:3:alpha + beta;\nResults truncated to 2 lines (total: 4). Use offset=3 to see more.",
    );
    expect((await call("Grep", { pattern: "nothing-here" })).output).toBe("No non-sensitive matches found");
  });
});

describe("TodoList", () => {
  it("replaces, queries and clears the list, and sends the plan to the editor", async () => {
    expect((await call("TodoList", {})).output).toBe("Todo list is empty.");
    const todos = [
      { title: "Read calc.js", status: "done" },
      { title: "Fix add", status: "in_progress" },
      { title: "Run tests", status: "pending" },
    ];
    expect(await call("TodoList", { todos })).toEqual({
      output: `Todo list updated.\nCurrent todo list:\n  [done] Read calc.js\n  [in_progress] Fix add\n  [pending] Run tests\n\n${TODO_WRITE_REMINDER}`,
      plan: [
        { content: "Read calc.js", status: "completed", priority: "medium" },
        { content: "Fix add", status: "in_progress", priority: "medium" },
        { content: "Run tests", status: "pending", priority: "medium" },
      ],
    });
    expect((await call("TodoList", {})).output).toBe(
      "Current todo list:\n  [done] Read calc.js\n  [in_progress] Fix add\n  [pending] Run tests",
    );
    expect(await call("TodoList", { todos: [] })).toEqual({ output: "Todo list cleared.", plan: [] });
  });
});
