import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyPatch } from "../src/tools/apply-patch/apply-patch.js";
import { type PatchHunk, parsePatch } from "../src/tools/apply-patch/parse-patch.js";
import { createLocalFs } from "../src/tools/local-fs.js";

/**
 * Prompt assets are data: a model copies the patch examples it is shown, so every example in a
 * prompt or tool description must be a patch our parser (Codex's grammar) accepts and applies.
 * A Markdown formatter once turned `+` lines into `*` bullets, spread blank lines through a hunk
 * and escaped `*** Move to:`; these tests are what notices that.
 */

const ROOT = path.resolve(import.meta.dirname, "..");
const HARNESSES = path.join(ROOT, "src/harnesses");

interface Asset {
  file: string;
  text: string;
}

interface Example {
  where: string;
  patch: string;
}

async function assets(dir = HARNESSES): Promise<Asset[]> {
  const found: Asset[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await assets(full)));
    else if (/\.(md|ts)$/.test(entry.name)) {
      found.push({ file: path.relative(ROOT, full), text: await readFile(full, "utf8") });
    }
  }
  return found;
}

/** Patches written out line by line, fenced or not: `*** Begin Patch` … `*** End Patch`. */
function literalPatches({ file, text }: Asset): Example[] {
  const lines = text.split("\n");
  const examples: Example[] = [];
  lines.forEach((line, index) => {
    if (line.trim() !== "*** Begin Patch") return;
    const end = lines.findIndex((other, at) => at > index && other.trim() === "*** End Patch");
    if (end < 0) throw new Error(`${file}:${index + 1}: a patch example without *** End Patch`);
    examples.push({ where: `${file}:${index + 1}`, patch: lines.slice(index, end + 1).join("\n") });
  });
  return examples;
}

/**
 * Patches inside a JSON string on one line: the whole string (`{"input":"*** Begin Patch\n…"}`)
 * or an `apply_patch` heredoc sent as a command (`{"cmd":"apply_patch <<'EOF'\n*** Begin Patch\n…\nEOF"}`).
 */
function inlinePatches({ file, text }: Asset): Example[] {
  const examples: Example[] = [];
  for (const match of text.matchAll(/"((?:[^"\\\n]|\\.)*\*\*\* Begin Patch\\n(?:[^"\\\n]|\\.)*)"/g)) {
    const line = text.slice(0, match.index).split("\n").length;
    const value = JSON.parse(`"${match[1]}"`) as string;
    const patch =
      /^(?:apply_patch <<'(\w+)'\n)?(\*\*\* Begin Patch\n[\s\S]*\*\*\* End Patch\n?)(?:\1\n?)?$/.exec(value);
    if (!patch)
      throw new Error(
        `${file}:${line}: a JSON patch example that is neither a patch nor an apply_patch heredoc`,
      );
    examples.push({ where: `${file}:${line}`, patch: (patch[2] ?? "").replace(/\n$/, "") });
  }
  return examples;
}

/**
 * A placeholder envelope (`[ one or more file operations ]`) shows the shape, not a patch.
 * Anything else between the markers has to be real patch text.
 */
const isEnvelopeSketch = (patch: string) => /^\*\*\* Begin Patch\n\[[^\]]+\]\n\*\*\* End Patch$/.test(patch);

/** The file each update hunk expects: its `@@` context lines and old lines, in order. */
function fileBefore(chunks: Extract<PatchHunk, { type: "update" }>["chunks"]): string {
  return chunks
    .flatMap((chunk) => [...(chunk.changeContext ? [chunk.changeContext] : []), ...chunk.oldLines])
    .join("\n")
    .concat("\n");
}

function fileAfter(chunks: Extract<PatchHunk, { type: "update" }>["chunks"]): string {
  return chunks
    .flatMap((chunk) => [...(chunk.changeContext ? [chunk.changeContext] : []), ...chunk.newLines])
    .join("\n")
    .concat("\n");
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "oi-prompt-examples-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Builds the files the patch expects, applies it and checks every file came out as it says. */
async function applyToMatchingFiles(patch: string): Promise<void> {
  const hunks = parsePatch(patch);
  expect(hunks.length).toBeGreaterThan(0);
  for (const hunk of hunks) {
    const target = path.join(dir, hunk.path);
    await mkdir(path.dirname(target), { recursive: true });
    if (hunk.type === "delete") await writeFile(target, "obsolete\n");
    if (hunk.type === "update") await writeFile(target, fileBefore(hunk.chunks));
  }
  await applyPatch({ patch, cwd: dir, fs: createLocalFs() });
  for (const hunk of hunks) {
    const target = path.join(dir, hunk.path);
    if (hunk.type === "add") expect(await readFile(target, "utf8")).toBe(hunk.contents);
    if (hunk.type === "delete") await expect(stat(target)).rejects.toThrow();
    if (hunk.type === "update") {
      const written = path.join(dir, hunk.movePath ?? hunk.path);
      expect(await readFile(written, "utf8")).toBe(fileAfter(hunk.chunks));
      if (hunk.movePath !== undefined) await expect(stat(target)).rejects.toThrow();
      // An example that changes nothing teaches nothing (and hides a `+` line lost to a bullet).
      expect(fileAfter(hunk.chunks)).not.toBe(fileBefore(hunk.chunks));
    }
  }
}

/**
 * The hunk sketches after "For instance:" (`@@ class …`, `[3 lines of pre-context]`,
 * `- [old_code]`, `+ [new_code]`): a run of lines from an `@@` line at the start of a line to the
 * next blank line, outside any patch. Placeholders become that many context lines.
 */
function hunkSketches({ file, text }: Asset): Example[] {
  const lines = text.split("\n");
  const examples: Example[] = [];
  let insidePatch = false;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    if (line.trim() === "*** Begin Patch") insidePatch = true;
    if (line.trim() === "*** End Patch") insidePatch = false;
    const startsSketch = /^\s*@@ /.test(line) && !/^\s*@@ /.test(lines[index - 1] ?? "");
    if (insidePatch || !startsSketch) continue;
    const end = lines.findIndex((other, at) => at > index && other.trim() === "");
    const sketch = lines.slice(index, end < 0 ? undefined : end);
    examples.push({ where: `${file}:${index + 1}`, patch: sketch.join("\n") });
  }
  return examples;
}

