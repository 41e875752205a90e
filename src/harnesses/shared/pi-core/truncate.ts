/**
 * pi's output caps and truncation (badlogic/pi-mono `packages/coding-agent/src/core/tools/truncate.ts`):
 * two independent limits, 2000 lines and 50KB, whichever is hit first; `read` keeps the head,
 * `bash` keeps the tail. Lines are what `split("\n")` yields, so a trailing newline counts as one
 * more (empty) line, exactly as in pi.
 */

export const PI_MAX_LINES = 2000;
export const PI_MAX_BYTES = 50 * 1024;

export interface Truncation {
  content: string;
  truncated: boolean;
  truncatedBy: "lines" | "bytes" | null;
  totalLines: number;
  totalBytes: number;
  outputLines: number;
  outputBytes: number;
  /** Tail only: the last line alone was over the byte limit and was cut. */
  lastLinePartial: boolean;
  /** Head only: the first line alone is over the byte limit; `content` is empty. */
  firstLineExceedsLimit: boolean;
}

/** pi's `formatSize`: `512B`, `50.0KB`, `1.5MB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

const byteLength = (text: string) => Buffer.byteLength(text, "utf8");

function untouched(content: string, lines: number, bytes: number): Truncation {
  return {
    content,
    truncated: false,
    truncatedBy: null,
    totalLines: lines,
    totalBytes: bytes,
    outputLines: lines,
    outputBytes: bytes,
    lastLinePartial: false,
    firstLineExceedsLimit: false,
  };
}

/** Keeps whole lines from the start; never returns a partial line. */
export function truncateHead(content: string, maxLines = PI_MAX_LINES, maxBytes = PI_MAX_BYTES): Truncation {
  const totalBytes = byteLength(content);
  const lines = content.split("\n");
  const totalLines = lines.length;
  if (totalLines <= maxLines && totalBytes <= maxBytes) return untouched(content, totalLines, totalBytes);
  const base = { totalLines, totalBytes, truncated: true, lastLinePartial: false };
  if (byteLength(lines[0] ?? "") > maxBytes) {
    return {
      ...base,
      content: "",
      truncatedBy: "bytes",
      outputLines: 0,
      outputBytes: 0,
      firstLineExceedsLimit: true,
    };
  }
  const kept: string[] = [];
  let bytes = 0;
  let truncatedBy: "lines" | "bytes" = "lines";
  for (let i = 0; i < lines.length && i < maxLines; i++) {
    const lineBytes = byteLength(lines[i]!) + (i > 0 ? 1 : 0);
    if (bytes + lineBytes > maxBytes) {
      truncatedBy = "bytes";
      break;
    }
    kept.push(lines[i]!);
    bytes += lineBytes;
  }
  if (kept.length >= maxLines && bytes <= maxBytes) truncatedBy = "lines";
  const out = kept.join("\n");
  return {
    ...base,
    content: out,
    truncatedBy,
    outputLines: kept.length,
    outputBytes: byteLength(out),
    firstLineExceedsLimit: false,
  };
}

/** Keeps whole lines from the end; only a last line longer than the byte limit is cut (its end kept). */
export function truncateTail(content: string, maxLines = PI_MAX_LINES, maxBytes = PI_MAX_BYTES): Truncation {
  const totalBytes = byteLength(content);
  const lines = content.split("\n");
  const totalLines = lines.length;
  if (totalLines <= maxLines && totalBytes <= maxBytes) return untouched(content, totalLines, totalBytes);
  const kept: string[] = [];
  let bytes = 0;
  let truncatedBy: "lines" | "bytes" = "lines";
  let lastLinePartial = false;
  for (let i = lines.length - 1; i >= 0 && kept.length < maxLines; i--) {
    const line = lines[i]!;
    const lineBytes = byteLength(line) + (kept.length > 0 ? 1 : 0);
    if (bytes + lineBytes > maxBytes) {
      truncatedBy = "bytes";
      if (kept.length === 0) {
        const end = bytesFromEnd(line, maxBytes);
        kept.unshift(end);
        bytes = byteLength(end);
        lastLinePartial = true;
      }
      break;
    }
    kept.unshift(line);
    bytes += lineBytes;
  }
  if (kept.length >= maxLines && bytes <= maxBytes) truncatedBy = "lines";
  const out = kept.join("\n");
  return {
    content: out,
    truncated: true,
    truncatedBy,
    totalLines,
    totalBytes,
    outputLines: kept.length,
    outputBytes: byteLength(out),
    lastLinePartial,
    firstLineExceedsLimit: false,
  };
}

/** The last `maxBytes` bytes of `text`, starting on a character boundary. */
function bytesFromEnd(text: string, maxBytes: number): string {
  const buffer = Buffer.from(text, "utf8");
  if (buffer.length <= maxBytes) return text;
  let start = buffer.length - maxBytes;
  while (start < buffer.length && ((buffer[start] ?? 0) & 0xc0) === 0x80) start++;
  return buffer.subarray(start).toString("utf8");
}
