/**
 * Parser of the Codex `apply_patch` format (codex-rs/apply-patch `parser.rs`, lenient mode).
 *
 *   *** Begin Patch
 *   *** Add File: <path>          followed by `+` lines
 *   *** Delete File: <path>
 *   *** Update File: <path>       optionally `*** Move to: <path>`, then chunks:
 *   @@ [context]                  then ` ` / `-` / `+` lines, optionally `*** End of File`
 *   *** End Patch
 *
 * Leniency matches Codex: the text is trimmed, CRLF patches read like LF ones, markers may be
 * padded with whitespace, the first chunk of an update may omit its `@@`, blank lines between
 * chunks are skipped, and a `<<EOF` … `EOF` heredoc wrapper around the whole patch is removed.
 * Error texts are Codex's, so models trained on them recognise what went wrong.
 */

export type PatchHunk =
  | { type: "add"; path: string; contents: string }
  | { type: "delete"; path: string }
  | { type: "update"; path: string; movePath?: string; chunks: UpdateChunk[] };

export interface UpdateChunk {
  /** A line (usually a class or function signature) that must occur before `oldLines`. */
  changeContext?: string;
  /** Lines to find in the file (context and removed lines, in order). */
  oldLines: string[];
  /** Lines that replace `oldLines` (context and added lines, in order). */
  newLines: string[];
  /** `oldLines` must sit at the end of the file. */
  isEndOfFile: boolean;
  /**
   * For each entry of `newLines`, the index in `oldLines` of the same context line, or null for
   * an added line. Context lines keep the line ending they had in the file; set by the parser,
   * optional for hand-built chunks (then every new line takes the file's preferred ending).
   */
  newLineSources?: Array<number | null>;
}

/** The patch text is malformed; nothing was touched. `line` is 1-based within the patch. */
export class PatchParseError extends Error {
  readonly code = "patch_parse";
  readonly line: number | undefined;

  constructor(message: string, line?: number) {
    super(line === undefined ? `invalid patch: ${message}` : `invalid hunk at line ${line}, ${message}`);
    this.name = "PatchParseError";
    this.line = line;
  }
}

const BEGIN_PATCH = "*** Begin Patch";
const END_PATCH = "*** End Patch";
const ADD_FILE = "*** Add File: ";
const DELETE_FILE = "*** Delete File: ";
const UPDATE_FILE = "*** Update File: ";
const MOVE_TO = "*** Move to: ";
const END_OF_FILE = "*** End of File";
/** Newer Codex sessions may name an environment right after Begin; we have only one. */
const ENVIRONMENT_ID = "*** Environment ID:";
const HEREDOC_OPENERS = ["<<EOF", "<<'EOF'", '<<"EOF"'];
const EMPTY_CHUNK = "Update hunk does not contain any lines";

/** Parses a whole patch. Throws `PatchParseError`; an envelope with no hunks parses to `[]`. */
export function parsePatch(text: string): PatchHunk[] {
  const trimmed = text.trim();
  const lines = trimmed === "" ? [] : trimmed.split(/\r?\n/);
  let body = envelopeBody(lines);
  let lineNumber = 2;
  if (body[0]?.trim().startsWith(ENVIRONMENT_ID)) {
    body = body.slice(1);
    lineNumber += 1;
  }
  const hunks: PatchHunk[] = [];
  while (body.length > 0) {
    const [hunk, used] = parseHunk(body, lineNumber);
    hunks.push(hunk);
    lineNumber += used;
    body = body.slice(used);
  }
  return hunks;
}

function envelopeBody(lines: string[]): string[] {
  try {
    return strictEnvelopeBody(lines);
  } catch (error) {
    const first = lines[0];
    const last = lines.at(-1);
    // Models sometimes pass `<<'EOF'\n…\nEOF` as the literal argument (a heredoc without a shell).
    if (
      lines.length >= 4 &&
      first !== undefined &&
      HEREDOC_OPENERS.includes(first) &&
      last?.endsWith("EOF")
    ) {
      return strictEnvelopeBody(lines.slice(1, -1));
    }
    throw error;
  }
}

function strictEnvelopeBody(lines: string[]): string[] {
  const first = lines[0]?.trim();
  const last = lines.at(-1)?.trim();
  if (lines.length >= 2 && first === BEGIN_PATCH && last === END_PATCH) return lines.slice(1, -1);
  if (first !== undefined && first !== BEGIN_PATCH) {
    throw new PatchParseError("The first line of the patch must be '*** Begin Patch'");
  }
  throw new PatchParseError("The last line of the patch must be '*** End Patch'");
}

