import type { CompactionRule, Harness } from "../harnesses/types.js";
import type { ModelRequest } from "../providers/model-request.js";
import type { Provider } from "../providers/types.js";
import type { HistoryEvent, HistoryEventOf } from "../store/events.js";
import { compactionLimit, estimateTokens } from "./auto-compact-rule.js";
import {
  COMPACT_PROMPT,
  compactedView,
  hasWork,
  KEEP_USER_BYTES,
  type SummaryRequest,
  summarize,
} from "./compaction.js";
import type { SessionDeps } from "./session-deps.js";
import type { SessionOutput } from "./types.js";
import { TurnError } from "./types.js";
import { estimateRequestTokens, type LedgerInfo, usageEvent } from "./usage-totals.js";

export type CompactionReason = NonNullable<HistoryEventOf<"compaction">["reason"]>;

export interface CompactorOptions {
  /** The active harness's rule and prompts (default: Codex's). */
  rule?: CompactionRule;
  /** The session model's context window in tokens. */
  window: number;
  /** `model_auto_compact_token_limit`: wins over the rule. */
  tokenLimit?: number;
  /** The harness's own render, without the compacted view applied. */
  render(history: HistoryEvent[]): ModelRequest;
  provider: Provider;
  history(): HistoryEvent[];
  commit(events: HistoryEvent[]): void;
  send(output: SessionOutput): void;
  newId(): string;
  /** Model, provider, harness and prices recorded with each summary request's usage. */
  ledger?: LedgerInfo;
  /** Clock for request latency in ms (default `Date.now`). */
  now?: () => number;
}

export type CompactOutcome =
  | { status: "nothing" | "cancelled" }
  | { status: "done"; event: HistoryEventOf<"compaction"> };

/**
 * Compaction for one session, harness and model: the view harnesses render, `/compact`, and
 * the automatic path around each model request. Manual and automatic share `compact()`.
 */
export function createCompactor(o: CompactorOptions) {
  const view = (history: HistoryEvent[]) =>
    compactedView(history, {
      prefix: o.rule?.summaryPrefix,
      // Codex keeps ~20k tokens of user messages; Kimi Code at most 20 % of the window.
      keepUserBytes: Math.min(KEEP_USER_BYTES, Math.floor(o.window * 0.2 * 4)),
    });

  /**
   * Summarizes and commits a `compaction` event after the `usage` events of its summary
   * requests (the ledger counts them, failed and cancelled ones too); throws `TurnError` when
   * the summary request fails.
   */
  const compact = async (reason: CompactionReason, signal: AbortSignal): Promise<CompactOutcome> => {
    const history = o.history();
    const current = view(history);
    if (!hasWork(current)) return { status: "nothing" };
    const compactionId = `compaction-${o.newId()}`;
    const spent: HistoryEventOf<"usage">[] = [];
    const record = (request: SummaryRequest) => {
      const event = usageEvent({
        ...request,
        turnId: runningTurn(history) ?? compactionId,
        contextSize: o.window,
        ledger: o.ledger,
        history: [...history, ...spent],
        purpose: "compaction",
      });
      if (event) spent.push(event);
    };
    o.send({ type: "compaction", compactionId, status: "in_progress" });
    let summary: string;
    try {
      summary = await summarize({
        view: current,
        render: o.render,
        provider: o.provider,
        signal,
        prompt: o.rule?.prompt ?? COMPACT_PROMPT,
        onRequest: record,
        now: o.now,
      });
    } catch (error) {
      if (signal.aborted) summary = "";
      else {
        o.commit(spent);
        const message = error instanceof Error ? error.message : String(error);
        o.send({ type: "compaction", compactionId, status: "failed", error: message });
        throw error;
      }
    }
    if (signal.aborted) {
      o.commit(spent);
      o.send({ type: "compaction", compactionId, status: "cancelled" });
      return { status: "cancelled" };
    }
    const event = {
      type: "compaction" as const,
      id: compactionId,
      reason,
      summary,
      replaced: history.length,
    };
    // The editor's context meter should drop to what the next request will hold, not show the
    // summary request's own (pre-compaction) size.
    const last = spent.at(-1);
    if (last) last.contextUsed = estimateRequestTokens(o.render(view([...history, event])));
    o.commit([...spent, event]);
    return { status: "done", event };
  };

  /** Automatic: a failed summary is a warning and the request goes out as it is. */
  const auto = async (reason: CompactionReason, signal: AbortSignal): Promise<boolean> => {
    try {
      return (await compact(reason, signal)).status === "done";
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      o.commit([{ type: "notice", severity: "warning", text: `Automatic compaction failed: ${message}` }]);
      return false;
    }
  };

  return {
    window: o.window,
    view,
    /** `/compact`: the line the user is shown. */
    async manual(signal: AbortSignal): Promise<string> {
      const outcome = await compact("manual", signal);
      if (outcome.status === "nothing") return "Nothing to compact yet.";
      if (outcome.status !== "done") return "Compaction cancelled.";
      return `Compacted ${outcome.event.replaced} events into a ${outcome.event.summary.length}-character summary.`;
    },
    /** Before a model request: compacts when the request would pass the harness's threshold. */
    async beforeRequest(signal: AbortSignal): Promise<void> {
      const history = o.history();
      const limit = compactionLimit({ rule: o.rule, window: o.window, configured: o.tokenLimit });
      if (estimateTokens(history, () => o.render(view(history))) < limit) return;
      await auto("threshold", signal);
    },
    /** After a request was cut by `max_tokens` or refused as too long: true when it compacted. */
    afterOverflow(reason: "max_tokens" | "context_length", signal: AbortSignal): Promise<boolean> {
      return auto(reason, signal);
    },
  };
}

