/**
 * How Kimi Code 2.1.0's `Read` turns a file's bytes into lines: UTF-8 by default (a leading
 * byte-order mark dropped); UTF-16 LE/BE when the first 512 bytes carry its byte-order mark or
 * NUL bytes at only one parity, decoded strictly and, when that fails, with U+FFFD for the
 * malformed parts. A NUL byte in the first 512 bytes of a UTF-8 file, or anywhere in a line,
 * refuses the file; so does invalid UTF-8. Lines are split at `\n` only, so a `\r` stays in the
 * line it ends.
 */

export type TextEncoding = "utf-8" | "utf-16le" | "utf-16be";

export type LineEndingStyle = "lf" | "crlf" | "mixed";

export interface SourceLines {
  /** Every line without its `\n`; a final `\n` does not start another line. */
  lines: string[];
  style: LineEndingStyle;
  encoding: TextEncoding;
  /** UTF-16 that only decoded with replacement characters. */
  lossy: boolean;
}

export type SourceFailure = "not_text" | "not_utf8" | { tooLargeToTranscode: TextEncoding };

export const SNIFF_BYTES = 512;
/** Kimi Code's ceiling for decoding a whole UTF-16 file into memory. */
export const TRANSCODE_MAX_BYTES = 10 * 1024 * 1024;

export function decodeSource(bytes: Uint8Array): SourceLines | SourceFailure {
  const header = bytes.subarray(0, SNIFF_BYTES);
  const encoding = sniffEncoding(header);
  if (encoding !== "utf-8") {
    if (bytes.length > TRANSCODE_MAX_BYTES) return { tooLargeToTranscode: encoding };
    let text: string;
    let lossy = false;
    try {
      text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
    } catch {
      text = new TextDecoder(encoding).decode(bytes);
      lossy = true;
    }
    const lines = splitAtNewlines(text);
    if (lines.some((line) => line.includes("\0"))) return "not_text";
    return { lines, style: lineEndingStyle(lines, text.endsWith("\n")), encoding, lossy };
  }
  if (header.includes(0)) return "not_text";
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const lines: string[] = [];
  let start = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(0x0a, start);
    const stop = end === -1 ? bytes.length : end;
    let line: string;
    try {
      line = decoder.decode(bytes.subarray(start, stop));
    } catch {
      return "not_utf8";
    }
    if (line.includes("\0")) return "not_text";
    lines.push(start === 0 && line.startsWith("\uFEFF") ? line.slice(1) : line);
    start = stop + 1;
  }
  return { lines, style: lineEndingStyle(lines, bytes.at(-1) === 0x0a), encoding, lossy: false };
}

/** Byte-order marks first, then where NUL bytes fall: UTF-16 text has them at one parity only. */
function sniffEncoding(header: Uint8Array): TextEncoding {
  const [b0, b1, b2] = header;
  if (b0 === 0xfe && b1 === 0xff) return "utf-16be";
  if (b0 === 0xff && b1 === 0xfe) return "utf-16le";
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return "utf-8";
  let even = 0;
  let odd = 0;
  header.forEach((byte, i) => {
    if (byte !== 0) return;
    if (i % 2 === 0) even++;
    else odd++;
  });
  if (even === 0 && odd >= 2) return "utf-16le";
  if (odd === 0 && even >= 2) return "utf-16be";
  return "utf-8";
}

function splitAtNewlines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  return lines;
}

/**
 * CRLF only when every line break is `\r\n`; mixed when LF and CRLF both occur or a `\r` stands
 * anywhere else (inside a line, or ending the last line without a `\n`).
 */
function lineEndingStyle(lines: string[], endsWithNewline: boolean): LineEndingStyle {
  let crlf = false;
  let lf = false;
  for (const [i, line] of lines.entries()) {
    const broken = i < lines.length - 1 || endsWithNewline;
    const body = broken && line.endsWith("\r") ? line.slice(0, -1) : line;
    if (body.includes("\r")) return "mixed";
    if (!broken) continue;
    if (body === line) lf = true;
    else crlf = true;
  }
  if (crlf && lf) return "mixed";
  return crlf ? "crlf" : "lf";
}
