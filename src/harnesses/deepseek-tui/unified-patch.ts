/**
 * CodeWhale's unified-diff reading and hunk placement (0.8.44 `tools/apply_patch.rs`): hunks
 * under `---`/`+++` headers (or under a `path` given apart), each placed at its header's line
 * shifted by what the hunks before it added, else searched up to `fuzz` lines either side;
 * lines compare without trailing whitespace. Errors carry the original's texts.
 */

export type HunkLine = { kind: " " | "-" | "+"; text: string };
export interface Hunk {
  oldStart: number;
  lines: HunkLine[];
}
export interface FilePatch {
  path: string;
  hunks: Hunk[];
  deleteAfter: boolean;
  createIfMissing: boolean;
}

/** A patch the original refuses before touching anything (`ToolError::InvalidInput`). */
export class PatchInputError extends Error {}

const PREVIEW_LINES = 4;
const SNIPPET_RADIUS = 2;

export function normalizeDiffPath(raw: string): string | undefined {
  const trimmed = raw.trim();
  if (trimmed === "" || trimmed === "/dev/null" || trimmed === "dev/null") return undefined;
  return trimmed.startsWith("a/") || trimmed.startsWith("b/") ? trimmed.slice(2) : trimmed;
}

/** The files the headers name, in order, each once; and whether any hunk is there. */
export function patchShape(patch: string): { hasHunks: boolean; files: string[] } {
  const files: string[] = [];
  let hasHunks = false;
  let oldPath: string | undefined;
  for (const line of textLines(patch)) {
    if (line.startsWith("@@")) hasHunks = true;
    if (line.startsWith("--- ")) oldPath = normalizeDiffPath(line.slice(4));
    else if (line.startsWith("+++ ")) {
      const resolved = normalizeDiffPath(line.slice(4)) ?? oldPath;
      if (resolved && !files.includes(resolved)) files.push(resolved);
      oldPath = undefined;
    }
  }
  return { hasHunks, files };
}

/** The hunks of a single-file patch, headers skipped. */
export function parseHunks(patch: string): Hunk[] {
  const lines = textLines(patch);
  const hunks: Hunk[] = [];
  let i = lines.findIndex((line) => line.startsWith("@@"));
  while (i >= 0 && i < lines.length) {
    if ((lines[i] as string).startsWith("@@")) {
      const [hunk, next] = parseHunk(lines, i);
      hunks.push(hunk);
      i = next;
    } else i++;
  }
  return hunks;
}

/** Every file section of a multi-file patch. */
export function parseFilePatches(patch: string, createIfMissing: boolean): FilePatch[] {
  const lines = textLines(patch);
  const files: FilePatch[] = [];
  let oldPath: string | undefined;
  let current: FilePatch | undefined;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (line.startsWith("diff --git ")) {
      current = undefined;
      oldPath = undefined;
    } else if (line.startsWith("--- ")) oldPath = line.slice(4).trim();
    else if (line.startsWith("+++ ")) {
      const oldNorm = oldPath === undefined ? undefined : normalizeDiffPath(oldPath);
      const newNorm = normalizeDiffPath(line.slice(4));
      const path = newNorm ?? oldNorm;
      if (!path) throw new PatchInputError("Patch is missing both old and new file paths");
      current = {
        path,
        hunks: [],
        deleteAfter: newNorm === undefined,
        createIfMissing: createIfMissing || !oldNorm,
      };
      files.push(current);
      oldPath = undefined;
    } else if (line.startsWith("@@")) {
      if (!current) {
        throw new PatchInputError(
          oldPath !== undefined
            ? `Patch hunk encountered after \`--- ${oldPath}\` but before a matching \`+++\` header. Each file section must include both headers.`
            : "Patch hunk encountered before any file header. Add `---`/`+++` headers or provide `path`.",
        );
      }
      const [hunk, next] = parseHunk(lines, i);
      current.hunks.push(hunk);
      i = next;
      continue;
    }
    i++;
  }
  return files;
}

