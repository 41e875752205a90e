import { z } from "zod";

/**
 * The canonical, harness-neutral history of a session: an append-only list of these events.
 * Every event is committed to SQLite before the editor hears of it. Harnesses render the list
 * into their own request layout; `session/load` replays it as ACP updates.
 */

/** ACP content blocks are stored as the editor sent them (validated by the SDK on receipt). */
export const ContentBlock = z.looseObject({ type: z.string() });
export type ContentBlock = z.infer<typeof ContentBlock>;

export const ToolKind = z.enum([
  "read",
  "edit",
  "delete",
  "move",
  "search",
  "execute",
  "think",
  "fetch",
  "switch_mode",
  "other",
]);
export type ToolKind = z.infer<typeof ToolKind>;

/** What a tool result shows in the editor (mapped 1:1 onto ACP tool-call content). */
export const DisplayContent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({
    type: z.literal("diff"),
    path: z.string(),
    oldText: z.string().nullable(),
    newText: z.string(),
  }),
]);
export type DisplayContent = z.infer<typeof DisplayContent>;

/**
 * What a tool gave the model when it was more than text (an image read, an MCP image): text and
 * images in the order the model saw them. Images are stored as sent, already downscaled by the
 * tool or the session, so a row stays bounded.
 */
export const ResultPart = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({
    type: z.literal("image"),
    mimeType: z.string(),
    /** Base64, no `data:` prefix. */
    data: z.string(),
    /** Responses `detail` the original asks for (Codex: `high`, or `original` where the model allows it). */
    detail: z.enum(["auto", "low", "high", "original"]).optional(),
  }),
]);
export type ResultPart = z.infer<typeof ResultPart>;

export const Location = z.object({ path: z.string(), line: z.number().int().optional() });
export type Location = z.infer<typeof Location>;

export const PlanEntry = z.object({
  content: z.string(),
  status: z.enum(["pending", "in_progress", "completed"]),
  priority: z.enum(["high", "medium", "low"]).default("medium"),
});
export type PlanEntry = z.infer<typeof PlanEntry>;

export const StopReason = z.enum(["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"]);
export type StopReason = z.infer<typeof StopReason>;

/** A provider's opaque reasoning data, as the wire that produced it sent it. */
export const Continuation = z.discriminatedUnion("wire", [
  z.object({ wire: z.literal("responses"), item: z.record(z.string(), z.unknown()) }),
  z.object({ wire: z.literal("messages"), block: z.record(z.string(), z.unknown()) }),
]);
export type Continuation = z.infer<typeof Continuation>;

/** Canonical capabilities let a harness render another harness's calls in its own terms. */
export const Capability = z.enum([
  "exec",
  "patch",
  "edit",
  "write",
  "read",
  "search",
  "list",
  "plan",
  "other",
]);
export type Capability = z.infer<typeof Capability>;

