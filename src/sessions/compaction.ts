import type { ModelRequest } from "../providers/model-request.js";
import type { Provider, ProviderError, Usage } from "../providers/types.js";
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

/** One summary request as sent and answered, for the token ledger (see `usageEvent`). */
export interface SummaryRequest {
  request: ModelRequest;
  /** The endpoint's usage, when it sent one. */
  usage?: Usage;
  /** Characters streamed back (text, reasoning, tool calls). */
  outputChars: number;
  /** The stream ended normally (not with an error or a cancellation). */
  completed: boolean;
  latencyMs: number;
}

/**
 * Asks the model for a handoff summary of `view` (rendered in the active harness's layout, so
 * the request shares its cached prefix, with the prompt as the last user message). A request
 * refused as too long is tried again with tool outputs cut to their head and tail, then also
 * without the older half of the view. Throws
 * `TurnError` when the endpoint fails or answers with nothing; "" when the signal aborted.
 * `onRequest` hears of every request sent, failed ones included, before this returns or throws.
 */
export async function summarize(options: {
  view: HistoryEvent[];
  render(history: HistoryEvent[]): ModelRequest;
  provider: Provider;
  signal: AbortSignal;
  prompt?: string;
  onRequest?(spent: SummaryRequest): void;
  /** Clock for request latency in ms (default `Date.now`). */
  now?: () => number;
}): Promise<string> {
  const ask: HistoryEvent = {
    type: "user_message",
    turnId: "compact",
    content: [{ type: "text", text: options.prompt ?? COMPACT_PROMPT }],
  };
  const now = options.now ?? Date.now;
  const request = async (view: HistoryEvent[]) => {
    const body = options.render([...view, ask]);
    const started = now();
    let summary = "";
    let outputChars = 0;
    let usage: Usage | undefined;
    let failure: ProviderError | undefined;
    let finish = "stop";
    for await (const event of options.provider.stream(body, { signal: options.signal })) {
      if (event.type === "text") summary += event.text;
      if (event.type === "text" || event.type === "reasoning") outputChars += event.text.length;
      else if (event.type === "tool_calls")
        for (const call of event.calls) outputChars += call.name.length + call.arguments.length;
      else if (event.type === "usage") usage = event.usage;
      else if (event.type === "done") finish = event.finishReason;
      else if (event.type === "error") failure = event.error;
    }
    options.onRequest?.({
      request: body,
      usage,
      outputChars,
      completed: !failure && finish !== "cancelled",
      latencyMs: now() - started,
    });
    if (failure) throw new TurnError(failure.message, failure.code);
    return summary;
  };
  // The request that overflowed is usually the one carrying a huge tool output, so the summary
  // request is often refused too: retry with long outputs cut, then also without the older half.
  const { view } = options;
  const attempts = [
    () => view,
    () => clipOutputs(view),
    () => clipOutputs(view.slice(Math.floor(view.length / 2))),
  ];
  let summary = "";
  for (const [index, attempt] of attempts.entries()) {
    try {
      summary = await request(attempt());
      break;
    } catch (error) {
      const tooLong = error instanceof TurnError && error.code === "context_length";
      if (!tooLong || options.signal.aborted || index === attempts.length - 1) throw error;
    }
  }
  // Scratchpads some prompts ask for (Claude Code's <analysis>, Gemini's <scratchpad>) are not kept.
  summary = summary.replace(/<(analysis|scratchpad)>[\s\S]*?<\/\1>/g, "").trim();
  if (!summary && !options.signal.aborted) {
    throw new TurnError("The model returned an empty summary; nothing was compacted.", "empty_summary");
  }
  return summary;
}

/** Tool outputs are cut to this many characters (head and tail) in a retried summary request. */
const CLIPPED_OUTPUT_CHARS = 2_000;

function clipOutputs(view: HistoryEvent[]): HistoryEvent[] {
  return view.map((event) =>
    event.type === "tool_result" && event.output.length > CLIPPED_OUTPUT_CHARS
      ? { ...event, output: middle(event.output, CLIPPED_OUTPUT_CHARS) }
      : event,
  );
}

/** A user message over the whole budget, as text with its middle left out. */
function middleText(content: ContentBlock[], budget: number): ContentBlock {
  const text = content
    .map((block) => (block.type === "text" && typeof block.text === "string" ? block.text : ""))
    .join("\n");
  return { type: "text", text: middle(text, budget) };
}

function middle(text: string, budget: number): string {
  const half = Math.max(0, Math.floor(budget / 2) - 50);
  if (text.length <= half * 2) return text;
  const omitted = text.length - half * 2;
  return `${text.slice(0, half)}\n…[${omitted} characters omitted]…\n${text.slice(-half)}`;
}