/** Lines as Rust's `str::lines` gives them: no empty last line, no `\r` before a break. */
export function textLines(text: string): string[] {
  const lines = text.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

function parseHunk(lines: string[], at: number): [Hunk, number] {
  const header = lines[at] as string;
  const parts = header.split(/\s+/).filter(Boolean);
  if (parts.length < 3)
    throw new PatchInputError(
      `Invalid hunk header: ${header}. Expected \`@@ -start,count +start,count @@\`.`,
    );
  const [oldStart, oldCount] = parseRange((parts[1] as string).replace(/^-+/, ""));
  const [, newCount] = parseRange((parts[2] as string).replace(/^\++/, ""));
  const budget = (Math.max(oldCount, newCount) + Math.min(oldCount, newCount)) * 2;
  const out: HunkLine[] = [];
  let i = at + 1;
  for (let n = 0; n < budget && i < lines.length; n++) {
    const line = lines[i] as string;
    if (
      line.startsWith("@@") ||
      line.startsWith("diff ") ||
      line.startsWith("--- ") ||
      line.startsWith("+++ ")
    )
      break;
    if (line.startsWith("-") || line.startsWith("+"))
      out.push({ kind: line[0] as "-" | "+", text: line.slice(1) });
    else if (line.startsWith(" ") || line === "") out.push({ kind: " ", text: line.slice(1) });
    else if (!line.startsWith("\\")) out.push({ kind: " ", text: line });
    i++;
  }
  return [{ oldStart, lines: out }, i];
}

function parseRange(range: string): [number, number] {
  const [start, count] = range.split(",");
  if (!/^\d+$/.test(start ?? ""))
    throw new PatchInputError(
      `Invalid line number \`${start}\` in hunk header. Use positive integers like \`12\` or \`12,3\`.`,
    );
  if (count !== undefined && !/^\d+$/.test(count))
    throw new PatchInputError(
      `Invalid line count \`${count}\` in hunk header. Use positive integers like \`3\`.`,
    );
  return [Number(start), count === undefined ? 1 : Number(count)];
}

/** Applies `hunks` to `lines` in place; the fuzz used per hunk, or the original's failure text. */
export function applyHunks(
  lines: string[],
  hunks: Hunk[],
  options: { fuzz: number; label: string },
): { fuzz: number[] } | { error: string } {
  const used: number[] = [];
  let offset = 0;
  for (const [index, hunk] of hunks.entries()) {
    const old = hunk.lines.filter((l) => l.kind !== "+").map((l) => l.text);
    const next = hunk.lines.filter((l) => l.kind !== "-").map((l) => l.text);
    const start = Math.max(0, Math.max(0, hunk.oldStart - 1) + offset);
    const found = locate(lines, old, start, options.fuzz);
    if (found) {
      lines.splice(found.at, old.length, ...next);
      offset += next.length - old.length;
      used.push(found.fuzz);
    } else if (old.length === 0 && (lines.length === 0 || start >= lines.length)) {
      lines.push(...next);
      offset += next.length;
      used.push(0);
    } else {
      const expected = hunk.lines
        .filter((l) => l.kind !== "+")
        .slice(0, PREVIEW_LINES)
        .map((l) => `  ${l.kind}${l.text}`);
      const sign = offset >= 0 ? `+${offset}` : `${offset}`;
      const detail = `could not find matching context near line ${hunk.oldStart} (searched around line ${start + 1} with offset ${sign} and fuzz up to ${options.fuzz}). Expected context preview:\n${(expected.length ? expected : ["  <no context lines in hunk>"]).join("\n")}\nFile snippet near line ${start + 1}:\n${snippet(lines, start + 1).join("\n")}\nHints: ensure the patch matches the current file contents, increase \`fuzz\`, or regenerate the patch.`;
      return {
        error: `Failed to apply hunk ${index + 1}/${hunks.length} for \`${options.label}\`: ${detail}`,
      };
    }
  }
  return { fuzz: used };
}

function locate(
  lines: string[],
  old: string[],
  start: number,
  maxFuzz: number,
): { at: number; fuzz: number } | undefined {
  for (let fuzz = 0; fuzz <= maxFuzz; fuzz++) {
    const from = fuzz === 0 ? start : Math.max(0, start - fuzz);
    const to = fuzz === 0 ? start : Math.min(start + fuzz, lines.length);
    for (let at = from; at <= to; at++) if (matchesAt(lines, old, at)) return { at, fuzz };
  }
  return undefined;
}

function matchesAt(lines: string[], old: string[], at: number): boolean {
  if (at + old.length > lines.length) return false;
  return old.every((line, i) => (lines[at + i] as string).trimEnd() === line.trimEnd());
}

function snippet(lines: string[], line: number): string[] {
  if (lines.length === 0) return ["  <empty file>"];
  const center = Math.min(Math.max(0, line - 1), lines.length - 1);
  const start = Math.max(0, center - SNIPPET_RADIUS);
  const end = Math.min(center + SNIPPET_RADIUS, lines.length - 1);
  return lines.slice(start, end + 1).map((text, i) => `  ${String(start + i + 1).padStart(4)}: ${text}`);
}