export const HistoryEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("turn_started"), turnId: z.string(), pid: z.number().int() }),
  z.object({
    type: z.literal("turn_ended"),
    turnId: z.string(),
    stopReason: StopReason.nullable(),
    /** Set when the turn failed (provider error, internal error); the text the editor was shown. */
    error: z.string().optional(),
  }),
  z.object({ type: z.literal("user_message"), turnId: z.string(), content: z.array(ContentBlock) }),
  /**
   * One part of an assistant message. Streaming deltas are batched into parts, so one model
   * response (one `step`) may be stored as several parts that concatenate in order.
   */
  z.object({
    type: z.literal("assistant_message"),
    turnId: z.string(),
    step: z.number().int(),
    text: z.string().default(""),
    reasoning: z.string().default(""),
    /**
     * What the wire needs to continue this response's reasoning (Responses `reasoning` items
     * with encrypted content, Anthropic thinking blocks with signatures), kept as it was sent.
     */
    continuation: z.array(Continuation).optional(),
  }),
  z.object({
    type: z.literal("tool_call"),
    turnId: z.string(),
    step: z.number().int(),
    callId: z.string(),
    /** The tool name as the harness that issued the call named it. */
    name: z.string(),
    harness: z.string(),
    capability: Capability,
    /** Raw JSON text of the arguments, exactly as the model sent them. */
    arguments: z.string(),
    title: z.string(),
    kind: ToolKind,
    locations: z.array(Location).default([]),
    /** Preview shown before the call runs (e.g. the diff an edit would make). */
    display: z.array(DisplayContent).default([]),
  }),
  z.object({
    type: z.literal("tool_result"),
    turnId: z.string(),
    callId: z.string(),
    status: z.enum(["completed", "failed", "rejected", "cancelled"]),
    /** What the model sees (already truncated by the harness policy); the text alone when `parts` is set. */
    output: z.string(),
    display: z.array(DisplayContent).default([]),
    /** Set when the model saw more than text: the whole result, images included, in order. */
    parts: z.array(ResultPart).optional(),
  }),
  z.object({ type: z.literal("plan"), turnId: z.string(), entries: z.array(PlanEntry) }),
  /** A text-protocol harness could not read the model's reply: the correction sent back to it. */
  z.object({ type: z.literal("format_error"), turnId: z.string(), step: z.number().int(), text: z.string() }),
  /**
   * The conversation up to here was summarized: harnesses render the summary (plus the recent
   * user messages) instead of the events before it, which stay in the store.
   */
  z.object({
    type: z.literal("compaction"),
    summary: z.string(),
    replaced: z.number().int(),
    /** The compaction's id for ACP compaction updates (absent on rows written before it existed). */
    id: z.string().optional(),
    /** What started it: `/compact`, the harness's threshold, or a request that overflowed. */
    reason: z.enum(["manual", "threshold", "max_tokens", "context_length"]).optional(),
  }),
  z.object({ type: z.literal("harness_changed"), harness: z.string(), reason: z.string().optional() }),
  z.object({ type: z.literal("model_changed"), model: z.string() }),
  /** `from`: the mode a switch into plan mode left, which approving the plan brings back. */
  z.object({ type: z.literal("mode_changed"), mode: z.string(), from: z.string().optional() }),
  z.object({
    type: z.literal("usage"),
    turnId: z.string(),
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
    cachedInputTokens: z.number().int().optional(),
    /** Of the input, written to the prompt cache (Anthropic `cache_creation_input_tokens`). */
    cacheWriteTokens: z.number().int().optional(),
    reasoningTokens: z.number().int().optional(),
    /** Tokens in the model's context after this response, and the window size. */
    contextUsed: z.number().int(),
    contextSize: z.number().int(),
    /** Ledger fields (absent on rows written before the ledger existed). */
    model: z.string().optional(),
    harness: z.string().optional(),
    provider: z.string().optional(),
    /** Milliseconds from sending the request to the end of its stream. */
    latencyMs: z.number().optional(),
    /** The endpoint sent no usage: tokens are estimated (request bytes / 4, output chars / 4). */
    estimated: z.boolean().optional(),
    /** This request's cost at the configured prices of the time, and the session's running total. */
    cost: z.number().optional(),
    sessionCost: z.number().optional(),
    currency: z.string().optional(),
    /**
     * Set when the request was not a turn step: `compaction` is a compaction's summary request,
     * `tool` a tool's request beside the turn (a fetch tool asking about a page).
     */
    purpose: z.enum(["compaction", "tool"]).optional(),
  }),
  /**
   * A command the model left running in the background ended. Harnesses whose original tells the
   * model so render it as that original's notification; the editor is shown one line.
   */
  z.object({
    type: z.literal("background_ended"),
    /** Its id as the harness that started it showed it to the model. */
    id: z.string(),
    /** The harness whose tool started it. */
    harness: z.string(),
    command: z.string(),
    description: z.string().optional(),
    cwd: z.string(),
    status: z.enum(["completed", "failed", "killed", "timed_out"]),
    /** Null when a signal ended it. */
    exitCode: z.number().int().nullable(),
    /** The signal that ended it, when one did. */
    signal: z.string().optional(),
    /** The process group it led. */
    pid: z.number().int().optional(),
    outputFile: z.string().optional(),
    outputBytes: z.number().int(),
    /** The end of its output (at most 8 KiB), for notifications that quote it. */
    outputTail: z.string().default(""),
    durationMs: z.number(),
  }),
  z.object({
    type: z.literal("notice"),
    severity: z.enum(["info", "warning", "error"]),
    text: z.string(),
    /** Set on a notice about this machine rather than the conversation (whether commands are confined). */
    topic: z.enum(["sandbox"]).optional(),
  }),
]);
export type HistoryEvent = z.infer<typeof HistoryEvent>;
export type HistoryEventOf<T extends HistoryEvent["type"]> = Extract<HistoryEvent, { type: T }>;

/** An event as read back from the store. */
export interface StoredEvent {
  seq: number;
  at: string;
  event: HistoryEvent;
}
