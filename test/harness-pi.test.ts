import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { piHarness } from "../src/harnesses/pi/pi-harness.js";
import { piSystemPrompt } from "../src/harnesses/pi/system-prompt.js";
import { formatRead } from "../src/harnesses/shared/pi-core/tools/read.js";
import { chatView, harnessContext, tempDir, toolContext, toolRunner } from "./support/harness-fixtures.js";
import { schemaShape } from "./support/schema-shape.js";

const golden = JSON.parse(readFileSync(new URL("./golden/pi/tools.json", import.meta.url), "utf8"));

function workspace() {
  const cwd = tempDir("oi-pi-");
  const scratchDir = path.join(cwd, ".scratch");
  const opened = piHarness.open(harnessContext({ cwd, scratchDir }));
  const tools = opened.tools;
  const call = toolRunner(tools, toolContext(cwd));
  const write = (file: string, text: string) => writeFileSync(path.join(cwd, file), text);
  const read = (file: string) => readFileSync(path.join(cwd, file), "utf8");
  return { cwd, scratchDir, call, write, read };
}

describe("pi tool surface", () => {
  const opened = piHarness.open(harnessContext());
  const tools = opened.tools;

  it("has pi's four tools, in its order, with its parameter schema shapes, key order included", () => {
    const actual = tools.map((tool) => ({ name: tool.name, parameters: schemaShape(tool.parameters) }));
    expect(JSON.stringify(actual, null, 2)).toBe(JSON.stringify(golden, null, 2));
    expect(piHarness.matches("anything")).toBe(false);
  });

  it("describes every tool, with the caps and parameter names the model relies on", () => {
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.description]));
    expect(Object.keys(byName)).toEqual(["read", "bash", "edit", "write"]);
    expect(byName.read).toContain("2000 lines or 50KB");
    expect(byName.read).toContain("offset/limit");
    expect(byName.bash).toContain("last 2000 lines or 50KB");
    expect(byName.edit).toContain("edits[].oldText");
    for (const tool of tools) expect(tool.description.length).toBeGreaterThan(80);
  });

  it("sends the tools as chat functions and the short prompt with date and cwd last", () => {
    const ctx = harnessContext({ instructions: "Run npm test before answering." });
    const request = chatView(opened.render({ history: [], tools, ctx }));
    expect(request.tools.map((t) => [t.function.name, t.function.strict])).toEqual([
      ["read", false],
      ["bash", false],
      ["edit", false],
      ["write", false],
    ]);
    const system = piSystemPrompt(ctx);
    expect(request.messages[0]).toEqual({ role: "system", content: system });
    expect(system).toMatch(/^You are an expert coding assistant working inside pi/);
    expect(system).toContain("Available tools:\n- read: ");
    expect(system).toContain("\n\nGuidelines:\n- Use bash for file operations like ls, rg, find\n");
    expect(system).toContain(
      "# Project Context\n\nProject-specific instructions and guidelines:\n\n## AGENTS.md\n\nRun npm test before answering.\n\n",
    );
    expect(system.endsWith("\nCurrent date: 2026-03-01\nCurrent working directory: /work/project")).toBe(
      true,
    );
    expect(system.length).toBeLessThan(4000);
  });

  it("lists skills in pi's <available_skills> block, before the date and cwd", () => {
    const ctx = harnessContext({
      skills: [
        { name: "pdf", description: "Read & fill <PDF> forms", path: "/home/u/.agents/skills/pdf/SKILL.md" },
      ],
    });
    const system = piSystemPrompt(ctx);
    expect(system).toContain(
      "<available_skills>\n  <skill>\n    <name>pdf</name>\n    <description>Read &amp; fill &lt;PDF&gt; forms</description>\n" +
        "    <location>/home/u/.agents/skills/pdf/SKILL.md</location>\n  </skill>\n</available_skills>\nCurrent date: 2026-03-01",
    );
    expect(system).toContain("load its file with the read tool");
    expect(piSystemPrompt(harnessContext())).not.toContain("<available_skills>");
  });
});

