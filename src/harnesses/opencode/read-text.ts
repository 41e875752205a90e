/** opencode's read caps (1.18.33 `tool/read.ts`). */
export const READ_LIMIT = 2000;
const MAX_LINE = 2000;
const MAX_BYTES = 51_200;

/** Extensions opencode refuses as binary without looking inside. */
export const BINARY_EXTENSIONS = new Set(
  ".zip .tar .gz .exe .dll .so .class .jar .war .7z .doc .docx .xls .xlsx .ppt .pptx .odt .ods .odp .bin .dat .obj .o .a .lib .wasm .pyc .pyo".split(
    " ",
  ),
);

/** opencode's sniff of the first 4 KiB: a NUL byte, or over 30% control bytes, is binary. */
export function looksBinary(sample: Uint8Array): boolean {
  if (sample.length === 0) return false;
  let odd = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    if (byte < 9 || (byte > 13 && byte < 32)) odd++;
  }
  return odd / sample.length > 0.3;
}

/**
 * The body of opencode's file read from `offset` (1-based) for `limit` lines: lines over 2,000
 * characters cut with its marker, 51,200 bytes at most, then the closing note (capped, more
 * lines, or end of file with the total). Throws the out-of-range message as an Error.
 */
export function readFileText(options: { path: string; text: string; offset: number; limit: number }): string {
  const { offset, limit } = options;
  const lines = options.text.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  const count = lines.length;
  if (count < offset && !(count === 0 && offset === 1))
    throw new Error(`Offset ${offset} is out of range for this file (${count} lines)`);
  const kept: string[] = [];
  let bytes = 0;
  let cut = false;
  for (const line of lines.slice(offset - 1)) {
    if (kept.length >= limit) break;
    const shown =
      line.length > MAX_LINE
        ? `${line.substring(0, MAX_LINE)}... (line truncated to ${MAX_LINE} chars)`
        : line;
    const size = Buffer.byteLength(shown, "utf8") + (kept.length > 0 ? 1 : 0);
    if (bytes + size > MAX_BYTES) {
      cut = true;
      break;
    }
    kept.push(shown);
    bytes += size;
  }
  const last = offset + kept.length - 1;
  let out = `<path>${options.path}</path>\n<type>file</type>\n<content>\n`;
  out += kept.map((line, i) => `${i + offset}: ${line}`).join("\n");
  if (cut)
    out += `\n\n(Output capped at ${MAX_BYTES / 1024} KB. Showing lines ${offset}-${last}. Use offset=${last + 1} to continue.)`;
  else if (offset - 1 + kept.length < count)
    out += `\n\n(Showing lines ${offset}-${last} of ${count}. Use offset=${last + 1} to continue.)`;
  else out += `\n\n(End of file - total ${count} lines)`;
  return `${out}\n</content>`;
}

/** opencode's directory listing: entries (subdirectories with `/`) paged by offset and limit. */
export function readDirectoryText(options: {
  path: string;
  entries: string[];
  offset: number;
  limit: number;
}): string {
  const { entries, offset, limit } = options;
  const page = entries.slice(offset - 1, offset - 1 + limit);
  const more = offset - 1 + page.length < entries.length;
  return [
    `<path>${options.path}</path>`,
    "<type>directory</type>",
    "<entries>",
    page.join("\n"),
    more
      ? `\n(Showing ${page.length} of ${entries.length} entries. Use 'offset' parameter to read beyond entry ${offset + page.length})`
      : `\n(${entries.length} entries)`,
    "</entries>",
  ].join("\n");
}
