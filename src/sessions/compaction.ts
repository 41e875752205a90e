import type { ChatRequest, Provider } from "../providers/types.js";
import type { ContentBlock, HistoryEvent } from "../store/events.js";
import { TurnError } from "./types.js";

/** What the model is asked for (Codex's checkpoint prompt, in our words); harnesses may bring their own. */
export const COMPACT_PROMPT = `You are performing a context checkpoint. Write a handoff summary so that another model can continue this task without the conversation above.
Include: what the user asked for and any constraints or preferences they stated; what has been done so far and the key decisions and their reasons; the current state of the files and commands that matter (paths, names, error messages, test results); and the remaining steps, in order.
Be concise and concrete. Do not call tools. Answer with the summary only.`;

/** Put in front of the summary when it replaces the history (Codex's summary prefix, in our words). */
export const SUMMARY_PREFIX =
  "Another language model started working on this task and wrote the summary below of its progress. Use it to continue; check anything you rely on before acting on it.";

/** Recent user messages kept verbatim across a compaction (Codex keeps up to ~20k tokens). */
export const KEEP_USER_BYTES = 80_000;

export interface ViewOptions {
  /** Put before the summary (default: Codex's prefix). */
  prefix?: string;
  /** Budget for the recent user messages kept verbatim (default 80 kB). */
  keepUserBytes?: number;
}

/**
 * The history as harnesses should render it: after the last compaction, the most recent user
 * messages (newest first within the budget, the newest one middle-truncated if it alone is
 * over) and then the summary stand in for everything before it, which stays in the store.
 * Events after the compaction follow unchanged.
 */
export function compactedView(history: HistoryEvent[], options: ViewOptions = {}): HistoryEvent[] {
  const at = history.findLastIndex((e) => e.type === "compaction");
  if (at < 0) return history;
  const compaction = history[at] as Extract<HistoryEvent, { type: "compaction" }>;
  const kept: HistoryEvent[] = [];
  let budget = options.keepUserBytes ?? KEEP_USER_BYTES;
  for (let i = at - 1; i >= 0 && budget > 0; i--) {
    const event = history[i]!;
    if (event.type !== "user_message") continue;
    const size = JSON.stringify(event.content).length;
    if (size > budget) {
      if (kept.length === 0) kept.unshift({ ...event, content: [middleText(event.content, budget)] });
      break;
    }
    budget -= size;
    kept.unshift(event);
  }
  const prefix = options.prefix ?? SUMMARY_PREFIX;
  const summary: ContentBlock[] = [{ type: "text", text: `${prefix}\n\n${compaction.summary}` }];
  return [
    ...kept,
    { type: "user_message", turnId: "compaction", content: summary },
    ...history.slice(at + 1),
  ];
}

/** True when the view holds model work worth summarizing (not just user messages). */
export function hasWork(view: HistoryEvent[]): boolean {
  return view.some((e) => e.type === "assistant_message" || e.type === "tool_call");
}

/**
 * Asks the model for a handoff summary of `view` (rendered in the active harness's layout, so
 * the request shares its cached prefix, with the prompt as the last user message). A request
 * refused as too long is tried once more without the older half of the view. Throws
 * `TurnError` when the endpoint fails or answers with nothing; "" when the signal aborted.
 */
export async function summarize(options: {
  view: HistoryEvent[];
  render(history: HistoryEvent[]): ChatRequest;
  provider: Provider;
  signal: AbortSignal;
  prompt?: string;
}): Promise<string> {
  const ask: HistoryEvent = {
    type: "user_message",
    turnId: "compact",
    content: [{ type: "text", text: options.prompt ?? COMPACT_PROMPT }],
  };
  const request = async (view: HistoryEvent[]) => {
    let summary = "";
    for await (const event of options.provider.stream(options.render([...view, ask]), {
      signal: options.signal,
    })) {
      if (event.type === "text") summary += event.text;
      if (event.type === "error") throw new TurnError(event.error.message, event.error.code);
    }
    return summary;
  };
  let summary: string;
  try {
    summary = await request(options.view);
  } catch (error) {
    const tooLong = error instanceof TurnError && error.code === "context_length";
    if (!tooLong || options.signal.aborted) throw error;
    summary = await request(options.view.slice(Math.floor(options.view.length / 2)));
  }
  // Scratchpads some prompts ask for (Claude Code's <analysis>, Gemini's <scratchpad>) are not kept.
  summary = summary.replace(/<(analysis|scratchpad)>[\s\S]*?<\/\1>/g, "").trim();
  if (!summary && !options.signal.aborted) {
    throw new TurnError("The model returned an empty summary; nothing was compacted.", "empty_summary");
  }
  return summary;
}

/** A user message over the whole budget, as text with its middle left out. */
function middleText(content: ContentBlock[], budget: number): ContentBlock {
  const text = content
    .map((block) => (block.type === "text" && typeof block.text === "string" ? block.text : ""))
    .join("\n");
  const half = Math.max(0, Math.floor(budget / 2) - 50);
  if (text.length <= half * 2) return { type: "text", text };
  const omitted = text.length - half * 2;
  return {
    type: "text",
    text: `${text.slice(0, half)}\n…[${omitted} characters omitted]…\n${text.slice(-half)}`,
  };
}
