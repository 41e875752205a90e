import type {
  SessionConfigOption,
  SessionUpdate,
  StopReason,
  ToolCallContent,
} from "../../acp/local-client.js";
import type { Style } from "./style.js";
import { diffLines, oneLine } from "./tool-view.js";

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

/** A warning or error of the agent's own, as the line of its own both views give it. */
export function noticeLine(style: Style, severity: "warning" | "error", text: string): string {
  return `${severity === "error" ? style.red("✗") : style.yellow("!")} ${text}`;
}

/** Before a permission question: its title and the call's diffs (so the user sees what they approve). */
export function permissionLines(
  title: string,
  content: ToolCallContent[],
  view: { style: Style; width: number; cwd?: string | undefined },
): { lines: string[]; diffShown: boolean } {
  const diffs = diffLines(content, view);
  return { lines: [`${view.style.yellow("?")} ${oneLine(title)}`, ...diffs], diffShown: diffs.length > 0 };
}

/**
 * The end of a turn's answer and notices as both views keep it: a failure the agent already
 * told in its answer is not shown again.
 */
export class SaidTail {
  private text = "";

  add(text: string): void {
    this.text = (this.text + text).slice(-4000);
  }

  told(message: string): boolean {
    return this.text.includes(message);
  }

  reset(): void {
    this.text = "";
  }
}
