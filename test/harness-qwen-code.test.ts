import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { editSnippet } from "../src/harnesses/qwen-code/edit-snippet.js";
import { qwenCodeHarness } from "../src/harnesses/qwen-code/qwen-code-harness.js";
import { harnessWorkspace, tempDir } from "./support/harness-fixtures.js";
import { schemaShape } from "./support/schema-shape.js";

/** A temp workspace with the harness's tools already built. */
function setup() {
  const ws = harnessWorkspace(qwenCodeHarness, {
    prefix: "oi-qc-",
    context: { model: "qwen3-coder-plus", currentDate: "2026-08-21", isGitRepo: false },
  });
  return { ...ws, tools: ws.tools() };
}

describe("Qwen Code tool surface", () => {
  it("has Qwen Code 0.24.4's tools with its schema shapes", async () => {
    const { tools } = setup();
    expect(tools.map((t) => t.name)).toEqual([
      "agent",
      "edit",
      "glob",
      "grep_search",
      "notebook_edit",
      "read_file",
      "run_shell_command",
      "skill",
      "write_file",
    ]);
    const surface = tools.map((t) => ({ name: t.name, parameters: schemaShape(t.parameters) }));
    await expect(JSON.stringify(surface, null, 2)).toMatchFileSnapshot("golden/qwen-code/tools.json");
    for (const tool of tools) expect(tool.description.length).toBeGreaterThan(40);
  });

  it("is chosen for Qwen and QwQ models", () => {
    for (const model of ["qwen3-coder-plus", "Qwen/Qwen2.5-Coder-32B", "qwq-32b", "openrouter/qwq"]) {
      expect(qwenCodeHarness.matches(model)).toBe(true);
    }
    expect(qwenCodeHarness.matches("gpt-5")).toBe(false);
  });
});

describe("read_file", () => {
  it("needs an absolute path and returns the text as it is", async () => {
    const { run, file } = setup();
    const target = file("a.txt", "one\ntwo\n");
    expect(await run("read_file", { file_path: "a.txt" })).toEqual({
      output: "File path must be absolute, but was relative: a.txt. You must provide an absolute path.",
      isError: true,
    });
    expect((await run("read_file", { file_path: target })).output).toBe("one\ntwo\n");
  });

  it("pages with a 0-based offset and says which lines it shows", async () => {
    const { run, file } = setup();
    const target = file("big.txt", Array.from({ length: 1500 }, (_, i) => `line ${i + 1}`).join("\n"));
    const { output } = await run("read_file", { file_path: target });
    expect(output.startsWith("Showing lines 1-1000 of 1500 total lines.\n\n---\n\nline 1\n")).toBe(true);
    expect(output.endsWith("\nline 1000")).toBe(true);
    expect((await run("read_file", { file_path: target, offset: 1498, limit: 5 })).output).toBe(
      "Showing lines 1499-1500 of 1500 total lines.\n\n---\n\nline 1499\nline 1500",
    );
  });

  it("cuts at 25 000 characters", async () => {
    const { run, file } = setup();
    const target = file("wide.txt", `${"a".repeat(20_000)}\n${"b".repeat(20_000)}\n`);
    const { output } = await run("read_file", { file_path: target });
    expect(output).toBe(
      `Showing lines 1-2 of 3 total lines.\n\n---\n\n${"a".repeat(20_000)}\n${"b".repeat(4_999)}... [truncated]`,
    );
  });

  it("answers a repeated full read of an unchanged file with Qwen's placeholder", async () => {
    const { run, file } = setup();
    const target = file("a.txt", "hello\n");
    await run("read_file", { file_path: target });
    expect((await run("read_file", { file_path: target })).output).toBe(
      "[File a.txt unchanged since last read in this session — the full content was provided earlier in this conversation. If you cannot retrieve that prior content (e.g. after context compaction) or you suspect the file was modified outside the read/edit tools (shell command, MCP tool, another process), re-read with explicit offset/limit to fetch current content.]",
    );
    expect((await run("read_file", { file_path: target, offset: 0, limit: 1 })).output).toBe(
      "Showing lines 1-1 of 2 total lines.\n\n---\n\nhello",
    );
  });
});

