import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { kimiCodeHarness } from "../src/harnesses/kimi-code/kimi-code-harness.js";
import { modelText } from "../src/harnesses/kimi-code/tool-result.js";
import { globPage } from "../src/harnesses/kimi-code/tools/glob-page.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { harnessContext, tempDir, toolContext, toolRunner, writeFileAt } from "./support/harness-fixtures.js";
import { type InProcessAgent, startInProcess } from "./support/in-process.js";
import { writeKimiReadFiles } from "./support/kimi-read-files.js";

// Kimi Code 2.1.0's own Read and Glob, recorded through its scripted-model loop on the files of
// kimi-read-files.ts: every recorded call is made again on the same files, and the text the
// model would get must be the same, character for character (long ones by length and digest).

interface Recorded {
  tool: "Read" | "Glob";
  args: Record<string, unknown>;
  text?: string;
  digest?: { chars: number; sha256: string; head: string; end: string };
}

const golden = (name: string): Recorded[] =>
  JSON.parse(readFileSync(new URL(`./golden/kimi-code/${name}`, import.meta.url), "utf8"));
/** Paging, fragments, tails, errors and Glob pages; then one budget sweep over the edge cases. */
const recorded = [...golden("read-glob-2.1.0.json"), ...golden("read-budgets-2.1.0.json")];

let run: (tool: string, args: object) => Promise<string>;

beforeAll(() => {
  const dir = tempDir("oi-kimi-read-");
  writeKimiReadFiles(dir);
  const tools = kimiCodeHarness.open(
    harnessContext({ cwd: dir, scratchDir: tempDir("oi-kimi-scratch-") }),
  ).tools;
  const call = toolRunner(tools, toolContext(dir));
  run = async (tool, args) => {
    const result = await call(tool, args);
    const text = modelText(result.isError ? "failed" : "completed", result.output);
    return text.replace(/^Wall time: [0-9.]+ seconds\n/, "");
  };
});

describe("Kimi Code 2.1.0's recorded Read and Glob results, made again", () => {
  it.each(recorded.map((r) => [`${r.tool} ${JSON.stringify(r.args)}`, r] as const))("%s", async (_, r) => {
    const text = await run(r.tool, r.args);
    if (r.text !== undefined) return expect(text).toBe(r.text);
    const cut = text.lastIndexOf("\n<system>");
    expect({ head: text.slice(0, 120), end: text.slice(cut + 1), chars: text.length }).toEqual({
      head: r.digest?.head,
      end: r.digest?.end,
      chars: r.digest?.chars,
    });
    expect(createHash("sha256").update(text).digest("hex")).toBe(r.digest?.sha256);
  });
});

/** What Read shows of a file: CRLF throughout as LF, any other carriage return as `\r`. */
function displayed(content: string): string[] {
  const lines = content.endsWith("\n") ? content.slice(0, -1).split("\n") : content.split("\n");
  const crlf = lines.every(
    (line, i) => line.endsWith("\r") || (i === lines.length - 1 && !content.endsWith("\n")),
  );
  return lines.map((line) => (crlf ? line.replace(/\r$/, "") : line.replaceAll("\r", "\\r")));
}

interface Pages {
  /** The file as reassembled from the pages, line by line. */
  lines: string[];
  pages: number;
}

/**
 * Reads `args` and then every `Next Read` the results hand out, the way the tool description
 * tells the model to, and joins the pages back together: a page that starts at a
 * `column_offset` continues its first line, anything else must be new. Each result must fit
 * its budget.
 */
async function follow(args: Record<string, unknown>): Promise<Pages> {
  const got = new Map<number, string>();
  let next: Record<string, unknown> | undefined = args;
  let pages = 0;
  while (next) {
    const text = await run("Read", next);
    expect(text.length, JSON.stringify(next)).toBeLessThanOrEqual(Number(next.max_chars ?? 100_000));
    const cut = text.lastIndexOf("\n<system>");
    expect(cut, text).toBeGreaterThan(0);
    const body = text.startsWith("<system>") ? "" : text.slice(0, cut);
    const continues = Number(next.column_offset ?? 0) > 0;
    for (const [i, line] of (body === "" ? [] : body.split("\n")).entries()) {
      const tab = line.indexOf("\t");
      const no = Number(line.slice(0, tab));
      const content = line.slice(tab + 1);
      if (i === 0 && continues) got.set(no, `${got.get(no)}${content}`);
      else {
        expect(got.has(no), `line ${no} returned twice`).toBe(false);
        got.set(no, content);
      }
    }
    const json = /Next Read: (\{[^}]*\})/.exec(text.slice(cut))?.[1];
    next = json === undefined ? undefined : JSON.parse(json);
    pages++;
    expect(pages).toBeLessThan(5000);
  }
  const numbers = [...got.keys()].sort((a, b) => a - b);
  return { lines: numbers.map((no) => got.get(no)!), pages };
}

