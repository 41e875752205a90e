import type { HistoryEvent } from "../../store/events.js";
import { piPromptTail } from "../shared/pi-core/prompt-tail.js";
import type { HarnessContext } from "../types.js";
import glob from "./card-glob.md";
import read from "./card-read.md";
import workspaceDocs from "./card-workspace-docs.md";
import write from "./card-write.md";
import prompt from "./prompt.md";
import researchDirective from "./research-directive.md";

/** Words in the user's messages that make a task a browsing one (openinterpreter's little-coder). */
const BROWSING = ["browser", "javascript", "xss", "webpage", "url"];

const card = (text: string) => text.trimEnd();
const TOOL_GUIDANCE = "## Tool Usage Guidance";

/** The cards for file work: Read and Write. */
export const READ_WRITE_GUIDANCE = [TOOL_GUIDANCE, card(read), card(write)].join("\n\n");

/** The cards for a research task: the workspace-docs cheat sheet, Glob, Read, Write, then the research rule. */
export const BROWSING_GUIDANCE = [
  `## Algorithm Reference\n\n${card(workspaceDocs)}\n\n`,
  TOOL_GUIDANCE,
  card(glob),
  card(read),
  card(write),
  card(researchDirective),
].join("\n\n");

/**
 * little-coder's system prompt: pi started with `--system-prompt <its AGENTS.md>` and
 * `--no-context-files`, so its own prompt replaces pi's and the project's AGENTS.md is not sent;
 * pi adds its skills list, the date and the working directory. Then the turn's skill cards, as
 * openinterpreter's little-coder places them: chosen once from everything the user wrote.
 */
export function littleCoderSystemPrompt(ctx: HarnessContext, history: readonly HistoryEvent[]): string {
  const text = prompt + piPromptTail(ctx);
  const guidance = toolGuidance(history);
  return guidance ? `${text}\n\n${guidance}` : text;
}

/** No cards before the user has written anything; the research cards when they speak of browsing. */
function toolGuidance(history: readonly HistoryEvent[]): string | undefined {
  const said = history
    .flatMap((event) => (event.type === "user_message" ? event.content : []))
    .map((block) => (block.type === "text" && typeof block.text === "string" ? block.text : ""))
    .join("")
    .toLowerCase();
  if (!said) return undefined;
  return BROWSING.some((word) => said.includes(word)) ? BROWSING_GUIDANCE : READ_WRITE_GUIDANCE;
}
