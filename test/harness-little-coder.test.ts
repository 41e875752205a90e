import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { littleCoderHarness } from "../src/harnesses/little-coder/little-coder-harness.js";
import { BROWSING_GUIDANCE, READ_WRITE_GUIDANCE } from "../src/harnesses/little-coder/system-prompt.js";
import { formatShellOutput } from "../src/harnesses/little-coder/tools/shell-output.js";
import type { HistoryEvent } from "../src/store/events.js";
import {
  chatView,
  harnessContext,
  harnessWorkspace,
  toolContext,
  toolRunner,
} from "./support/harness-fixtures.js";
import { schemaShape } from "./support/schema-shape.js";
import {
  loopbackWeb,
  type PageServer,
  type SearchBackend,
  startPageServer,
  startSearchBackend,
} from "./support/web-fixtures.js";

// The golden is the original's parameter shapes: pi's four tools as pi sends them, then the
// little-coder extension tools as pi 0.83 builds them from its source (its own TypeBox 1.3).
const golden = JSON.parse(readFileSync(new URL("./golden/little-coder/tools.json", import.meta.url), "utf8"));

const said = (text: string): HistoryEvent => ({
  type: "user_message",
  turnId: "t1",
  content: [{ type: "text", text }],
});

describe("little-coder tool surface and request", () => {
  const opened = littleCoderHarness.open(harnessContext());

  it("has the original's tools in its order with its parameter shapes, key order included", () => {
    const actual = opened.tools.map((tool) => ({
      name: tool.name,
      parameters: schemaShape(tool.parameters),
    }));
    expect(JSON.stringify(actual, null, 2)).toBe(JSON.stringify(golden, null, 2));
    expect(littleCoderHarness.matches("qwen3.6-35b-a3b")).toBe(false);
  });

  it("sends its own prompt with pi's date and cwd lines, the cards for the task last, no project AGENTS.md", () => {
    const ctx = harnessContext({ instructions: "Run npm test before answering." });
    const request = chatView(
      opened.render({ history: [said("Fix add() in calc.py")], tools: opened.tools, ctx }),
    );
    const system = request.messages[0]?.content as string;
    expect(request.messages[0]?.role).toBe("system");
    expect(system).toMatch(/^# little-coder\n\nYou are little-coder/);
    for (const section of [
      "Runtime invariants",
      "Available Tools",
      "Per-turn context augmentation",
      "Guidelines",
    ])
      expect(system).toContain(`\n# ${section}\n`);
    expect(system).toContain(
      "\n\nCurrent date: 2026-03-01\nCurrent working directory: /work/project\n\n## Tool Usage Guidance\n\n### Read\n",
    );
    expect(system.endsWith(READ_WRITE_GUIDANCE)).toBe(true);
    // little-coder starts pi with --no-context-files: its prompt wins over the project's.
    expect(system).not.toContain("Run npm test before answering.");
    // pi sends user text as parts.
    expect(request.messages[1]).toEqual({
      role: "user",
      content: [{ type: "text", text: "Fix add() in calc.py" }],
    });
    expect(request.tools.every((t) => t.function.strict === false)).toBe(true);
    expect(request.knobs).toMatchObject({ temperature: 0.3, store: false, max_completion_tokens: 32000 });
  });

  it("switches to the research cards when the user speaks of a URL, and sends none before anyone spoke", () => {
    const ctx = harnessContext();
    const research = chatView(
      opened.render({ history: [said("Open this URL and cite it")], tools: [], ctx }),
    );
    const system = research.messages[0]?.content as string;
    expect(system.endsWith(BROWSING_GUIDANCE)).toBe(true);
    expect(BROWSING_GUIDANCE).toMatch(/^## Algorithm Reference\n\n### Workspace Documentation\n/);
    expect(BROWSING_GUIDANCE).toContain("\n\n\n## Tool Usage Guidance\n\n### Glob\n");
    expect(BROWSING_GUIDANCE).toMatch(/\n## Research-first directive\n[\s\S]*EvidenceAdd/);
    const empty = chatView(opened.render({ history: [], tools: [], ctx }));
    expect(empty.messages[0]?.content).toMatch(/Current working directory: \/work\/project$/);
  });

  it("lists the original's browser tools it leaves out as pending in docs/harnesses.md, with the reason", () => {
    const docs = readFileSync(new URL("../docs/harnesses.md", import.meta.url), "utf8");
    const section = docs.slice(docs.indexOf("### little-coder:"), docs.indexOf("## Choosing a harness"));
    const names = new Set(opened.tools.map((t) => t.name));
    for (const tool of ["Navigate", "Click", "Type", "Scroll", "Extract", "Back", "History"].map(
      (n) => `Browser${n}`,
    )) {
      expect(names.has(tool)).toBe(false);
      expect(section).toContain(tool);
    }
    expect(section).toMatch(/they are pending/);
  });

  it("shows tool examples a model can copy: every ```tool block is JSON with a name and an input", () => {
    const blocks = [...`${READ_WRITE_GUIDANCE}\n${BROWSING_GUIDANCE}`.matchAll(/```tool\n(.*)\n```/g)];
    expect(blocks.length).toBe(8);
    for (const [, json] of blocks) expect(Object.keys(JSON.parse(json ?? ""))).toEqual(["name", "input"]);
  });
});

describe("little-coder write guard, glob and evidence", () => {
  it("creates new files through pi's write, and refuses an existing file with the edit call to make", async () => {
    const { cwd, run, file } = harnessWorkspace(littleCoderHarness, { prefix: "oi-lc-" });
    // The guard rewrites the path in place, so pi's write names the resolved one.
    expect(await run("write", { path: "src/new.py", content: "x = 1\n" })).toMatchObject({
      output: `Successfully wrote 6 bytes to ${cwd}/src/new.py`,
    });
    expect(readFileSync(path.join(cwd, "src/new.py"), "utf8")).toBe("x = 1\n");
    const target = file("calc.py", "def add(a, b):\n    return a - b\n");
    const refused = await run("write", { path: "calc.py", content: "oops" });
    expect(refused.isError).toBe(true);
    expect(refused.output).toMatch(new RegExp(`^Write refused — ${target} already exists\\.\\n`));
    expect(refused.output).toContain(
      `{"name": "edit", "input": {"path": "${target}", "edits": [{"oldText": `,
    );
    expect(readFileSync(target, "utf8")).toBe("def add(a, b):\n    return a - b\n");
    // A bare `/name` is the model anchoring at the root: it means the cwd's file.
    expect((await run("write", { path: "/calc.py", content: "oops" })).output).toContain(
      `${target} already exists`,
    );
    expect((await run("write", { path: "NUL.txt", content: "" })).output).toMatch(
      /^Write refused — "NUL\.txt" is a reserved Windows device name/,
    );
  });

  it("globs with the folder as given joined to each match, sorted, and says when nothing matched", async () => {
    const { cwd, run, file } = harnessWorkspace(littleCoderHarness, { prefix: "oi-lc-" });
    file("b.py", "");
    file("a/c.py", "");
    file("node_modules/x/d.py", "");
    expect(await run("glob", { pattern: "**/*.py" })).toEqual({ output: `${cwd}/a/c.py\n${cwd}/b.py` });
    expect(await run("glob", { pattern: "*.py", path: "a" })).toEqual({ output: "a/c.py" });
    expect(await run("glob", { pattern: "*.rs" })).toEqual({ output: "No files matched" });
    for (let i = 0; i < 510; i++) file(`many/f${String(i).padStart(3, "0")}.txt`, "");
    expect((await run("glob", { pattern: "many/*.txt" })).output.split("\n")).toHaveLength(500);
  });

  it("keeps evidence for the session: stored id, entry, list, 1KB cap and the original's refusals", async () => {
    const { run } = harnessWorkspace(littleCoderHarness, { prefix: "oi-lc-" });
    expect(await run("EvidenceList", {})).toEqual({ output: "(no evidence stored yet)" });
    const stored = await run("EvidenceAdd", {
      source: "https://x.test",
      note: "pi is 3.14",
      snippet: "π ≈ 3.14",
    });
    const id = /^stored (e[0-9a-f]{6}): pi is 3\.14$/.exec(stored.output)?.[1];
    expect(id).toBeDefined();
    expect(await run("EvidenceGet", { id })).toEqual({
      output: `[${id}] source: https://x.test\nnote: pi is 3.14\nsnippet:\nπ ≈ 3.14`,
    });
    await run("EvidenceAdd", { source: "s", note: "long", snippet: "y".repeat(2000) });
    expect((await run("EvidenceList", {})).output.split("\n")).toEqual([
      `${id}\thttps://x.test\tpi is 3.14`,
      expect.stringMatching(/^e[0-9a-f]{6}\ts\tlong$/),
    ]);
    const long = (await run("EvidenceList", {})).output.split("\n")[1]?.split("\t")[0];
    expect((await run("EvidenceGet", { id: long })).output).toMatch(
      /y{1024}\n\[\.\.\. snippet truncated, kept 1024 chars \.\.\.\]$/,
    );
    expect(await run("EvidenceGet", { id: "e000000" })).toEqual({
      output: "Error: evidence id 'e000000' not found",
      isError: true,
    });
    expect(await run("EvidenceAdd", { source: " ", note: "n", snippet: "s" })).toEqual({
      output: "Error: source is required (URL or identifier)",
      isError: true,
    });
  });
});

describe("little-coder web tools", () => {
  let pages: PageServer | undefined;
  let backend: SearchBackend | undefined;
  afterEach(async () => {
    await pages?.close();
    await backend?.close();
  });

  async function setup(search?: Record<string, unknown>) {
    pages = await startPageServer({
      "/page.html": {
        body: "<html><style>p{}</style><script>x()</script><p>Hello   <b>world</b></p></html>",
      },
      "/big.txt": { type: "text/plain", body: "z".repeat(30_000) },
    });
    const { cwd, tools } = harnessWorkspace(littleCoderHarness, { prefix: "oi-lc-web-" });
    return toolRunner(tools, toolContext(cwd, { web: loopbackWeb(pages, search) }));
  }

  it("webfetch strips HTML to text, cuts at 25K characters and reports HTTP errors as the original does", async () => {
    const run = await setup();
    expect(await run("webfetch", { url: `${pages!.origin}/page.html` })).toEqual({ output: "Hello world" });
    expect((await run("webfetch", { url: `${pages!.origin}/big.txt` })).output).toHaveLength(25_000);
    expect(await run("webfetch", { url: `${pages!.origin}/missing` })).toEqual({
      output: "Error: HTTP 404 Not Found",
      isError: true,
    });
    expect(pages!.headers[0]?.["user-agent"]).toBe("little-coder/0.1");
  });

  it("websearch lays results out as the original's Markdown and says when there are none", async () => {
    backend = await startSearchBackend({
      results: [
        { title: "One", url: "https://one.test", content: "first" },
        { title: "Two", url: "https://two.test", content: "second" },
      ],
    });
    const run = await setup({ backend: "tavily", base_url: backend.origin, api_key: "k" });
    expect(await run("websearch", { query: "q" })).toEqual({
      output: "**One**\nhttps://one.test\nfirst\n\n**Two**\nhttps://two.test\nsecond",
    });
    const unconfigured = await (await setup())("websearch", { query: "q" });
    expect(unconfigured).toMatchObject({ isError: true, output: expect.stringMatching(/^Error: /) });
  });
});

describe("little-coder ShellSession output", () => {
  it("collapses repeated lines, keeps the first 100 and last 50 of a long output, and closes with the footer", () => {
    const lines = Array.from({ length: 300 }, (_, i) => `line ${i}`);
    const text = formatShellOutput({ output: lines.join("\n"), exitCode: 0, cwd: "/w", timedOut: false });
    const out = text.split("\n");
    expect(out).toHaveLength(152);
    expect(out[99]).toBe("line 99");
    expect(out[100]).toBe("  [... 150 lines truncated ...]");
    expect(out[101]).toBe("line 250");
    expect(out.at(-1)).toBe("[exit=0 cwd=/w timed_out=false output_truncated=true backend=tmux-proxy]");
    expect(
      formatShellOutput({ output: "\x1b[31ma\x1b[0m\r\nb\nb\nb\nc", exitCode: 2, cwd: "?", timedOut: true }),
    ).toBe(
      "a\nb\n  [... 2 duplicate line(s) collapsed ...]\nc\n[exit=2 cwd=? timed_out=true backend=tmux-proxy]",
    );
    expect(formatShellOutput({ output: "", exitCode: 0, cwd: "/", timedOut: false })).toBe(
      "[exit=0 cwd=/ timed_out=false backend=tmux-proxy]",
    );
  });
});
