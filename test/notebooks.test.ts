import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { claudeCodeHarness } from "../src/harnesses/claude-code/claude-code-harness.js";
import { qwenCodeHarness } from "../src/harnesses/qwen-code/qwen-code-harness.js";
import { type ChatBody, type FakeModel, startFakeModel } from "./support/fake-model.js";
import { harnessWorkspace, writeFileAt } from "./support/harness-fixtures.js";
import { type InProcessAgent, startInProcess } from "./support/in-process.js";

// Notebook edits and reads, as Claude Code 2.1.44 and Qwen Code 0.24.4 answer them (the same
// plans as their captures, /root/cap/i21 §5 and Q2), and every file written stays nbformat 4.

const KERNEL = {
  kernelspec: { display_name: "Python 3", language: "python", name: "python3" },
  language_info: { name: "python" },
};

/** Claude Code's fixture: nbformat 4.5 with ids, and the same notebook at 4.4 without them. */
function claudeNotebooks(cwd: string): { nb: string; old: string } {
  const cells = [
    { cell_type: "markdown", id: "md-one", metadata: {}, source: ["# Title\n", "Some text"] },
    {
      cell_type: "code",
      execution_count: 3,
      id: "code-two",
      metadata: { tags: ["x"] },
      outputs: [{ name: "stdout", output_type: "stream", text: ["hello\n"] }],
      source: ["print('hello')"],
    },
    {
      cell_type: "code",
      execution_count: null,
      id: "code-three",
      metadata: {},
      outputs: [],
      source: ["x = 1\n", "x + 1"],
    },
  ];
  const nb = { cells, metadata: KERNEL, nbformat: 4, nbformat_minor: 5 };
  const old = { ...nb, nbformat_minor: 4, cells: cells.map(({ id: _id, ...cell }) => cell) };
  return {
    nb: writeFileAt(cwd, "nb.ipynb", JSON.stringify(nb, null, 1)),
    old: writeFileAt(cwd, "old.ipynb", JSON.stringify(old, null, 1)),
  };
}

/** What nbformat 4 requires of each cell: code cells with a count and outputs, no others with them. */
function expectValidNotebook(file: string): void {
  const notebook = JSON.parse(readFileSync(file, "utf8"));
  expect(notebook.nbformat).toBe(4);
  for (const cell of notebook.cells) {
    expect(cell.metadata, JSON.stringify(cell)).toBeTypeOf("object");
    expect(["string", "object"]).toContain(typeof cell.source);
    if (cell.cell_type === "code") {
      expect(cell, JSON.stringify(cell)).toHaveProperty("outputs");
      expect(cell, JSON.stringify(cell)).toHaveProperty("execution_count");
    } else {
      expect(cell, JSON.stringify(cell)).not.toHaveProperty("outputs");
      expect(cell, JSON.stringify(cell)).not.toHaveProperty("execution_count");
    }
  }
}