describe("paging through a file with Next Read", () => {
  const files: Record<string, string> = {
    "code.txt": [
      "short",
      "",
      `${"long-".repeat(1200)}end`,
      `${"\u{1F600}x".repeat(700)}`,
      ...Array.from({ length: 300 }, (_, i) => `line ${i + 1} ${"=".repeat(i % 40)}`),
      "last line without newline",
    ].join("\n"),
    "win.txt": `${["alpha", "b".repeat(2500), "gamma"].join("\r\n")}\r\n`,
    "mixed.txt": `one\r\ntwo\n${"c\r".repeat(900)}\nlast\n`,
  };
  let dir: string;

  beforeAll(() => {
    dir = tempDir("oi-kimi-pages-");
    for (const [name, content] of Object.entries(files)) writeFileAt(dir, name, content);
    const tools = kimiCodeHarness.open(
      harnessContext({ cwd: dir, scratchDir: tempDir("oi-kimi-scratch-") }),
    ).tools;
    const call = toolRunner(tools, toolContext(dir));
    run = async (tool, args) => {
      const result = await call(tool, args);
      return modelText(result.isError ? "failed" : "completed", result.output).replace(
        /^Wall time: [0-9.]+ seconds\n/,
        "",
      );
    };
  });

  for (const budget of [500, 557, 1000, 4096, undefined]) {
    it(`reassembles every file exactly from the front and from the end (max_chars ${budget ?? "default"})`, async () => {
      for (const [name, content] of Object.entries(files)) {
        const expected = displayed(content);
        const forward = await follow({ path: name, max_chars: budget });
        expect(forward.lines, name).toEqual(expected);
        const fromEnd = await follow({ path: name, line_offset: -expected.length, max_chars: budget });
        expect(fromEnd.lines, name).toEqual(expected);
        if (budget !== undefined && budget < 1000) expect(forward.pages).toBeGreaterThan(3);
      }
    });
  }

  it("continues a line longer than a page through column_offset, with its column range", async () => {
    const first = await run("Read", { path: "code.txt", line_offset: 3, n_lines: 1, max_chars: 500 });
    const text = first.slice(0, first.indexOf("\n<system>"));
    const end = text.length - 2;
    expect(first).toBe(
      `${text}\n<system>1 line read from file starting from line 3. Total lines in file: 305. Character limit reached. Effective max_chars: 500. Line 3 fragment: columns [0, ${end}) of 6003. Line continues. Next Read: {"path":"code.txt","line_offset":3,"column_offset":${end},"n_lines":1,"max_chars":500}</system>`,
    );
    const last = await run("Read", { path: "code.txt", line_offset: 3, column_offset: 5990, n_lines: 1 });
    expect(last).toBe(
      "3\tlong-long-end\n<system>1 line read from file starting from line 3. Total lines in file: 305. Requested range complete. Effective max_chars: 100000. Line 3 fragment: columns [5990, 6003) of 6003. Line complete.</system>",
    );
  });

  it("never ends a fragment between the halves of a surrogate pair", async () => {
    for (let budget = 300; budget < 340; budget++) {
      const text = await run("Read", { path: "code.txt", line_offset: 4, n_lines: 1, max_chars: budget });
      const column = Number(/"column_offset":(\d+)/.exec(text)?.[1]);
      expect(column % 3, text).not.toBe(1);
    }
  });

  it("reads the newest whole lines of a tail first and points back at the rest", async () => {
    expect(await run("Read", { path: "code.txt", line_offset: -12, max_chars: 400 })).toBe(
      [
        "301\tline 297 ================",
        "302\tline 298 =================",
        "303\tline 299 ==================",
        "304\tline 300 ===================",
        "305\tlast line without newline",
        '<system>5 lines read from file starting from line 301. Total lines in file: 305. Character limit reached. Effective max_chars: 400. End of file reached. Next Read: {"path":"code.txt","line_offset":294,"n_lines":7,"max_chars":400}</system>',
      ].join("\n"),
    );
    expect(await run("Read", { path: "code.txt", line_offset: -303, n_lines: 1, max_chars: 400 })).toBe(
      '<system>ERROR: Tool execution failed.</system>\nNo complete line fits. Continue with the forward Next Read.\n<system>No lines read from file. Total lines in file: 305. Character limit reached. Effective max_chars: 400. Next Read: {"path":"code.txt","line_offset":3,"n_lines":1,"max_chars":400}</system>',
    );
  });

  it("refuses a column_offset it cannot honour", async () => {
    const refusal = async (args: object) => run("Read", { path: "code.txt", ...args });
    expect(await refusal({ line_offset: -1, column_offset: 0 })).toBe(
      "<system>ERROR: Tool execution failed.</system>\ncolumn_offset is only supported for forward reads. Use a positive line_offset or the forward Next Read arguments.",
    );
    expect(await refusal({ line_offset: 1, column_offset: 6 })).toBe(
      "<system>ERROR: Tool execution failed.</system>\ncolumn_offset=6 is past the end of the starting line 1. Read the line from column 0 to inspect its current contents.",
    );
    expect(await refusal({ line_offset: 4, column_offset: 1 })).toBe(
      "<system>ERROR: Tool execution failed.</system>\ncolumn_offset=1 splits a Unicode character in line 4. Use a character boundary or the Next Read arguments.",
    );
  });
});

