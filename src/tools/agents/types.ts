/**
 * The session's subagents, as a tool sees them: one call starts a child session in the same
 * store (its own history, the parent's mode, sandbox and roots, the same harness opened for the
 * subagent type) and waits for its answer. Each harness's tool renders the request and the
 * outcome with its original's names and texts.
 */
export interface SubagentPort {
  /**
   * Runs one subagent to the end of its turn. Never rejects: limits, failures and a cancel are
   * outcomes. `signal` is the calling turn's: when it aborts the child's turn is cancelled and
   * its commands are killed before this resolves.
   */
  run(request: SubagentRequest, signal: AbortSignal): Promise<SubagentOutcome>;
  /** The subagents this session started so far, oldest first: what a resume may name. */
  children(): SubagentInfo[];
}

export interface SubagentInfo {
  /** The child session's id (each harness words its own agent id from it). */
  sessionId: string;
  type: string;
}

export interface SubagentRequest {
  /** The harness's name for the subagent profile (`general-purpose`, `coder`, ...), already checked by the tool. */
  type: string;
  /**
   * A child from `children()` to continue instead of starting a new one: `prompt` is its next
   * user message, and it keeps its type, history and title.
   */
  resume?: string;
  /** The short label the model gave the task (shown to the editor as the child's title). */
  description: string;
  /** The child's first user message. */
  prompt: string;
  /** The id of the call that starts it (the editor sees the child's progress on it). */
  callId: string;
  /** Live lines about what the child is doing, for the call's progress. */
  onActivity(text: string): void;
}

/** What one subagent run cost, as the originals' result footers count it. */
export interface SubagentUsage {
  /** The child's last model request: its input plus its output tokens (Claude Code's `total_tokens`). */
  totalTokens: number;
  /** Tool calls the child made. */
  toolUses: number;
  durationMs: number;
}

export type SubagentOutcome =
  | { status: "completed"; sessionId: string; text: string; usage: SubagentUsage }
  /** The child's turn was cancelled (the parent's turn was). */
  | { status: "cancelled"; sessionId: string; usage: SubagentUsage }
  /** The child's turn failed (the model endpoint, for one): `error` is the readable reason. */
  | { status: "failed"; sessionId: string; error: string; usage: SubagentUsage }
  /** Not started: `[agents] max_depth` or `max_threads` would be exceeded. */
  | { status: "refused"; limit: "depth" | "threads"; message: string };
