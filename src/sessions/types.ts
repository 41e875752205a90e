import type { Mode } from "../config/types.js";
import type { DisplayContent, HistoryEvent, HistoryEventOf, Location, ToolKind } from "../store/events.js";
import type { ChoiceRequest, FormAnswer, FormField } from "../tools/ask/types.js";

/**
 * What a session tells the editor, in our own vocabulary; `src/acp` maps it onto ACP updates.
 * `event` outputs are committed history; the rest are live and never stored.
 */
export type SessionOutput =
  | { type: "event"; event: HistoryEvent }
  | { type: "tool_started"; callId: string }
  | { type: "tool_progress"; callId: string; text: string }
  /** Replay only: a tool call and its result, shown as one finished call. */
  | { type: "finished_call"; call: HistoryEventOf<"tool_call">; result: HistoryEventOf<"tool_result"> }
  /** Replay only: a turn that a crash or kill cut short, with its calls that never finished. */
  | { type: "interrupted"; turnId: string; openCallIds: string[] }
  | { type: "title"; title: string; updatedAt: string }
  /** Mode, model or harness changed: the editor needs the full option set again. */
  | { type: "options"; options: SessionOptions }
  | { type: "commands"; commands: SlashCommandInfo[] }
  /** A compaction that started, failed or was cancelled (a finished one is a `compaction` event). */
  | {
      type: "compaction";
      compactionId: string;
      status: "in_progress" | "failed" | "cancelled";
      error?: string;
    }
  /** A question the session itself asks (not a model tool call), shown as a tool call while open. */
  | { type: "question"; callId: string; title: string; status: "pending" | "completed" | "failed" };

export interface SessionOptions {
  mode: Mode;
  model: string;
  models: string[];
  harness: string;
  /** `pinned`: the original and version it is held to (`pinnedText`). */
  harnesses: Array<{ id: string; title: string; description: string; pinned: string }>;
}

export interface SlashCommandInfo {
  name: string;
  description: string;
  hint?: string;
}

export type PermissionAnswer = "allow_once" | "allow_always" | "reject_once" | "reject_always" | "cancelled";

export interface PermissionQuestion {
  callId: string;
  title: string;
  kind: ToolKind;
  locations: Location[];
  display: DisplayContent[];
  /** The raw arguments, shown by editors that render `rawInput`. */
  input: unknown;
  /** Says what "always" would remember, e.g. "Always allow `npm test` in this project". */
  alwaysLabel: string;
}

/** The editor, as a session sees it. Set by whichever connection opened the session last. */
export interface ClientPort {
  send(output: SessionOutput): void;
  /** Resolves `cancelled` when the signal aborts or the editor goes away. */
  askPermission(question: PermissionQuestion, signal: AbortSignal): Promise<PermissionAnswer>;
  /**
   * How the model's questions reach a person: `forms` (ACP elicitation), `choices` (permission
   * requests with the question's options), `none` (the client runs unattended). Read per question.
   */
  questions?(): "forms" | "choices" | "none";
  /** An elicitation form; resolves `cancel` when the signal aborts or the editor goes away. */
  elicit?(
    request: { callId: string; message: string; fields: FormField[] },
    signal: AbortSignal,
  ): Promise<FormAnswer>;
  /** A permission request with these options; the chosen option's id, or `cancelled`. */
  choose?(request: ChoiceRequest, signal: AbortSignal): Promise<string | "cancelled">;
  /**
   * The editor's view of a subagent's own session, announced as a child of this one; undefined
   * when the editor does not show subagent sessions (then only the calling tool shows its work).
   */
  subagent?(child: { sessionId: string; title: string; description: string }): SubagentClient | undefined;
}

/** A subagent's session as the editor sees it: its own updates, then the end of its work. */
export interface SubagentClient extends ClientPort {
  /** The child stopped working (`end_turn`, `cancelled`, or `error` with its message). */
  ended(
    stop: { reason: "end_turn" | "cancelled" | "max_turn_requests" } | { reason: "error"; message: string },
  ): void;
}

/** A session-level failure with a message fit for the editor (provider down, bad key, ...). */
export class TurnError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = "TurnError";
  }
}
