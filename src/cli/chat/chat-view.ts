import type {
  SessionConfigOption,
  SessionUpdate,
  StopReason,
  ToolCallContent,
} from "../../acp/local-client.js";
import type { Style } from "./style.js";

/**
 * What the chat shows. Two kinds: the terminal screen (`TranscriptView`, on pi-tui) and the
 * plain transcript for pipes and files (`Renderer`).
 */
export interface ChatView {
  /** The session's folder: paths inside it are shown relative. */
  cwd: string | undefined;
  /** History being replayed by `session/load`: shown compactly. */
  replaying: boolean;
  turnStarted(): void;
  update(update: SessionUpdate): void;
  /** The session's model, harness and mode as the agent reports them (the status line). */
  configure(config: SessionConfigOption[]): void;
  /** Before a permission question: the call's diff (so the user sees what they approve). */
  permissionAsked(toolCallId: string, title: string, content: ToolCallContent[]): void;
  turnEnded(stopReason: StopReason): void;
  failed(message: string): void;
  /** A line of the chat's own (hints, errors of local commands). */
  info(text: string): void;
  /** Whole lines, already styled. */
  lines(lines: string[]): void;
  /** Forgets the session shown (another is about to be replayed); a pipe's lines stay. */
  clear(): void;
  /** Ends any half-written line (before a prompt takes the screen). */
  settle(): void;
}

/** What both views say when a turn ends other than by the model finishing its answer. */
export function stopNote(style: Style, stopReason: StopReason): string | undefined {
  const notes: Partial<Record<StopReason, string>> = {
    cancelled: "⏹ Cancelled.",
    max_tokens: "The answer was cut off: the model reached its token limit.",
    max_turn_requests: "Stopped: the turn reached its step limit.",
    refusal: "The model refused to continue.",
  };
  const note = notes[stopReason];
  return note === undefined ? undefined : style.yellow(note);
}
