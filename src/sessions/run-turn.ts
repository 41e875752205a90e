import type { Harness } from "../harnesses/types.js";
import type { Continuation, ModelRequest } from "../providers/model-request.js";
import { retryNotice } from "../providers/retry-notice.js";
import type { Provider, ProviderError, Usage } from "../providers/types.js";
import type { HistoryEvent, HistoryEventOf, StopReason } from "../store/events.js";
import type { Tool, ToolContext, ToolPreview, ToolResult } from "../tools/types.js";
import { type Compactor, sampleWithCompaction } from "./auto-compact.js";
import { ChunkBatcher } from "./chunk-batcher.js";
import { TurnError } from "./types.js";
import { type LedgerInfo, usageEvent } from "./usage-totals.js";

/** `rejected` carries the text the model gets back; `allow_unconfined` is an approved escalation. */
export type GateAnswer = "allow" | "allow_unconfined" | "cancelled" | { rejected: string };

export interface TurnOptions {
  turnId: string;
  /** The turn's one signal: aborts the model stream, permission requests and every tool. */
  signal: AbortSignal;
  maxSteps: number;
  newId(): string;
  /** How each request is built and sent. */
  model: {
    provider: Provider;
    render(history: HistoryEvent[]): ModelRequest;
    /** Text-protocol harnesses read tool calls out of the reply text themselves. */
    parse?: Harness["parse"];
    contextSize: number;
    /** Compacts before a request over the harness's threshold and after one that overflowed. */
    compactor?: Compactor;
    /** Model, provider, harness and prices recorded with each request's usage (the ledger). */
    ledger?: LedgerInfo;
    /** Clock for request latency in ms (default `Date.now`; tests inject one). */
    now?: () => number;
    /** Runs before each request is rendered (the session commits what happened meanwhile). */
    beforeRequest?: () => void;
    /** Asked when the model answered without calls: true when new input (a steer) waits for it. */
    keepGoing?: () => boolean;
  };
  /** What may run, how it is gated, and what it runs with. */
  tools: {
    list: Tool[];
    /** The harness the calls are made under (recorded with each call). */
    harnessId: string;
    /** Asks the permission gate; the gate may ask the editor. */
    gate(request: {
      call: HistoryEventOf<"tool_call">;
      tool: Tool;
      args: unknown;
      preview: ToolPreview;
    }): Promise<GateAnswer>;
    /** `unconfined`: this call's escalation out of the sandbox was approved. */
    context(callId: string, options?: { unconfined?: boolean }): ToolContext;
    /** Live-only status for the editor. */
    started(callId: string): void;
    /** Wraps the loop's own error texts (bad arguments, unknown tool, rejection) the harness's way. */
    toolError?: (text: string) => string;
    /** Caps, spills or deduplicates a tool's output before it enters the history. */
    economize?: (call: HistoryEventOf<"tool_call">, result: ToolResult) => Promise<ToolResult>;
  };
  /** The session's history: read it, and commit to it (the store first, then the editor). */
  history: { read(): HistoryEvent[]; commit(events: HistoryEvent[]): void };
}

/**
 * One prompt turn: sample, run the requested tools, sample again, until the model answers
 * without tool calls. Returns the stop reason; throws `TurnError` when the model endpoint
 * fails, after everything received so far has been committed.
 */
export async function runTurn(o: TurnOptions): Promise<StopReason> {
  for (let step = 1; step <= o.maxSteps; step++) {
    const response = await sampleWithCompaction({
      compactor: o.model.compactor,
      signal: o.signal,
      sample: () => sample(o, step),
    });
    if (o.signal.aborted) return "cancelled";
    if (response.formatError) {
      o.history.commit([{ type: "format_error", turnId: o.turnId, step, text: response.formatError }]);
      continue;
    }
    if (response.calls.length === 0) {
      if (response.finish === "stop" && o.model.keepGoing?.()) continue;
      if (response.finish === "length") return "max_tokens";
      if (response.finish === "content_filter") return "refusal";
      return "end_turn";
    }
    const outcome = await runCalls(o, step, response.calls);
    if (outcome === "cancelled") return "cancelled";
  }
  return "max_turn_requests";
}