describe("pi tool results", () => {
  it("read returns the raw text, continuation notes and Node's errors", async () => {
    const w = workspace();
    w.write("a.txt", "one\ntwo\nthree\n");
    expect(await w.call("read", { path: "a.txt" })).toEqual({ output: "one\ntwo\nthree\n" });
    expect(await w.call("read", { path: "a.txt", offset: 2, limit: 1 })).toEqual({
      output: "two\n\n[2 more lines in file. Use offset=3 to continue.]",
    });
    expect(await w.call("read", { path: "a.txt", offset: 9 })).toEqual({
      output: "Offset 9 is beyond end of file (4 lines total)",
      isError: true,
    });
    expect(await w.call("read", { path: "missing.txt" })).toEqual({
      output: `ENOENT: no such file or directory, access '${path.join(w.cwd, "missing.txt")}'`,
      isError: true,
    });
  });

  it("read cuts at 2000 lines or 50KB and names the next offset", () => {
    const lines = Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join("\n");
    const out = formatRead({ text: lines, path: "big.txt" }).output;
    expect(out.endsWith("line 2000\n\n[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]")).toBe(
      true,
    );
    const wide = Array.from({ length: 100 }, () => "x".repeat(1000)).join("\n");
    expect(formatRead({ text: wide, path: "w.txt" }).output).toMatch(
      /\n\n\[Showing lines 1-51 of 100 \(50\.0KB limit\)\. Use offset=52 to continue\.\]$/,
    );
    expect(formatRead({ text: "y".repeat(60_000), path: "one.txt" }).output).toBe(
      "[Line 1 is 58.6KB, exceeds 50.0KB limit. Use bash: sed -n '1p' one.txt | head -c 51200]",
    );
  });

  it("write creates parents and reports pi's byte count", async () => {
    const w = workspace();
    const result = await w.call("write", { path: "src/new.txt", content: "héllo\n" });
    expect(result.output).toBe("Successfully wrote 6 bytes to src/new.txt");
    expect(w.read("src/new.txt")).toBe("héllo\n");
  });

  it("edit applies one or several replacements and fails with pi's messages", async () => {
    const w = workspace();
    w.write("m.js", "const a = 1;\nconst b = 2;\nconst c = 1;\n");
    const one = await w.call("edit", {
      path: "m.js",
      edits: [{ oldText: "const b = 2;", newText: "const b = 3;" }],
    });
    expect(one.output).toBe("Successfully replaced 1 block(s) in m.js.");
    expect(one.display?.[0]).toMatchObject({
      type: "diff",
      newText: "const a = 1;\nconst b = 3;\nconst c = 1;\n",
    });
    // The older single-edit shape is still accepted, as pi's prepareArguments does.
    const legacy = await w.call("edit", { path: "m.js", oldText: "const c = 1;", newText: "const c = 4;" });
    expect(legacy.output).toBe("Successfully replaced 1 block(s) in m.js.");
    const two = await w.call("edit", {
      path: "m.js",
      edits: [
        { oldText: "a = 1", newText: "a = 10" },
        { oldText: "c = 4", newText: "c = 40" },
      ],
    });
    expect(two.output).toBe("Successfully replaced 2 block(s) in m.js.");
    expect(w.read("m.js")).toBe("const a = 10;\nconst b = 3;\nconst c = 40;\n");
    expect(await w.call("edit", { path: "m.js", edits: [{ oldText: "nope", newText: "x" }] })).toEqual({
      output:
        "Could not find the exact text in m.js. The old text must match exactly including all whitespace and newlines.",
      isError: true,
    });
    expect(
      (await w.call("edit", { path: "m.js", edits: [{ oldText: "const", newText: "let" }] })).output,
    ).toBe(
      "Found 3 occurrences of the text in m.js. The text must be unique. Please provide more context to make it unique.",
    );
    expect(
      (
        await w.call("edit", {
          path: "m.js",
          edits: [
            { oldText: "a = 10;\nconst b", newText: "x" },
            { oldText: "b = 3", newText: "y" },
          ],
        })
      ).output,
    ).toBe("edits[0] and edits[1] overlap in m.js. Merge them into one edit or target disjoint regions.");
    expect((await w.call("edit", { path: "gone.js", edits: [{ oldText: "a", newText: "b" }] })).output).toBe(
      "Could not edit file: gone.js. Error code: ENOENT.",
    );
    expect((await w.call("edit", { path: "m.js", edits: [] })).output).toBe(
      "Edit tool input is invalid. edits must contain at least one replacement.",
    );
  });

  it("edit falls back to pi's fuzzy match and keeps CRLF and untouched lines", async () => {
    const w = workspace();
    w.write("q.txt", "keep   \r\nsay \u201chi\u201d   \r\nend\r\n");
    const result = await w.call("edit", {
      path: "q.txt",
      edits: [{ oldText: 'say "hi"', newText: 'say "bye"' }],
    });
    expect(result.output).toBe("Successfully replaced 1 block(s) in q.txt.");
    expect(w.read("q.txt")).toBe('keep   \r\nsay "bye"\r\nend\r\n');
  });

  it("bash returns the output, pi's exit-code line, and the tail with the full-output file", async () => {
    const w = workspace();
    expect(await w.call("bash", { command: "echo hi" })).toMatchObject({ output: "hi\n", isError: false });
    expect(await w.call("bash", { command: "true" })).toMatchObject({ output: "(no output)" });
    expect(await w.call("bash", { command: "echo bad; exit 3" })).toMatchObject({
      output: "bad\n\n\nCommand exited with code 3",
      isError: true,
    });
    const long = await w.call("bash", { command: "seq 1 2500" });
    const spilled = readdirSync(w.scratchDir).find((f) => /^pi-bash-[0-9a-f]{16}\.log$/.test(f));
    expect(spilled).toBeDefined();
    const file = path.join(w.scratchDir, spilled!);
    expect(long.output.startsWith("502\n503\n")).toBe(true);
    expect(long.output.endsWith(`2500\n\n\n[Showing lines 502-2501 of 2501. Full output: ${file}]`)).toBe(
      true,
    );
    expect(readFileSync(file, "utf8").split("\n")).toHaveLength(2501);
    expect(await w.call("bash", { command: "echo started; sleep 5", timeout: 0.3 })).toMatchObject({
      output: "started\n\n\nCommand timed out after 0.3 seconds",
      isError: true,
    });
  });
});
