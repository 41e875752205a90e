import type { ChatRequest, Provider } from "../providers/types.js";
import type { ContentBlock, HistoryEvent } from "../store/events.js";
import { TurnError } from "./types.js";

/** What the model is asked for (Codex's checkpoint prompt, in our words). */
export const COMPACT_PROMPT = `You are performing a context checkpoint. Write a handoff summary so that another model can continue this task without the conversation above.
Include: what the user asked for and any constraints or preferences they stated; what has been done so far and the key decisions and their reasons; the current state of the files and commands that matter (paths, names, error messages, test results); and the remaining steps, in order.
Be concise and concrete. Do not call tools. Answer with the summary only.`;

/** Put in front of the summary when it replaces the history (Codex's summary prefix, in our words). */
export const SUMMARY_PREFIX =
  "Another language model started working on this task and wrote the summary below of its progress. Use it to continue; check anything you rely on before acting on it.";

/** Recent user messages kept verbatim across a compaction (Codex keeps up to ~20k tokens). */
const KEEP_USER_BYTES = 80_000;

/**
 * The history as harnesses should render it: after the last compaction, the recent user
 * messages and the summary stand in for everything before it (which stays in the store).
 */
export function compactedView(history: HistoryEvent[]): HistoryEvent[] {
  const at = history.findLastIndex((e) => e.type === "compaction");
  if (at < 0) return history;
  const compaction = history[at] as Extract<HistoryEvent, { type: "compaction" }>;
  const kept: HistoryEvent[] = [];
  let budget = KEEP_USER_BYTES;
  for (let i = at - 1; i >= 0 && budget > 0; i--) {
    const event = history[i]!;
    if (event.type !== "user_message") continue;
    const size = JSON.stringify(event.content).length;
    if (size > budget) break;
    budget -= size;
    kept.unshift(event);
  }
  const summary: ContentBlock[] = [{ type: "text", text: `${SUMMARY_PREFIX}\n\n${compaction.summary}` }];
  return [
    ...kept,
    { type: "user_message", turnId: "compaction", content: summary },
    ...history.slice(at + 1),
  ];
}

/**
 * Asks the model for a handoff summary of the history (in the active harness's layout, with
 * the checkpoint prompt as the last user message). Undefined when there is nothing to
 * summarize; throws `TurnError` when the endpoint fails or answers with nothing.
 */
export async function summarize(options: {
  history: HistoryEvent[];
  render(history: HistoryEvent[]): ChatRequest;
  provider: Provider;
  signal: AbortSignal;
}): Promise<string | undefined> {
  const view = compactedView(options.history);
  if (!view.some((e) => e.type === "assistant_message" || e.type === "tool_call")) return undefined;
  const ask: HistoryEvent = {
    type: "user_message",
    turnId: "compact",
    content: [{ type: "text", text: COMPACT_PROMPT }],
  };
  let summary = "";
  for await (const event of options.provider.stream(options.render([...view, ask]), {
    signal: options.signal,
  })) {
    if (event.type === "text") summary += event.text;
    if (event.type === "error") throw new TurnError(event.error.message, event.error.code);
  }
  if (!summary.trim() && !options.signal.aborted) {
    throw new TurnError("The model returned an empty summary; nothing was compacted.", "empty_summary");
  }
  return summary.trim();
}
