import path from "node:path";
import type { SessionUpdate, ToolCallContent, ToolCallStatus } from "../../acp/local-client.js";
import { renderDiff } from "./diff-view.js";
import { foldOutput } from "./fold-output.js";
import { clip, type Style } from "./style.js";

/** What the chat knows of one tool call, merged from `tool_call` and its updates. */
export interface ToolState {
  id: string;
  title: string;
  status: ToolCallStatus;
  content: ToolCallContent[];
  /** The diff was already shown (with the permission question); not shown twice. */
  diffShown: boolean;
}

/** A `tool_call_update` merged into what the chat knows of the call: absent fields keep their value. */
export function mergeToolUpdate(
  tool: ToolState,
  update: Extract<SessionUpdate, { sessionUpdate: "tool_call_update" }>,
): void {
  if (update.title) tool.title = update.title;
  if (update.content) tool.content = update.content;
  if (update.status) tool.status = update.status;
}

/** The one line a tool call gets: a mark for its status, then its title. */
export function toolHeader(tool: ToolState, options: { style: Style; width: number }): string {
  const { style } = options;
  const title = clip(oneLine(tool.title), options.width - 3);
  if (tool.status === "completed") return `${style.green("✓")} ${title}`;
  if (tool.status === "failed") return `${style.red("✗")} ${title}`;
  return `${style.dim("•")} ${title}`;
}

/** Below the header: diffs of edits (once) and command output folded to a few dimmed lines. */
export function toolBody(tool: ToolState, options: { style: Style; width: number; cwd?: string }): string[] {
  const lines: string[] = [];
  if (!tool.diffShown) lines.push(...diffLines(tool.content, options));
  lines.push(...outputLines(tool, options));
  return lines;
}

/** The call's text output, indented and dimmed (red when it failed), folded unless `expanded`. */
export function outputLines(
  tool: ToolState,
  options: { style: Style; width: number; expanded?: boolean },
): string[] {
  const { style, width } = options;
  const paint = tool.status === "failed" ? style.red : style.dim;
  const fold = options.expanded ? { head: Number.MAX_SAFE_INTEGER, width: width - 4 } : { width: width - 4 };
  return texts(tool.content).flatMap((text) => foldOutput(text, fold).map((line) => paint(`    ${line}`)));
}

/** Every diff in the content, coloured; paths inside `cwd` are shown relative to it. */
export function diffLines(
  content: ToolCallContent[],
  options: { style: Style; width: number; cwd?: string; maxRows?: number },
): string[] {
  const { style, width, cwd, maxRows } = options;
  return content.flatMap((item) =>
    item.type === "diff"
      ? renderDiff({
          path: shortPath(item.path, cwd),
          oldText: item.oldText,
          newText: item.newText,
          style,
          width,
          maxRows,
        })
      : [],
  );
}

function shortPath(file: string, cwd: string | undefined): string {
  if (!cwd) return file;
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}

/** The plain text of the content (command output, error messages), in order. */
function texts(content: ToolCallContent[]): string[] {
  return content.flatMap((item) =>
    item.type === "content" && item.content.type === "text" && item.content.text.trim()
      ? [item.content.text]
      : [],
  );
}

export function oneLine(text: string): string {
  const first = text.split("\n")[0] ?? "";
  return first.length < text.trimEnd().length ? `${first} …` : first;
}
