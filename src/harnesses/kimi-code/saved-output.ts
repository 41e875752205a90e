import { randomUUID } from "node:crypto";
import path from "node:path";
import { spillOutput } from "../../tools/fs/spill-output.js";
import { cutLine, MAX_LINE_CHARS, splitLines } from "./output-builder.js";

/**
 * Kimi Code 2.1.0's cap on one tool result as the model sees it (agent-core-v2
 * `toolResultTruncation`): a text over 50 000 characters goes to a file, the model gets a block
 * naming it with the head and tail of the text. At most 10 000 000 characters are kept.
 */
export const TOOL_RESULT_MAX_CHARS = 50_000;
export const TOOL_RESULT_MAX_RETAINED_CHARS = 10_000_000;
export const PREVIEW_HEAD_CHARS = 4_096;
export const PREVIEW_TAIL_CHARS = 1_024;

const NEXT_STEP =
  "next_step: Use Read with output_path to page through the saved output, or Grep to search it.";

export interface SavedOutputInput {
  toolName: string;
  /** The call's id as the model sent it; the block names it. */
  callId: string;
  /** The whole text the tool produced. */
  text: string;
  /** Where the file goes: the session's scratch folder gets `tool-results/<tool>-<call>-<uuid>.txt`. */
  scratchDir: string;
  /** A file that already holds the whole output (a Bash task's log): nothing is written then. */
  savedAt?: { outputPath: string; totalChars: number };
  /** What closes the block after a blank line (a Bash result's status and task lines). */
  suffix?: string;
}

/**
 * 2.1.0's saved-output block for a text over the cap; undefined when the text fits (the tool's
 * own result goes as it is). A text that fits once its lines over 2 000 characters are cut stays
 * inline with a per-line note instead. A file that cannot be written leaves only the preview.
 */
export async function savedOutput(input: SavedOutputInput): Promise<string | undefined> {
  const { text } = input;
  const suffix = input.suffix ?? "";
  if (text.length <= TOOL_RESULT_MAX_CHARS) return undefined;
  const retained =
    text.length <= TOOL_RESULT_MAX_RETAINED_CHARS ? text : text.slice(0, TOOL_RESULT_MAX_RETAINED_CHARS);
  const totalChars = input.savedAt?.totalChars ?? text.length;
  const saved = input.savedAt
    ? { outputPath: input.savedAt.outputPath, preservedChars: totalChars }
    : await save(input, retained);
  const header = [`tool_name: ${input.toolName}`, `tool_call_id: ${input.callId}`];
  if (!saved) {
    const lines = [
      `Tool output exceeded ${TOOL_RESULT_MAX_CHARS} characters and could not be saved to a file; only this preview is available.`,
      ...header,
      `output_size_chars: ${totalChars}`,
    ];
    return finish(lines, retained, suffix);
  }
  const shaped = splitLines(text)
    .map((line) => cutLine(line, MAX_LINE_CHARS))
    .join("");
  if (shaped.length <= TOOL_RESULT_MAX_CHARS) {
    const lines = [
      saved.preservedChars < totalChars
        ? `[Per-line truncation occurred; only the first ${saved.preservedChars} characters (of ${totalChars}) were saved to a file.`
        : "[Per-line truncation occurred; the complete output was saved to a file.",
      `output_path: ${saved.outputPath}`,
      `${NEXT_STEP}]`,
    ];
    const inlineSuffix = dropShownLines(suffix, shaped);
    if (inlineSuffix) lines.push("", inlineSuffix);
    const note = lines.join("\n");
    return shaped.endsWith("\n") || shaped === "" ? shaped + note : `${shaped}\n${note}`;
  }
  const partial = saved.preservedChars < totalChars;
  const lines = [
    partial
      ? `Tool output exceeded ${TOOL_RESULT_MAX_CHARS} characters; the first ${saved.preservedChars} characters (of ${totalChars}) were saved to a file.`
      : `Tool output exceeded ${TOOL_RESULT_MAX_CHARS} characters; the full output was saved to a file.`,
    ...header,
    partial
      ? `output_size_chars: ${totalChars} (only the first ${saved.preservedChars} characters were preserved)`
      : `output_size_chars: ${totalChars}`,
  ];
  if (saved.preservedChars === retained.length)
    lines.push(`output_size_bytes: ${Buffer.byteLength(retained)}`);
  lines.push(`output_path: ${saved.outputPath}`, NEXT_STEP);
  return finish(lines, retained, suffix);
}

async function save(input: SavedOutputInput, text: string) {
  const stem = `${input.toolName}-${input.callId}`
    .replace(/[^a-zA-Z0-9._-]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 80);
  const dir = path.join(input.scratchDir, "tool-results");
  const name = `${stem || "tool-result"}-${randomUUID()}.txt`;
  try {
    const written = await spillOutput({ text, dir, name, maxBytes: -1 });
    return written.spilled ? { outputPath: written.path, preservedChars: text.length } : undefined;
  } catch {
    return undefined;
  }
}

/** The head and, past it, the tail of the text, each under a line naming its character range. */
function finish(lines: string[], preview: string, suffix: string): string {
  const head = preview.slice(0, PREVIEW_HEAD_CHARS);
  const tailStart = Math.max(head.length, preview.length - PREVIEW_TAIL_CHARS);
  const tail = preview.slice(tailStart);
  lines.push("", `[preview: chars [0, ${head.length})]`, head);
  if (tail !== "") {
    if (tailStart > head.length) lines.push("", `[elided: chars [${head.length}, ${tailStart})]`);
    lines.push("", `[preview: chars [${tailStart}, ${preview.length})]`, tail);
  }
  if (suffix) lines.push("", suffix);
  return lines.join("\n");
}

/** Suffix lines the inline text already shows are not repeated. */
function dropShownLines(suffix: string, shown: string): string {
  const lines = suffix.split("\n");
  if (!lines.some((line) => line && shown.includes(line))) return suffix;
  return lines.filter((line) => line && !shown.includes(line)).join("\n");
}
