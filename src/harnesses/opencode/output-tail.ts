import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

/** opencode's tool-output caps (`Truncate.MAX_LINES`, `Truncate.MAX_BYTES`). */
export const OPENCODE_MAX_LINES = 2000;
export const OPENCODE_MAX_BYTES = 51_200;

/**
 * The newest lines of `text` within `maxLines` and `maxBytes` (opencode's shell tail): lines are
 * taken from the end while they fit; a last line alone over the byte cap keeps its final bytes,
 * never splitting a character. `cut` is false when the text fits whole.
 */
export function tailLines(
  text: string,
  maxLines = OPENCODE_MAX_LINES,
  maxBytes = OPENCODE_MAX_BYTES,
): { text: string; cut: boolean } {
  const lines = text.split("\n");
  if (lines.length <= maxLines && Buffer.byteLength(text, "utf8") <= maxBytes) return { text, cut: false };
  const kept: string[] = [];
  let bytes = 0;
  for (let i = lines.length - 1; i >= 0 && kept.length < maxLines; i--) {
    const line = lines[i] as string;
    const size = Buffer.byteLength(line, "utf8") + (kept.length > 0 ? 1 : 0);
    if (bytes + size > maxBytes) {
      if (kept.length === 0) {
        const buf = Buffer.from(line, "utf8");
        let start = Math.max(0, buf.length - maxBytes);
        while (start < buf.length && ((buf[start] as number) & 0xc0) === 0x80) start++;
        kept.unshift(buf.subarray(start).toString("utf8"));
      }
      break;
    }
    kept.unshift(line);
    bytes += size;
  }
  return { text: kept.join("\n"), cut: true };
}

/**
 * Writes a whole output where opencode keeps it (`tool-output/tool_<id>`, here under the
 * session's scratch folder) and returns the path the model is pointed at.
 */
export async function saveToolOutput(text: string, scratchDir: string): Promise<string> {
  const dir = path.join(scratchDir, "tool-output");
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `tool_${Date.now().toString(16)}${randomBytes(7).toString("hex")}`);
  await writeFile(file, text);
  return file;
}
