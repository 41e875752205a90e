import { readFileSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { claudeCodeHarness } from "../src/harnesses/claude-code/claude-code-harness.js";
import { EMPTY_FILE_REMINDER, READ_REMINDER } from "../src/harnesses/shared/claude-code-core/tools/read.js";
import type { ToolResult } from "../src/tools/types.js";
import { harnessContext, tempDir, toolContext, toolRunner } from "./support/harness-fixtures.js";

const NOT_READ =
  "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>";
const STALE =
  "<tool_use_error>File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.</tool_use_error>";
const SNIPPET = "has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n";
/** Claude Code 2.1.44's Edit answer. */
const UPDATED = "has been updated successfully.";

let dir: string;
let call: (name: string, args: object) => Promise<ToolResult>;

beforeEach(() => {
  dir = tempDir("oi-cc-files-");
  const opened = claudeCodeHarness.open(harnessContext({ cwd: dir, model: "claude", scratchDir: dir }));
  const tools = opened.tools;
  call = toolRunner(tools, toolContext(dir));
});

const file = (name: string, content: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, content);
  return p;
};
const lines = (n: number) => Array.from({ length: n }, (_, i) => `line${i + 1}`).join("\n");
/** Moves a file's mtime into the future, as an edit by someone else a moment later would. */
const touchLater = (p: string) => utimesSync(p, new Date(), new Date(Date.now() + 10_000));

describe("Read", () => {
  it("numbers lines with →, shows the final newline as an empty line, and adds the reminder", async () => {
    const p = file("a.txt", "alpha\n\tbeta\n");
    expect(await call("Read", { file_path: p })).toEqual({
      output: `     1→alpha\n     2→\tbeta\n     3→${READ_REMINDER}`,
    });
  });

  it("reads a window with offset and limit, and cuts lines at 2000 characters", async () => {
    const p = file("b.txt", `${lines(12)}\n${"x".repeat(2500)}`);
    expect((await call("Read", { file_path: p, offset: 11, limit: 2 })).output).toBe(
      `    11→line11\n    12→line12${READ_REMINDER}`,
    );
    expect((await call("Read", { file_path: p, offset: 13 })).output).toBe(
      `    13→${"x".repeat(2000)}${READ_REMINDER}`,
    );
  });

  it("answers an empty file and an offset past the end with Claude Code's reminders", async () => {
    expect((await call("Read", { file_path: file("empty.txt", "") })).output).toBe(EMPTY_FILE_REMINDER);
    expect((await call("Read", { file_path: file("short.txt", "x\ny\nz"), offset: 10 })).output).toBe(
      "<system-reminder>Warning: the file exists but is shorter than the provided offset (10). The file has 3 lines.</system-reminder>",
    );
  });

  it("reports a missing file as a tool error", async () => {
    expect(await call("Read", { file_path: path.join(dir, "nope.txt") })).toEqual({
      output: "<tool_use_error>File does not exist.</tool_use_error>",
      isError: true,
    });
  });
});

describe("Edit", () => {
  it("refuses a file that was not Read, with the exact message, and changes nothing", async () => {
    const p = file("math.js", "a + b\n");
    expect(await call("Edit", { file_path: p, old_string: "+", new_string: "-" })).toEqual({
      output: NOT_READ,
      isError: true,
    });
    expect(readFileSync(p, "utf8")).toBe("a + b\n");
  });

  it("replaces a unique string and answers with 2.1.44's one line", async () => {
    const p = file("c.txt", `${lines(12)}\n`);
    await call("Read", { file_path: p });
    const result = await call("Edit", { file_path: p, old_string: "line6", new_string: "LINE6" });
    expect(result.output).toBe(`The file ${p} ${UPDATED}`);
    expect(result.display).toEqual([
      {
        type: "diff",
        path: p,
        oldText: `${lines(12)}\n`,
        newText: `${lines(12).replace("line6", "LINE6")}\n`,
      },
    ]);
    // Its own edit keeps the file "read": a second edit needs no new Read.
    expect(
      (await call("Edit", { file_path: p, old_string: "line7", new_string: "LINE7" })).isError,
    ).toBeFalsy();
  });

  it("reports a file changed on disk since it was read", async () => {
    const p = file("d.txt", "one\n");
    await call("Read", { file_path: p });
    writeFileSync(p, "two\n");
    touchLater(p);
    expect(await call("Edit", { file_path: p, old_string: "two", new_string: "three" })).toEqual({
      output: STALE,
      isError: true,
    });
    expect(readFileSync(p, "utf8")).toBe("two\n");
  });

  it("names the count when old_string is not unique, and replaces all on request", async () => {
    const p = file("e.txt", "x = 1\nx = 2\n");
    await call("Read", { file_path: p });
    expect((await call("Edit", { file_path: p, old_string: "x", new_string: "y" })).output).toBe(
      "<tool_use_error>Found 2 matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. To replace only one occurrence, please provide more context to uniquely identify the instance.\nString: x</tool_use_error>",
    );
    expect(
      (await call("Edit", { file_path: p, old_string: "x", new_string: "y", replace_all: true })).output,
    ).toBe(`The file ${p} has been updated. All occurrences of 'x' were successfully replaced with 'y'.`);
    expect(readFileSync(p, "utf8")).toBe("y = 1\ny = 2\n");
  });

  it("rejects a missing string, a no-op and creation over an existing file", async () => {
    const p = file("f.txt", "hello\n");
    await call("Read", { file_path: p });
    expect((await call("Edit", { file_path: p, old_string: "nope", new_string: "x" })).output).toBe(
      "<tool_use_error>String to replace not found in file.\nString: nope</tool_use_error>",
    );
    expect((await call("Edit", { file_path: p, old_string: "hello", new_string: "hello" })).output).toBe(
      "<tool_use_error>No changes to make: old_string and new_string are exactly the same.</tool_use_error>",
    );
    expect((await call("Edit", { file_path: p, old_string: "", new_string: "x" })).output).toBe(
      "<tool_use_error>Cannot create new file - file already exists.</tool_use_error>",
    );
  });

  it("creates a missing file from an empty old_string", async () => {
    const p = path.join(dir, "new.txt");
    expect((await call("Edit", { file_path: p, old_string: "", new_string: "a\nb" })).output).toBe(
      `The file ${p} ${UPDATED}`,
    );
    expect(readFileSync(p, "utf8")).toBe("a\nb");
  });
});

describe("Write", () => {
  it("creates a new file without a Read", async () => {
    const p = path.join(dir, "sub", "new.txt");
    expect((await call("Write", { file_path: p, content: "hi\n" })).output).toBe(
      `File created successfully at: ${p}`,
    );
    expect(readFileSync(p, "utf8")).toBe("hi\n");
  });

  it("overwrites an existing file only after a Read, and shows the new content numbered", async () => {
    const p = file("w.txt", "old\n");
    expect((await call("Write", { file_path: p, content: "new\n" })).output).toBe(NOT_READ);
    await call("Read", { file_path: p });
    expect((await call("Write", { file_path: p, content: "new\ncontent" })).output).toBe(
      `The file ${p} ${SNIPPET}     1→new\n     2→content`,
    );
  });
});
