import type { ModelRequest } from "../providers/model-request.js";
import type { Provider, ProviderError, Usage } from "../providers/types.js";
import type { HistoryEvent } from "../store/events.js";
import type { ModelPort, SideRequest } from "../tools/types.js";
import { type LedgerInfo, usageEvent } from "./usage-totals.js";

/**
 * The model port of one turn's tools: a side request (one system text, one user text, no tools)
 * to `model` on the session's endpoint, under the turn's signal, committed to the ledger as a
 * `usage` row with `purpose: "tool"` (failed requests that produced output included).
 */
export function sideModel(o: {
  provider(model: string): Provider;
  /** `[web] small_model`, else the session's model. */
  model: string;
  turnId: string;
  ledger(model: string): LedgerInfo;
  contextSize: number;
  history(): HistoryEvent[];
  commit(events: HistoryEvent[]): void;
  now?: () => number;
}): ModelPort {
  const now = o.now ?? Date.now;
  return {
    async ask(side: SideRequest, signal: AbortSignal) {
      const request = sideRequest(side);
      const started = now();
      let text = "";
      let outputChars = 0;
      let usage: Usage | undefined;
      let failure: ProviderError | undefined;
      let finish = "stop";
      for await (const event of o.provider(o.model).stream(request, { signal })) {
        if (event.type === "text") text += event.text;
        if (event.type === "text" || event.type === "reasoning") outputChars += event.text.length;
        else if (event.type === "usage") usage = event.usage;
        else if (event.type === "done") finish = event.finishReason;
        else if (event.type === "error") failure = event.error;
      }
      const spent = usageEvent({
        turnId: o.turnId,
        usage,
        request,
        outputChars,
        completed: !failure && finish !== "cancelled",
        latencyMs: now() - started,
        contextSize: o.contextSize,
        ledger: o.ledger(o.model),
        history: o.history(),
        purpose: "tool",
      });
      if (spent) o.commit([spent]);
      if (failure) return { error: failure.message };
      if (signal.aborted || finish === "cancelled") return { error: "aborted" };
      return { text };
    },
  };
}

function sideRequest(side: SideRequest): ModelRequest {
  return {
    system: side.system ? [{ type: "text", text: side.system }] : [],
    messages: [{ role: "user", content: [{ type: "text", text: side.prompt }] }],
    tools: [],
    knobs: {
      ...(side.maxTokens !== undefined ? { maxTokens: side.maxTokens } : {}),
      ...(side.temperature !== undefined ? { temperature: side.temperature } : {}),
      ...(side.topP !== undefined ? { topP: side.topP } : {}),
    },
  };
}
