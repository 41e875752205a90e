import { textLines } from "../unified-patch.js";

/** CodeWhale's per-stream cap (`shell_output.rs`): 30,000 bytes, the first 22,000 and the last 8,000 kept. */
const MAX_BYTES = 30_000;
const HEAD_BYTES = 22_000;
const TAIL_BYTES = MAX_BYTES - HEAD_BYTES;

/** One stream within the cap, with the original's note where the middle was dropped. */
export function capStream(text: string): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= MAX_BYTES) return text;
  let headEnd = HEAD_BYTES;
  while (headEnd > 0 && ((bytes[headEnd] as number) & 0xc0) === 0x80) headEnd--;
  let tailStart = bytes.length - TAIL_BYTES;
  while (tailStart < bytes.length && ((bytes[tailStart] as number) & 0xc0) === 0x80) tailStart++;
  const head = bytes.subarray(0, headEnd);
  const tail = bytes.subarray(tailStart);
  const omitted = tailStart - headEnd;
  const note = `...\n\n[Output truncated: showing first ${head.length} bytes and last ${tail.length} bytes. ${omitted} bytes omitted.]`;
  return `${head.toString("utf8")}${note}\n\n[Output tail]\n${tail.toString("utf8")}`;
}

/** The first three lines, trimmed, at most 240 characters (`summarize_output`). */
export function summarizeOutput(text: string): string {
  const cut = text.split("\n\n[Output truncated")[0] as string;
  const summary = textLines(cut).slice(0, 3).join("\n").trim();
  const chars = [...summary];
  return chars.length <= 240 ? summary : `${chars.slice(0, 240).join("")}...`;
}