interface Sampled {
  calls: Array<{ id: string; name: string; arguments: string }>;
  finish: string;
  formatError?: string;
}

async function sample(o: TurnOptions, step: number): Promise<Sampled> {
  const batcher = new ChunkBatcher((part) =>
    o.history.commit([{ type: "assistant_message", turnId: o.turnId, step, ...part }]),
  );
  const result: Sampled = { calls: [], finish: "stop" };
  let usage: Usage | undefined;
  let failure: ProviderError | undefined;
  let text = "";
  let outputChars = 0;
  const continuation: Continuation[] = [];
  const now = o.model.now ?? Date.now;
  o.model.beforeRequest?.();
  const request = o.model.render(o.history.read());
  const started = now();
  for await (const event of o.model.provider.stream(request, { signal: o.signal })) {
    if (event.type === "text") text += event.text;
    if (event.type === "text" || event.type === "reasoning") {
      batcher.add(event.type, event.text);
      outputChars += event.text.length;
    } else if (event.type === "tool_calls") {
      result.calls = event.calls;
      for (const call of event.calls) outputChars += call.name.length + call.arguments.length;
    } else if (event.type === "continuation") continuation.push(...event.continuation);
    else if (event.type === "usage") usage = event.usage;
    else if (event.type === "done") result.finish = event.finishReason;
    else if (event.type === "error") failure = event.error;
    else if (event.type === "retry")
      o.history.commit([{ type: "notice", severity: "warning", text: retryNotice(event) }]);
  }
  batcher.flush();
  // Stored with the response it continues, so a later request on the same wire sends it back.
  if (continuation.length > 0 && !failure) {
    o.history.commit([
      { type: "assistant_message", turnId: o.turnId, step, text: "", reasoning: "", continuation },
    ]);
  }
  const spent = usageEvent({
    turnId: o.turnId,
    usage,
    request,
    outputChars,
    completed: !failure && result.finish !== "cancelled",
    latencyMs: now() - started,
    contextSize: o.model.contextSize,
    ledger: o.model.ledger,
    history: o.history.read(),
  });
  if (spent) o.history.commit([spent]);
  if (failure) throw new TurnError(failure.message, failure.code);
  if (o.model.parse && !o.signal.aborted) {
    const parsed = o.model.parse(text, { step, newId: o.newId, history: o.history.read() });
    return {
      ...result,
      calls: parsed.calls,
      formatError: parsed.calls.length === 0 ? parsed.formatError : undefined,
    };
  }
  return result;
}

async function runCalls(o: TurnOptions, step: number, calls: Sampled["calls"]): Promise<"ok" | "cancelled"> {
  const prepared = await Promise.all(calls.map((call) => prepare(o, step, call)));
  o.history.commit(prepared.map((p) => p.event));
  for (const [index, p] of prepared.entries()) {
    if (o.signal.aborted) {
      cancelRest(o, prepared.slice(index));
      return "cancelled";
    }
    if (p.problem !== undefined || !p.tool) {
      o.history.commit([
        result(o, p.event.callId, "failed", { output: wrapError(o, p.problem ?? "unknown tool") }),
      ]);
      continue;
    }
    const answer = await o.tools.gate({ call: p.event, tool: p.tool, args: p.args, preview: p.preview });
    if (answer === "cancelled" || o.signal.aborted) {
      cancelRest(o, prepared.slice(index));
      return "cancelled";
    }
    if (answer !== "allow" && answer !== "allow_unconfined") {
      o.history.commit([result(o, p.event.callId, "rejected", { output: wrapError(o, answer.rejected) })]);
      continue;
    }
    o.tools.started(p.event.callId);
    const raw = await execute(
      p.tool,
      p.args,
      o.tools.context(p.event.callId, { unconfined: answer === "allow_unconfined" }),
    );
    const outcome = o.tools.economize ? await o.tools.economize(p.event, raw) : raw;
    if (o.signal.aborted) {
      o.history.commit([
        result(o, p.event.callId, "cancelled", {
          ...outcome,
          output: `${outcome.output}\n\naborted by user`,
        }),
      ]);
      cancelRest(o, prepared.slice(index + 1));
      return "cancelled";
    }
    o.history.commit([result(o, p.event.callId, outcome.isError ? "failed" : "completed", outcome)]);
    if (outcome.plan) o.history.commit([{ type: "plan", turnId: o.turnId, entries: outcome.plan }]);
  }
  return "ok";
}

