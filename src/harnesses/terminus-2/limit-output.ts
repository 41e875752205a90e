/** Terminus 2's cap on what one observation carries (`_limit_output_length`, bytes of UTF-8). */
export const OUTPUT_LIMIT_BYTES = 10_000;

/**
 * Output over the cap keeps its first and last 5,000 bytes (a character cut in two is dropped,
 * as Python's `decode(errors="ignore")` drops it) around the original's omission line.
 */
export function limitOutput(output: string, maxBytes = OUTPUT_LIMIT_BYTES): string {
  const bytes = Buffer.from(output, "utf8");
  if (bytes.length <= maxBytes) return output;
  const portion = Math.floor(maxBytes / 2);
  const first = decodeIgnoring(bytes.subarray(0, portion));
  const last = decodeIgnoring(bytes.subarray(bytes.length - portion));
  const omitted = bytes.length - Buffer.byteLength(first) - Buffer.byteLength(last);
  return `${first}\n[... output limited to ${maxBytes} bytes; ${omitted} interior bytes omitted ...]\n${last}`;
}

function decodeIgnoring(bytes: Uint8Array): string {
  return new TextDecoder("utf-8").decode(bytes).replace(/\uFFFD/g, "");
}