describe("claude-code NotebookEdit", () => {
  it("answers 2.1.44's plan with its texts and writes the notebook back with one-space JSON", async () => {
    const { cwd, run } = harnessWorkspace(claudeCodeHarness, { prefix: "oi-nb-cc-" });
    const { nb, old } = claudeNotebooks(cwd);
    const edit = async (args: Record<string, unknown>) => (await run("NotebookEdit", args)).output;
    expect(await edit({ notebook_path: nb, cell_id: "code-two", new_source: "print('changed')" })).toBe(
      "Updated cell code-two with print('changed')",
    );
    const inserted = await edit({
      notebook_path: nb,
      cell_id: "md-one",
      new_source: "y = 2",
      cell_type: "code",
      edit_mode: "insert",
    });
    expect(inserted).toMatch(/^Inserted cell [0-9a-z]{1,13} with y = 2$/);
    expect(
      await edit({ notebook_path: nb, new_source: "## Top", cell_type: "markdown", edit_mode: "insert" }),
    ).toMatch(/^Inserted cell [0-9a-z]{1,13} with ## Top$/);
    expect(
      await edit({ notebook_path: nb, cell_id: "code-three", new_source: "", edit_mode: "delete" }),
    ).toBe("Deleted cell code-three");
    expect(
      await edit({
        notebook_path: nb,
        cell_id: "code-two",
        new_source: "Now *markdown*",
        cell_type: "markdown",
      }),
    ).toBe("Updated cell code-two with Now *markdown*");
    expect(
      await edit({ notebook_path: nb, cell_id: "md-one", new_source: "z = 3", edit_mode: "insert" }),
    ).toBe("<tool_use_error>Cell type is required when using edit_mode=insert.</tool_use_error>");
    expect(await edit({ notebook_path: nb, cell_id: "no-such-cell", new_source: "q" })).toBe(
      '<tool_use_error>Cell with ID "no-such-cell" not found in notebook.</tool_use_error>',
    );
    expect(await edit({ notebook_path: old, cell_id: "cell-1", new_source: "print('old')" })).toBe(
      "Updated cell undefined with print('old')",
    );
    expect(
      await edit({
        notebook_path: old,
        cell_id: "cell-0",
        new_source: "new first",
        cell_type: "markdown",
        edit_mode: "insert",
      }),
    ).toBe("Inserted cell undefined with new first");
    writeFileAt(cwd, "notes.txt", "alpha\n");
    expect(await edit({ notebook_path: path.join(cwd, "notes.txt"), cell_id: "x", new_source: "q" })).toBe(
      "<tool_use_error>File must be a Jupyter notebook (.ipynb file). For editing other file types, use the FileEdit tool.</tool_use_error>",
    );
    expect(
      await edit({ notebook_path: path.join(cwd, "missing.ipynb"), cell_id: "x", new_source: "q" }),
    ).toBe("<tool_use_error>Notebook file does not exist.</tool_use_error>");
    expect(await edit({ notebook_path: "nb.ipynb", cell_id: "md-one", new_source: "relative path" })).toBe(
      "Updated cell md-one with relative path",
    );
    expect(await edit({ notebook_path: nb, cell_id: "cell-99", new_source: "q" })).toBe(
      "<tool_use_error>Cell with index 99 does not exist in notebook.</tool_use_error>",
    );

    const written = readFileSync(nb, "utf8");
    const notebook = JSON.parse(written);
    expect(written).toBe(JSON.stringify(notebook, null, 1));
    expect(
      notebook.cells.map((c: { id: string; cell_type: string; source: string }) => [c.cell_type, c.source]),
    ).toEqual([
      ["markdown", "## Top"],
      ["markdown", "relative path"],
      ["code", "y = 2"],
      ["markdown", "Now *markdown*"],
    ]);
    // 2.1.44 leaves a code cell's count and outputs on it when it turns markdown; ours stays valid.
    expect(notebook.cells[3]).toEqual({
      cell_type: "markdown",
      id: "code-two",
      metadata: { tags: ["x"] },
      source: "Now *markdown*",
    });
    expect(Object.keys(notebook.cells[2])).toEqual([
      "cell_type",
      "id",
      "source",
      "metadata",
      "execution_count",
      "outputs",
    ]);
    expectValidNotebook(nb);
    expectValidNotebook(old);
    expect(JSON.parse(readFileSync(old, "utf8")).cells.map((c: { source: string }) => c.source)).toEqual([
      ["# Title\n", "Some text"],
      "new first",
      "print('old')",
      ["x = 1\n", "x + 1"],
    ]);
  });

  it("Read shows a notebook as its cells, an image output as an image, and counts it as read for Edit", async () => {
    const { cwd, run } = harnessWorkspace(claudeCodeHarness, { prefix: "oi-nb-cc-" });
    const tiny = await sharp({ create: { width: 4, height: 3, channels: 3, background: "#336699" } })
      .png()
      .toBuffer();
    const rich = {
      cells: [
        {
          cell_type: "code",
          execution_count: 1,
          id: "c1",
          metadata: {},
          source: ["print('hi')\n", "1/0"],
          outputs: [
            { name: "stdout", output_type: "stream", text: ["hi\n"] },
            {
              ename: "ZeroDivisionError",
              evalue: "division by zero",
              output_type: "error",
              traceback: ["\u001b[0;31mZeroDivisionError\u001b[0m Traceback", "division by zero"],
            },
          ],
        },
        {
          cell_type: "code",
          execution_count: 2,
          id: "c2",
          metadata: {},
          source: "41+1",
          outputs: [
            {
              data: { "text/plain": ["42"] },
              execution_count: 2,
              metadata: {},
              output_type: "execute_result",
            },
          ],
        },
        {
          cell_type: "code",
          execution_count: 3,
          id: "c3",
          metadata: {},
          source: "show()",
          outputs: [
            {
              data: { "image/png": tiny.toString("base64"), "text/plain": ["<Figure size 4x3>"] },
              metadata: {},
              output_type: "display_data",
            },
          ],
        },
        { cell_type: "raw", id: "r1", metadata: {}, source: "raw cell text" },
      ],
      metadata: KERNEL,
      nbformat: 4,
      nbformat_minor: 5,
    };
    const file = writeFileAt(cwd, "rich.ipynb", JSON.stringify(rich, null, 1));
    const read = await run("Read", { file_path: file });
    // 2.1.44's blocks for this notebook, as captured.
    expect(read.parts).toEqual([
      {
        type: "text",
        text: '<cell id="c1">print(\'hi\')\n1/0</cell id="c1">\n\nhi\n\n\nZeroDivisionError: division by zero\n\u001b[0;31mZeroDivisionError\u001b[0m Traceback\ndivision by zero\n<cell id="c2">41+1</cell id="c2">\n\n42\n<cell id="c3">show()</cell id="c3">\n\n<Figure size 4x3>',
      },
      { type: "image", mimeType: "image/png", data: tiny.toString("base64") },
      { type: "text", text: '<cell id="r1"><cell_type>raw</cell_type>raw cell text</cell id="r1">' },
    ]);
    const plain = claudeNotebooks(cwd).nb;
    expect((await run("Read", { file_path: plain })).output).toBe(
      '<cell id="md-one"><cell_type>markdown</cell_type># Title\nSome text</cell id="md-one">\n' +
        '<cell id="code-two">print(\'hello\')</cell id="code-two">\n\nhello\n\n' +
        '<cell id="code-three">x = 1\nx + 1</cell id="code-three">',
    );
    // Read counts: Edit may change the notebook's JSON afterwards.
    const edited = await run("Edit", {
      file_path: plain,
      old_string: '"Some text"',
      new_string: '"More text"',
    });
    expect(edited.isError).toBeUndefined();
  });
});

describe("qwen-code notebook_edit and read_file", () => {
  function qwenNotebook(cwd: string): string {
    const nb = {
      cells: [
        { cell_type: "markdown", id: "c0", metadata: {}, source: ["# Title\n", "intro"] },
        {
          cell_type: "code",
          execution_count: 1,
          id: "c1",
          metadata: {},
          outputs: [{ name: "stdout", output_type: "stream", text: ["hello\n"] }],
          source: ["print('hello')"],
        },
        {
          cell_type: "code",
          execution_count: null,
          id: "c2",
          metadata: {},
          outputs: [],
          source: ["x = 1\n", "y = 2"],
        },
      ],
      metadata: KERNEL,
      nbformat: 4,
      nbformat_minor: 5,
    };
    return writeFileAt(cwd, "nb.ipynb", `${JSON.stringify(nb, null, 1)}\n`);
  }

  it("answers 0.24.4's plan with its texts, ids and line-array sources", async () => {
    const { cwd, run } = harnessWorkspace(qwenCodeHarness, { prefix: "oi-nb-qw-" });
    const nb = qwenNotebook(cwd);
    const edit = async (args: Record<string, unknown>) => (await run("notebook_edit", args)).output;
    expect(await edit({ notebook_path: nb, cell_id: "c1", new_source: "x" })).toBe(
      `Notebook ${nb} has not been fully read in this session. Use the read_file tool first, without offset or limit, before editing cells.`,
    );
    expect((await run("read_file", { file_path: nb })).output).toBe(
      "Jupyter Notebook (python, 3 cells)\n\n--- Markdown Cell c0 ---\n# Title\nintro\n\n--- Code Cell c1 [1] ---\n```python\nprint('hello')\n```\nOutput:\nhello\n\n\n--- Code Cell c2 ---\n```python\nx = 1\ny = 2\n```",
    );
    expect(await edit({ notebook_path: nb, cell_id: "c1", new_source: "print('replaced')\nprint(2)" })).toBe(
      `Notebook ${nb} has been updated. replace cell c1.\n\nUpdated source:\n\n---\n\nprint('replaced')\nprint(2)`,
    );
    expect(
      await edit({
        notebook_path: nb,
        cell_id: "c1",
        new_source: "## Inserted md",
        cell_type: "markdown",
        edit_mode: "insert",
      }),
    ).toBe(
      `Notebook ${nb} has been updated. insert cell qwen-cell-1.\n\nUpdated source:\n\n---\n\n## Inserted md`,
    );
    expect(await edit({ notebook_path: nb, cell_id: "c2", edit_mode: "delete" })).toBe(
      `Notebook ${nb} has been updated. delete cell c2.`,
    );
    expect(
      await edit({ notebook_path: nb, new_source: "top = True", cell_type: "code", edit_mode: "insert" }),
    ).toBe(
      `Notebook ${nb} has been updated. insert cell qwen-cell-2.\n\nUpdated source:\n\n---\n\ntop = True`,
    );
    expect(await edit({ notebook_path: nb, cell_id: "cell-1", new_source: "by index" })).toBe(
      'Cell with ID "cell-1" not found in notebook.',
    );
    expect(await edit({ notebook_path: nb, cell_id: "nope", new_source: "x" })).toBe(
      'Cell with ID "nope" not found in notebook.',
    );
    expect(await edit({ notebook_path: nb, new_source: "no id replace" })).toBe(
      "cell_id is required for replace and delete operations.",
    );
    expect(await edit({ notebook_path: nb, cell_id: "c0", new_source: "x", edit_mode: "insert" })).toBe(
      `Notebook ${nb} has been updated. insert cell qwen-cell-3.\n\nUpdated source:\n\n---\n\nx`,
    );
    expect(
      await edit({ notebook_path: path.join(cwd, "missing.ipynb"), cell_id: "c0", new_source: "x" }),
    ).toBe(`Notebook file not found: ${path.join(cwd, "missing.ipynb")}`);
    expect(await edit({ notebook_path: path.join(cwd, "notes.txt"), cell_id: "c0", new_source: "x" })).toBe(
      "File must be a Jupyter notebook (.ipynb). Use the edit tool for other file types.",
    );
    expect(await edit({ notebook_path: "nb.ipynb", cell_id: "c0", new_source: "x" })).toBe(
      "Notebook path must be absolute: nb.ipynb",
    );
    expect((await run("read_file", { file_path: nb })).output).toBe(
      "Jupyter Notebook (python, 5 cells)\n\n--- Code Cell qwen-cell-2 ---\n```python\ntop = True\n```\n\n--- Markdown Cell c0 ---\n# Title\nintro\n\n--- Code Cell qwen-cell-3 ---\n```python\nx\n```\n\n--- Code Cell c1 ---\n```python\nprint('replaced')\nprint(2)\n```\n\n--- Markdown Cell qwen-cell-1 ---\n## Inserted md",
    );
    const written = readFileSync(nb, "utf8");
    expect(written.endsWith("}\n")).toBe(true);
    const notebook = JSON.parse(written);
    expect(written).toBe(`${JSON.stringify(notebook, null, 1)}\n`);
    const c1 = notebook.cells.find((c: { id: string }) => c.id === "c1");
    expect(Object.keys(c1)).toEqual(["cell_type", "execution_count", "id", "metadata", "outputs", "source"]);
    expect(c1).toMatchObject({
      execution_count: null,
      outputs: [],
      source: ["print('replaced')\n", "print(2)"],
    });
    const inserted = notebook.cells.find((c: { id: string }) => c.id === "qwen-cell-2");
    expect(Object.keys(inserted)).toEqual([
      "cell_type",
      "metadata",
      "source",
      "id",
      "execution_count",
      "outputs",
    ]);
    expectValidNotebook(nb);
  });
});

describe("notebook edits end to end", () => {
  let model: FakeModel | undefined;
  let oi: InProcessAgent | undefined;
  afterEach(async () => {
    await oi?.close();
    await model?.close();
  });

  it("qwen-code on chat: reads the notebook, inserts a cell and the file on disk has it", async () => {
    model = await startFakeModel();
    oi = await startInProcess({ model, cli: { model: "qwen3-coder-plus", harness: "qwen-code" } });
    const { sessionId, cwd } = await oi.newSession();
    const nb = path.join(cwd, "nb.ipynb");
    writeFileSync(
      nb,
      `${JSON.stringify({ cells: [{ cell_type: "markdown", id: "a", metadata: {}, source: ["# A"] }], metadata: KERNEL, nbformat: 4, nbformat_minor: 5 }, null, 1)}\n`,
    );
    model.reply(
      { toolCalls: [{ id: "call_1", name: "read_file", arguments: { file_path: nb } }] },
      {
        toolCalls: [
          {
            id: "call_2",
            name: "notebook_edit",
            arguments: {
              notebook_path: nb,
              cell_id: "a",
              new_source: "print(1)",
              cell_type: "code",
              edit_mode: "insert",
            },
          },
        ],
      },
      { text: "Added a code cell." },
    );
    oi.editor.setPermission(() => "allow_once");
    expect(await oi.prompt(sessionId, "add a cell that prints 1")).toBe("end_turn");
    model.assertDone();
    const tool = (model.requests[2]!.body as ChatBody).messages.filter((m: ChatBody) => m.role === "tool");
    expect(tool[1].content).toEqual([
      {
        type: "text",
        text: `Notebook ${nb} has been updated. insert cell qwen-cell-1.\n\nUpdated source:\n\n---\n\nprint(1)`,
      },
    ]);
    expect(JSON.parse(readFileSync(nb, "utf8")).cells[1]).toEqual({
      cell_type: "code",
      metadata: {},
      source: ["print(1)"],
      id: "qwen-cell-1",
      execution_count: null,
      outputs: [],
    });
    // The editor was shown the change as a diff of the notebook.
    const diff = oi.editor
      .updates(sessionId)
      .flatMap((u) => (u.sessionUpdate === "tool_call_update" && Array.isArray(u.content) ? u.content : []))
      .find((c) => c.type === "diff");
    expect(diff).toMatchObject({ type: "diff", path: nb });
  });
  it("claude-code on messages: Read sends the cells and an output image as blocks, NotebookEdit changes a cell", async () => {
    model = await startFakeModel();
    oi = await startInProcess({
      model,
      cli: { model: "claude-sonnet-4-5", harness: "claude-code" },
      configToml: [
        'model_provider = "fake"',
        "[model_providers.fake]",
        `base_url = "${model.url}"`,
        'env_key = "FAKE_KEY"',
        'wire_api = "messages"',
        "",
      ].join("\n"),
      env: { FAKE_KEY: "sk-fake" },
    });
    const { sessionId, cwd } = await oi.newSession();
    const nb = path.join(cwd, "plot.ipynb");
    const dot = await sharp({ create: { width: 2, height: 2, channels: 3, background: "#ff0000" } })
      .png()
      .toBuffer();
    const cell = {
      cell_type: "code",
      execution_count: 1,
      id: "p1",
      metadata: {},
      source: "plot()",
      outputs: [{ data: { "image/png": dot.toString("base64") }, metadata: {}, output_type: "display_data" }],
    };
    writeFileSync(
      nb,
      JSON.stringify({ cells: [cell], metadata: KERNEL, nbformat: 4, nbformat_minor: 5 }, null, 1),
    );
    model.reply(
      { toolCalls: [{ id: "toolu_1", name: "Read", arguments: { file_path: nb } }] },
      {
        toolCalls: [
          {
            id: "toolu_2",
            name: "NotebookEdit",
            arguments: { notebook_path: nb, cell_id: "p1", new_source: "plot(2)" },
          },
        ],
      },
      { text: "Changed the plot call." },
    );
    oi.editor.setPermission(() => "allow_once");
    expect(await oi.prompt(sessionId, "plot twice as much")).toBe("end_turn");
    model.assertDone();
    const results = (model.requests[2]!.body as ChatBody).messages
      .flatMap((m: ChatBody) => (Array.isArray(m.content) ? m.content : []))
      .filter((block: ChatBody) => block.type === "tool_result");
    expect(results[0].content).toEqual([
      { type: "text", text: '<cell id="p1">plot()</cell id="p1">' },
      { type: "image", source: { type: "base64", media_type: "image/png", data: dot.toString("base64") } },
    ]);
    expect(results[1].content).toBe("Updated cell p1 with plot(2)");
    const written = JSON.parse(readFileSync(nb, "utf8"));
    expect(written.cells[0]).toEqual({ ...cell, source: "plot(2)", execution_count: null, outputs: [] });
  });
});