describe("paging through Glob matches", () => {
  let dir: string;
  let scratch: string;

  beforeAll(() => {
    dir = tempDir("oi-kimi-glob-");
    scratch = tempDir("oi-kimi-scratch-");
    for (let i = 0; i < 130; i++) writeFileAt(dir, `src/m${String(i).padStart(3, "0")}.ts`, "", 500 + i);
    writeFileAt(dir, "src/.env.local", "", 10);
    const tools = kimiCodeHarness.open(harnessContext({ cwd: dir, scratchDir: scratch })).tools;
    const call = toolRunner(tools, toolContext(dir));
    run = async (tool, args) => (await call(tool, args)).output.replace(/^Wall time: [0-9.]+ seconds\n/, "");
  });

  it("follows the continuation offsets to the same list head_limit=0 gives in one call", async () => {
    const all = await run("Glob", { pattern: "src/*", head_limit: 0 });
    expect(all.split("\n").slice(0, 2)).toEqual(["src/m000.ts", "src/m001.ts"]);
    expect(all.split("\n").slice(-2)).toEqual(["src/m129.ts", "Filtered 1 sensitive file(s)."]);
    const paths: string[] = [];
    let offset: number | undefined = 0;
    const firstLines: string[] = [];
    while (offset !== undefined) {
      const page: string[] = (await run("Glob", { pattern: "src/*", head_limit: 40, offset })).split("\n");
      firstLines.push(page[0]!);
      paths.push(...page.filter((line) => line.startsWith("src/")));
      offset = Number(
        /^Continue with the same search arguments and offset=(\d+)\.$/m.exec(page.join("\n"))?.[1],
      );
      if (Number.isNaN(offset)) offset = undefined;
    }
    expect(paths).toEqual(all.split("\n").slice(0, -1));
    expect(firstLines).toEqual([
      "Showing matches 1–40 of 130.",
      "Showing matches 41–80 of 130.",
      "Showing matches 81–120 of 130.",
      "Showing matches 121–130 of 130.",
    ]);
    expect(await run("Glob", { pattern: "src/*", head_limit: 40, offset: 120 })).toBe(
      `Showing matches 121–130 of 130.\n${paths.slice(120).join("\n")}\nFiltered 1 sensitive file(s).`,
    );
  });

  it("says when an offset lies past the end, and counts a first page that is exactly full", async () => {
    expect(await run("Glob", { pattern: "src/*", offset: 130 })).toBe(
      "No more matches at offset=130 in the current result set (130 matches).\nFiltered 1 sensitive file(s).",
    );
    const exact = (await run("Glob", { pattern: "src/m*", head_limit: 130 })).split("\n");
    expect(exact).toHaveLength(131);
    expect(exact.at(-1)).toBe("Found 130 matches");
  });

  it("stops a page at the character limit on a whole path, with the offset to go on from", () => {
    const kept = Array.from({ length: 10 }, (_, i) => `dir/file-${i}.txt`);
    const page = globPage({
      kept,
      filteredSensitive: 0,
      offset: 2,
      headLimit: 0,
      outputTruncated: false,
      maxChars: 260,
    });
    expect(page.output).toBe(
      [
        "Showing matches 3–9 of 10.",
        "Character limit reached; only complete paths are returned.",
        "Continue with the same search arguments and offset=9.",
        ...kept.slice(2, 9),
      ].join("\n"),
    );
    expect(
      globPage({
        kept,
        filteredSensitive: 0,
        offset: 0,
        headLimit: 5,
        outputTruncated: false,
        maxChars: 150,
      }),
    ).toEqual({
      output:
        "Glob cannot fit a complete path and its diagnostics within the output limit. Narrow the search path or pattern.",
      isError: true,
    });
  });

  it("saves a page over 50 000 characters to a file, whole", async () => {
    const many = tempDir("oi-kimi-glob-many-");
    const name = (i: number) => `${String(i).padStart(4, "0")}-${"n".repeat(40)}.txt`;
    for (let i = 0; i < 1300; i++) writeFileAt(many, name(i), "", i);
    const out = await run("Glob", { pattern: "*.txt", path: many, head_limit: 0 });
    expect(out).toMatch(/^Tool output exceeded 50000 characters/);
    const saved = /output_path: (.+)/.exec(out)?.[1] ?? "";
    const listing = readFileSync(saved, "utf8").split("\n");
    expect(listing).toHaveLength(1300);
    expect(listing[0]).toBe(path.join(many, name(0)));
  });
});