export type Compactor = ReturnType<typeof createCompactor>;

/** The compactor for a session's current harness and model (the window follows `/model`). */
export function sessionCompactor(o: {
  harness: Harness;
  model: string;
  /** The model's window in tokens (`SessionEndpoint.window`). */
  window: number;
  deps: Pick<SessionDeps, "endpoint" | "clock" | "economy">;
  render(history: HistoryEvent[]): ModelRequest;
  history(): HistoryEvent[];
  commit(events: HistoryEvent[]): void;
  send(output: SessionOutput): void;
}): Compactor {
  return createCompactor({
    rule: o.harness.compaction,
    window: o.window,
    tokenLimit: o.deps.endpoint.autoCompactTokenLimit,
    render: o.render,
    provider: o.deps.endpoint.provider(o.model),
    history: o.history,
    commit: o.commit,
    send: o.send,
    newId: o.deps.clock.newId,
    // The ledger fields do not depend on the tool list; the economizer built with them is unused.
    ledger: o.deps.economy({ harness: o.harness, own: [], model: o.model, history: o.history }).ledger,
  });
}

/** The turn running now (its `turn_started` has no `turn_ended` yet); none for `/compact`. */
function runningTurn(history: HistoryEvent[]): string | undefined {
  const last = history.findLast((e) => e.type === "turn_started" || e.type === "turn_ended");
  return last?.type === "turn_started" ? last.turnId : undefined;
}

/**
 * One model request with compaction around it: compact first when over the threshold; when
 * the answer is cut by `max_tokens` (with or without a half-written tool call) or the
 * endpoint refuses the request as too long, compact and send it once more. At most one
 * retry: a second refusal ends the turn with a clear error instead of looping.
 */
export async function sampleWithCompaction<T extends { finish: string }>(options: {
  compactor?: Compactor;
  signal: AbortSignal;
  sample(): Promise<T>;
}): Promise<T> {
  const { compactor, signal, sample } = options;
  if (!compactor) return sample();
  await compactor.beforeRequest(signal);
  try {
    const first = await sample();
    if (first.finish !== "length" || signal.aborted) return first;
    if (!(await compactor.afterOverflow("max_tokens", signal))) return first;
  } catch (error) {
    if (!isContextLength(error) || signal.aborted) throw error;
    if (!(await compactor.afterOverflow("context_length", signal))) throw error;
  }
  try {
    return await sample();
  } catch (error) {
    if (!isContextLength(error)) throw error;
    throw new TurnError(
      `The conversation is still too long for the model's context window after compacting it (${(error as Error).message}). Start a new session, or set a smaller \`model_context_window\` so compaction starts earlier.`,
      "context_length",
    );
  }
}

function isContextLength(error: unknown): boolean {
  return error instanceof TurnError && error.code === "context_length";
}
