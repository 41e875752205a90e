import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { editorCall } from "../src/harnesses/swe-agent/editor-args.js";
import { strReplaceEditorTool } from "../src/harnesses/swe-agent/str-replace-editor.js";
import { sweAgentHarness } from "../src/harnesses/swe-agent/swe-agent-harness.js";
import { tempDir, toolContext } from "./support/harness-fixtures.js";

const USAGE =
  "usage: str_replace_editor [-h] [--file_text FILE_TEXT] [--view_range VIEW_RANGE VIEW_RANGE] [--old_str OLD_STR] [--new_str NEW_STR] [--insert_line INSERT_LINE] command path";

describe("str_replace_editor command line", () => {
  it("reads the words as the original's argparse does", () => {
    expect(editorCall("str_replace_editor view /w/a.py --view_range 3 -1")).toEqual({
      args: { command: "view", path: "/w/a.py", view_range: [3, -1] },
    });
    expect(
      editorCall("str_replace_editor str_replace /w/a.py --old_str 'x = 1\n' --new_str=\"x = 2\n\""),
    ).toEqual({
      args: { command: "str_replace", path: "/w/a.py", old_str: "x = 1\n", new_str: "x = 2\n" },
    });
    expect(editorCall("str_replace_editor insert /w/a.py --insert_line 2 --new_str 'y'")).toEqual({
      args: { command: "insert", path: "/w/a.py", insert_line: 2, new_str: "y" },
    });
    expect(editorCall("str_replace_editor view")).toEqual({
      error: `${USAGE}\nstr_replace_editor: error: the following arguments are required: path`,
    });
    expect(editorCall("str_replace_editor view /a --insert_line two")).toEqual({
      error: `${USAGE}\nstr_replace_editor: error: argument --insert_line: invalid int value: 'two'`,
    });
    // Anything but a simple command runs in bash as written.
    expect(editorCall("str_replace_editor view /a && ls")).toBeUndefined();
    expect(editorCall("ls")).toBeUndefined();
  });

  it("is parsed out of a reply as a str_replace_editor call", () => {
    const reply = "DISCUSSION\nLook.\n\n```\nstr_replace_editor view /w/a.py\n```";
    expect(sweAgentHarness.parse!(reply, { step: 1, newId: () => "e1" })).toEqual({
      calls: [
        {
          id: "e1",
          name: "str_replace_editor",
          arguments: JSON.stringify({ command: "view", path: "/w/a.py" }),
        },
      ],
    });
  });
});

describe("str_replace_editor", () => {
  const setup = () => {
    const cwd = tempDir("oi-swe-edit-");
    const file = path.join(cwd, "a.py");
    writeFileSync(file, "def f():\n\treturn 1\n\n\nprint(f())\n");
    const tool = strReplaceEditorTool();
    const ctx = toolContext(cwd);
    const run = async (args: Record<string, unknown>) => tool.execute(tool.schema.parse(args), ctx);
    return { cwd, file, run };
  };

  it("views a file as cat -n, a range of it, and a directory two levels deep", async () => {
    const { cwd, file, run } = setup();
    expect((await run({ command: "view", path: file })).output).toBe(
      `OBSERVATION:\nHere's the result of running \`cat -n\` on ${file}:\n     1\tdef f():\n     2\t        return 1\n     3\t\n     4\t\n     5\tprint(f())\n     6\t\n\n`,
    );
    expect((await run({ command: "view", path: file, view_range: [2, 2] })).output).toContain(
      `on ${file}:\n     2\t        return 1\n\n`,
    );
    expect((await run({ command: "view", path: file, view_range: [9, 9] })).output).toBe(
      `OBSERVATION:\nInvalid \`view_range\`: [9, 9]. Its first element \`9\` should be within the range of lines of the file: [1, 6]\n`,
    );
    mkdirSync(path.join(cwd, "pkg", ".hidden"), { recursive: true });
    const listing = (await run({ command: "view", path: cwd })).output;
    expect(listing).toContain(
      `Here's the files and directories up to 2 levels deep in ${cwd}, excluding hidden items:\n`,
    );
    expect(listing).toContain(`${cwd}/pkg\n`);
    expect(listing).not.toContain(".hidden");
  });

  it("replaces a unique string with a snippet, refuses missing or repeated ones, and undoes", async () => {
    const { file, run } = setup();
    const edited = await run({
      command: "str_replace",
      path: file,
      old_str: "return 1",
      new_str: "return 2",
    });
    expect(edited.output).toBe(
      `OBSERVATION:\nThe file ${file} has been edited. Here's the result of running \`cat -n\` on a snippet of ${file}:\n` +
        "     1\tdef f():\n     2\t        return 2\n     3\t\n     4\t\n     5\tprint(f())\n" +
        "Review the changes and make sure they are as expected. Edit the file again if necessary.\n",
    );
    // The original writes the file with its tabs expanded.
    expect(readFileSync(file, "utf8")).toBe("def f():\n        return 2\n\n\nprint(f())\n");
    expect((await run({ command: "str_replace", path: file, old_str: "nope" })).output).toBe(
      `OBSERVATION:\nNo replacement was performed, old_str \`nope\` did not appear verbatim in ${file}.\n`,
    );
    expect((await run({ command: "str_replace", path: file, old_str: "f()" })).output).toBe(
      `OBSERVATION:\nNo replacement was performed. Multiple occurrences of old_str \`f()\` in lines [1, 5]. Please ensure it is unique\n`,
    );
    const undone = await run({ command: "undo_edit", path: file });
    expect(undone.output).toContain(
      `Last edit to ${file} undone successfully. Here's the result of running \`cat -n\` on ${file}:\n`,
    );
    expect(readFileSync(file, "utf8")).toBe("def f():\n        return 1\n\n\nprint(f())\n");
    expect((await run({ command: "undo_edit", path: file })).output).toBe(
      `OBSERVATION:\nNo edit history found for ${file}.\n`,
    );
  });

  it("creates and inserts, with the original's checks on paths", async () => {
    const { cwd, file, run } = setup();
    const created = path.join(cwd, "b.py");
    expect((await run({ command: "create", path: created, file_text: "x = 1\n" })).output).toBe(
      `OBSERVATION:\nFile created successfully at: ${created}\n`,
    );
    expect((await run({ command: "create", path: created, file_text: "" })).output).toBe(
      `OBSERVATION:\nFile already exists at: ${created}. Cannot overwrite files using command \`create\`.\n`,
    );
    expect((await run({ command: "view", path: "a.py" })).output).toBe(
      `OBSERVATION:\nThe path a.py is not an absolute path, it should start with \`/\`. Maybe you meant ${file}?\n`,
    );
    const inserted = await run({ command: "insert", path: created, insert_line: 1, new_str: "y = 2" });
    expect(inserted.output).toContain(
      "on a snippet of the edited file:\n     1\tx = 1\n     2\ty = 2\n     3\t\n",
    );
    expect(inserted.output).toContain("(correct indentation, no duplicate lines, etc)");
    expect(readFileSync(created, "utf8")).toBe("x = 1\ny = 2\n");
    expect((await run({ command: "str_replace", path: cwd, old_str: "x" })).output).toBe(
      `OBSERVATION:\nThe path ${cwd} is a directory and only the \`view\` command can be used on directories\n`,
    );
    expect((await run({ command: "delete", path: file })).isError).toBe(true);
  });
});