/** Parses the hunk at the start of `lines`; returns it and how many lines it used. */
function parseHunk(lines: string[], lineNumber: number): [PatchHunk, number] {
  const header = (lines[0] ?? "").trim();
  if (header.startsWith(ADD_FILE)) {
    let used = 1;
    let contents = "";
    for (const line of lines.slice(1)) {
      if (!line.startsWith("+")) break;
      contents += `${line.slice(1)}\n`;
      used += 1;
    }
    return [{ type: "add", path: header.slice(ADD_FILE.length), contents }, used];
  }
  if (header.startsWith(DELETE_FILE)) {
    return [{ type: "delete", path: header.slice(DELETE_FILE.length) }, 1];
  }
  if (header.startsWith(UPDATE_FILE))
    return parseUpdateHunk(lines, lineNumber, header.slice(UPDATE_FILE.length));
  throw new PatchParseError(
    `'${header}' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'`,
    lineNumber,
  );
}

function parseUpdateHunk(lines: string[], lineNumber: number, path: string): [PatchHunk, number] {
  let used = 1;
  let movePath: string | undefined;
  if (lines[1]?.startsWith(MOVE_TO)) {
    movePath = lines[1].slice(MOVE_TO.length);
    used += 1;
  }
  const chunks: UpdateChunk[] = [];
  while (used < lines.length) {
    const line = lines[used] ?? "";
    if (line.trim() === "") {
      used += 1;
      continue;
    }
    // The next hunk header or the End Patch line.
    if (line.startsWith("*")) break;
    const [chunk, chunkLines] = parseChunk(lines.slice(used), lineNumber + used, chunks.length === 0);
    chunks.push(chunk);
    used += chunkLines;
  }
  if (chunks.length === 0) {
    throw new PatchParseError(`Update file hunk for path '${path}' is empty`, lineNumber);
  }
  const hunk: PatchHunk = { type: "update", path, chunks };
  if (movePath !== undefined) hunk.movePath = movePath;
  return [hunk, used];
}

/** Parses one `@@` chunk; the first chunk of a hunk may start directly with diff lines. */
function parseChunk(
  lines: string[],
  lineNumber: number,
  allowMissingContext: boolean,
): [UpdateChunk, number] {
  const first = lines[0] ?? "";
  let start = 1;
  let changeContext: string | undefined;
  if (first === "@@") {
    changeContext = undefined;
  } else if (first.startsWith("@@ ")) {
    changeContext = first.slice(3);
  } else if (allowMissingContext) {
    start = 0;
  } else {
    throw new PatchParseError(
      `Expected update hunk to start with a @@ context marker, got: '${first}'`,
      lineNumber,
    );
  }
  if (start >= lines.length) throw new PatchParseError(EMPTY_CHUNK, lineNumber + 1);

  const chunk: UpdateChunk = { oldLines: [], newLines: [], isEndOfFile: false, newLineSources: [] };
  if (changeContext !== undefined) chunk.changeContext = changeContext;
  const sources = chunk.newLineSources ?? [];
  let parsed = 0;
  for (const line of lines.slice(start)) {
    if (line === END_OF_FILE) {
      if (parsed === 0) throw new PatchParseError(EMPTY_CHUNK, lineNumber + start);
      chunk.isEndOfFile = true;
      parsed += 1;
      break;
    }
    const marker = line[0];
    // An empty line is an empty context line (editors strip the lone space).
    if (marker === undefined || marker === " ") {
      sources.push(chunk.oldLines.length);
      chunk.oldLines.push(line.slice(1));
      chunk.newLines.push(line.slice(1));
    } else if (marker === "+") {
      sources.push(null);
      chunk.newLines.push(line.slice(1));
    } else if (marker === "-") {
      chunk.oldLines.push(line.slice(1));
    } else if (parsed === 0) {
      throw new PatchParseError(
        `Unexpected line found in update hunk: '${line}'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)`,
        lineNumber + start,
      );
    } else {
      // The start of the next chunk (`@@`) or something the hunk loop will reject.
      break;
    }
    parsed += 1;
  }
  return [chunk, parsed + start];
}