describe("paging end to end, through the scripted model", () => {
  let model: FakeModel | undefined;
  let oi: InProcessAgent | undefined;

  afterEach(async () => {
    await oi?.close();
    await model?.close();
  });

  it("hands the model Read's Next Read and Glob's offset, and takes them back as arguments", async () => {
    model = await startFakeModel();
    oi = await startInProcess({ model, harnesses: [kimiCodeHarness], configToml: 'harness = "kimi-code"\n' });
    const { sessionId, cwd } = await oi.newSession();
    writeFileAt(cwd, "big.txt", `head\n${"z".repeat(700)}\ntail\n`, 20);
    writeFileAt(cwd, "small.txt", "s\n", 10);
    const next = '{"path":"big.txt","line_offset":2,"max_chars":400}';
    model.reply(
      {
        toolCalls: [{ id: "functions.Read:0", name: "Read", arguments: { path: "big.txt", max_chars: 400 } }],
      },
      { toolCalls: [{ id: "functions.Read:1", name: "Read", arguments: next }] },
      {
        toolCalls: [{ id: "functions.Glob:2", name: "Glob", arguments: { pattern: "*.txt", head_limit: 1 } }],
      },
      {
        toolCalls: [
          { id: "functions.Glob:3", name: "Glob", arguments: { pattern: "*.txt", head_limit: 1, offset: 1 } },
        ],
      },
      { text: "Read both." },
    );
    expect(await oi.prompt(sessionId, "Read big.txt and list the text files.")).toBe("end_turn");

    const results = (model.requests.at(-1)!.body.messages as { role: string; content: string }[])
      .filter((m) => m.role === "tool")
      .map((m) => m.content.replace(/^Wall time: \d+\.\d{3} seconds\n/, ""));
    expect(results[0]).toBe(
      `1\thead\n<system>1 line read from file starting from line 1. Total lines in file: 3. Character limit reached. Effective max_chars: 400. Next Read: ${next}</system>`,
    );
    const fragment =
      /^2\t(z+)\n<system>1 line read from file starting from line 2\. Total lines in file: 3\. Character limit reached\. Effective max_chars: 400\. Line 2 fragment: columns \[0, (\d+)\) of 700\. Line continues\. Next Read: \{"path":"big\.txt","line_offset":2,"column_offset":(\d+),"max_chars":400\}<\/system>$/.exec(
        results[1] ?? "",
      );
    expect(fragment?.[1]?.length).toBe(Number(fragment?.[2]));
    expect(fragment?.[3]).toBe(fragment?.[2]);
    expect(results.slice(2)).toEqual([
      "Showing matches 1–1 of 2.\nContinue with the same search arguments and offset=1.\nTo remove the match-count limit, omit offset and use head_limit=0.\nsmall.txt",
      "Showing matches 2–2 of 2.\nbig.txt",
    ]);
    const tools = model.requests[0]!.body.tools as {
      function: { name: string; parameters: { properties: object } };
    }[];
    const read = tools.find((t) => t.function.name === "Read");
    expect(Object.keys(read?.function.parameters.properties ?? {})).toEqual([
      "path",
      "line_offset",
      "column_offset",
      "n_lines",
      "max_chars",
    ]);
    model.assertDone();
  });
});