interface Prepared {
  event: HistoryEventOf<"tool_call">;
  tool?: Tool;
  args?: unknown;
  preview: ToolPreview;
  /** Set when the call cannot run: the text the model gets back instead. */
  problem?: string;
}

async function prepare(o: TurnOptions, step: number, call: Sampled["calls"][number]): Promise<Prepared> {
  const tool = o.tools.list.find((t) => t.name === call.name);
  const base = { type: "tool_call" as const, turnId: o.turnId, step, callId: call.id, name: call.name };
  const event = (preview: ToolPreview, t?: Tool): HistoryEventOf<"tool_call"> => ({
    ...base,
    harness: o.tools.harnessId,
    capability: t?.capability ?? "other",
    arguments: call.arguments,
    title: preview.title,
    kind: t?.kind ?? "other",
    locations: preview.locations ?? [],
    display: preview.display ?? [],
  });
  if (!tool) {
    const names = o.tools.list.map((t) => t.name).join(", ");
    const preview = { title: call.name };
    return {
      event: event(preview),
      preview,
      problem: `unsupported call: ${call.name} (available tools: ${names})`,
    };
  }
  const parsed = parseArguments(call.arguments);
  const checked = parsed.ok ? tool.schema.safeParse(parsed.value) : undefined;
  if (!parsed.ok || !checked?.success) {
    const why = parsed.ok
      ? (checked?.error?.issues.map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`).join("; ") ??
        "")
      : parsed.error;
    const preview = { title: tool.name };
    return {
      event: event(preview, tool),
      tool,
      preview,
      problem: `failed to parse function arguments for ${tool.name}: ${why}. Call it again with valid JSON matching its schema.`,
    };
  }
  const preview = await tool
    .preview(checked.data, o.tools.context(call.id))
    .catch(() => ({ title: tool.name }));
  return { event: event(preview, tool), tool, args: checked.data, preview };
}

function parseArguments(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (text.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

async function execute(tool: Tool, args: unknown, ctx: ToolContext): Promise<ToolResult> {
  try {
    return await tool.execute(args, ctx);
  } catch (error) {
    return {
      output: `tool failed: ${error instanceof Error ? error.message : String(error)}`,
      isError: true,
    };
  }
}

function result(
  o: TurnOptions,
  callId: string,
  status: HistoryEventOf<"tool_result">["status"],
  outcome: Pick<ToolResult, "output" | "display" | "parts">,
): HistoryEvent {
  return {
    type: "tool_result",
    turnId: o.turnId,
    callId,
    status,
    output: outcome.output,
    display: outcome.display ?? [],
    ...(outcome.parts ? { parts: outcome.parts } : {}),
  };
}

function cancelRest(o: TurnOptions, rest: Prepared[]): void {
  if (rest.length === 0) return;
  o.history.commit(rest.map((p) => result(o, p.event.callId, "cancelled", { output: "aborted by user" })));
}

function wrapError(o: TurnOptions, text: string): string {
  return o.tools.toolError ? o.tools.toolError(text) : text;
}