describe("edit and write_file", () => {
  it("refuses to edit a file that was not fully read in this session", async () => {
    const { run, file } = setup();
    const target = file("a.js", "let x = 1;\n");
    expect(await run("edit", { file_path: target, old_string: "x = 1", new_string: "x = 2" })).toEqual({
      output: `File ${target} has not been fully read in this session. Use the read_file tool first (without offset / limit / pages) to load the entire current text content before editing it.`,
      isError: true,
    });
    await run("read_file", { file_path: target });
    writeFileSync(target, "let x = 10;\n");
    const later = Date.now() / 1000 + 5;
    (await import("node:fs")).utimesSync(target, later, later);
    expect((await run("edit", { file_path: target, old_string: "x = 10", new_string: "x = 2" })).output).toBe(
      `File ${target} has been modified since you last read it (mtime or size changed). Re-read it with the read_file tool before editing it to ensure your changes are based on current content.`,
    );
  });

  it("replaces exactly once and shows the edited lines with four lines of context", async () => {
    const { run, file } = setup();
    const lines = Array.from({ length: 12 }, (_, i) => `const v${i + 1} = ${i + 1};`);
    const target = file("v.js", `${lines.join("\n")}\n`);
    await run("read_file", { file_path: target });
    const result = await run("edit", {
      file_path: target,
      old_string: "const v6 = 6;",
      new_string: "const v6 = 60;",
    });
    expect(result.output).toBe(
      `The file: ${target} has been updated. Showing lines 2-10 of 13 from the edited file:\n\n---\n\nconst v2 = 2;\nconst v3 = 3;\nconst v4 = 4;\nconst v5 = 5;\nconst v6 = 60;\nconst v7 = 7;\nconst v8 = 8;\nconst v9 = 9;\nconst v10 = 10;`,
    );
    // Our own edit counts as a read: a second edit goes through.
    expect(
      (await run("edit", { file_path: target, old_string: "const v7 = 7;", new_string: "const v7 = 70;" }))
        .isError,
    ).toBeUndefined();
    expect(readFileSync(target, "utf8")).toContain("const v6 = 60;\nconst v7 = 70;\n");
  });

  it("answers a missing or repeated old_string with Qwen's error texts", async () => {
    const { run, file } = setup();
    const target = file("a.txt", "x\nx\n");
    await run("read_file", { file_path: target });
    expect((await run("edit", { file_path: target, old_string: "y", new_string: "z" })).output).toBe(
      `Failed to edit, 0 occurrences found for old_string in ${target}. No edits made. The exact text in old_string was not found. Ensure you're not escaping content incorrectly and check whitespace, indentation, and context. Use read_file tool to verify.`,
    );
    expect((await run("edit", { file_path: target, old_string: "x", new_string: "z" })).output).toBe(
      `Failed to edit. Found 2 occurrences for old_string in ${target} but replace_all was not enabled.`,
    );
    expect(
      (await run("edit", { file_path: target, old_string: "x", new_string: "z", replace_all: true })).output,
    ).toMatch(/has been updated\. Showing lines 1-3 of 3 from the edited file:\n\n---\n\nz\nz\n$/);
    expect((await run("edit", { file_path: target, old_string: "  z", new_string: "q" })).isError).toBe(true);
  });

  it("creates files with an empty old_string or write_file, and guards overwrites", async () => {
    const { run, cwd, file } = setup();
    const fresh = path.join(cwd, "new.txt");
    expect((await run("edit", { file_path: fresh, old_string: "", new_string: "a\nb" })).output).toBe(
      `Created new file: ${fresh} with provided content. Showing lines 1-2 of 2 from the edited file:\n\n---\n\na\nb`,
    );
    const other = path.join(cwd, "other.txt");
    expect((await run("write_file", { file_path: other, content: "1" })).output).toBe(
      `Successfully created and wrote to new file: ${other}.`,
    );
    expect((await run("write_file", { file_path: other, content: "2" })).output).toBe(
      `Successfully overwrote file: ${other}.`,
    );
    const unread = file("unread.txt", "old");
    expect((await run("write_file", { file_path: unread, content: "new" })).output).toBe(
      `File ${unread} has not been fully read in this session. Use the read_file tool first (without offset / limit / pages) to load the entire current text content before overwriting it.`,
    );
    expect((await run("write_file", { file_path: "rel.txt", content: "x" })).output).toBe(
      "File path must be absolute: rel.txt",
    );
  });

  it("finds the changed region from both ends", () => {
    expect(editSnippet("a\nb\nc\n", "a\nB\nc\n")).toEqual({
      startLine: 1,
      endLine: 4,
      totalLines: 4,
      content: "a\nB\nc\n",
    });
    expect(editSnippet(null, "x")).toEqual({ startLine: 1, endLine: 1, totalLines: 1, content: "x" });
    expect(editSnippet("same", "same")).toBeUndefined();
  });
});

describe("0.24.4 parameters", () => {
  it("loads a skill from the catalog without its front matter, and names the known ones otherwise", async () => {
    const skillDir = tempDir("oi-qc-skill-");
    const skillFile = path.join(skillDir, "SKILL.md");
    writeFileSync(skillFile, "---\nname: release\ndescription: Cut a release\n---\n\nBump, tag, push.\n");
    const ws = harnessWorkspace(qwenCodeHarness, {
      prefix: "oi-qc-",
      context: { skills: [{ name: "release", description: "Cut a release", path: skillFile }] },
    });
    expect(await ws.run("skill", { skill: "release", args: "v2" })).toEqual({
      output: `Base directory for this skill: ${skillDir}\n\nBump, tag, push.\n\nArguments: v2`,
    });
    expect(await ws.run("skill", { skill: "deploy" })).toEqual({
      output: 'Skill "deploy" not found. Available skills: release',
      isError: true,
    });
  });

  it("takes null for read_file's offset and limit, and refuses what this session cannot do", async () => {
    const { run, file } = setup();
    const target = file("a.txt", "one\ntwo\n");
    expect((await run("read_file", { file_path: target, offset: null, limit: null })).output).toBe(
      "one\ntwo\n",
    );
    expect(await run("read_file", { file_path: target, pages: "1-2" })).toMatchObject({ isError: true });
  });
});