/**
 * Turns a sketch into a patch. Codex's parser takes one `@@` header per chunk, so a sketch that
 * stacks headers to narrow the search keeps its innermost one; the others must sit right above.
 */
function sketchToPatch(sketch: string): string {
  const lines = sketch.split("\n");
  const headers = lines.filter((line) => line.startsWith("@@"));
  const body = lines.slice(headers.length).flatMap((line) => {
    const count = /^\[(\d+) lines of ([\w-]+)\]$/.exec(line);
    if (count) return Array.from({ length: Number(count[1]) }, (_, n) => ` ${count[2]} ${n + 1}`);
    const placeholder = /^([-+]) \[(\w+)\]$/.exec(line);
    return placeholder ? [`${placeholder[1]}${placeholder[2]}`] : [line];
  });
  return [
    "*** Begin Patch",
    "*** Update File: sketch.txt",
    headers.at(-1) ?? "",
    ...body,
    "*** End Patch",
  ].join("\n");
}

const all = await assets();
const patches = all.flatMap((asset) => [...literalPatches(asset), ...inlinePatches(asset)]);
const sketches = all.flatMap(hunkSketches);

describe("patch examples in prompt and tool-description assets", () => {
  it("finds the examples in Codex's prompt and apply_patch description", () => {
    const files = new Set([...patches, ...sketches].map((example) => example.where.split(":")[0]));
    expect([...files].sort()).toEqual([
      "src/harnesses/codex/prompt.md",
      "src/harnesses/opencode/tools/apply-patch.md",
      "src/harnesses/shared/codex-core/tools/apply-patch.md",
    ]);
    expect(sketches.length).toBe(2);
  });

  it("misses no `*** Begin Patch` in any asset (each is an example or a grammar's Begin rule)", () => {
    for (const asset of all) {
      const mentions = asset.text.split("*** Begin Patch").length - 1;
      const grammarRules =
        asset.text.split('Begin := "*** Begin Patch"').length -
        1 +
        asset.text.split('begin_patch: "*** Begin Patch"').length -
        1;
      const found = literalPatches(asset).length + inlinePatches(asset).length;
      expect({ file: asset.file, found: found + grammarRules }).toEqual({
        file: asset.file,
        found: mentions,
      });
    }
  });

  it.each(patches.filter((example) => !isEnvelopeSketch(example.patch)).map((e) => [e.where, e.patch]))(
    "%s parses and applies to files that match its context",
    async (_where, patch) => {
      await applyToMatchingFiles(patch);
    },
  );

  it.each(sketches.map((e) => [e.where, e.patch]))(
    "%s is a hunk sketch in the patch grammar",
    async (_where, sketch) => {
      const lines = sketch.split("\n");
      // An indented header or placeholder is a list item, not patch text; a blank line a
      // formatter put in ends the sketch early, before its `+` line.
      expect(lines.filter((line) => /^\s+(@@|\[)/.test(line))).toEqual([]);
      expect(lines.every((line) => /^(@@ |\[|[-+ ])/.test(line))).toBe(true);
      expect(lines.some((line) => line.startsWith("- "))).toBe(true);
      expect(lines.some((line) => line.startsWith("+ "))).toBe(true);
      await applyToMatchingFiles(sketchToPatch(sketch));
    },
  );

  it("writes `*** Move to:` as a marker wherever the grammar is explained", () => {
    for (const { file, text } of all) {
      expect(text.includes("\\*\\*\\*"), file).toBe(false);
    }
  });
});

describe("no formatter touches the prompt assets", () => {
  it("Biome skips Markdown and Prettier is told to leave src/**/*.md alone", async () => {
    const biome = JSON.parse(await readFile(path.join(ROOT, "biome.json"), "utf8")) as {
      files: { includes: string[] };
    };
    expect(biome.files.includes).toContain("!**/*.md");
    const prettierIgnore = (await readFile(path.join(ROOT, ".prettierignore"), "utf8")).split("\n");
    expect(prettierIgnore).toContain("src/**/*.md");
  });
});
