import type { ContentBlock, HistoryEventOf } from "../store/events.js";

type UserMessage = HistoryEventOf<"user_message">;

/**
 * Prompts that join the running turn instead of waiting behind it (steering). A steer enters
 * the history as a user message of the turn right before the turn's next model request; a turn
 * about to end with a steer waiting makes one more request instead. Once the turn has decided to
 * end, steering is closed and `offer` says no, so the caller can start a turn of its own: a steer
 * is never taken and then dropped.
 */
export class Steering {
  private turnId: string | undefined;
  private waiting: ContentBlock[][] = [];

  /** The turn `turnId` starts taking steers. */
  open(turnId: string): void {
    this.turnId = turnId;
    this.waiting = [];
  }

  /** Takes `content` into the running turn; false when no turn can take it now. */
  offer(content: ContentBlock[]): boolean {
    if (this.turnId === undefined) return false;
    this.waiting.push(content);
    return true;
  }

  /** The steers that arrived since the last request, as the turn's user messages, to commit now. */
  take(): UserMessage[] {
    const turnId = this.turnId;
    if (turnId === undefined) return [];
    const events = this.waiting.map((content): UserMessage => ({ type: "user_message", turnId, content }));
    this.waiting = [];
    return events;
  }

  /** Asked when the turn would end: true when a steer waits (one more request); else steering closes. */
  keepGoing(): boolean {
    if (this.waiting.length > 0) return true;
    this.turnId = undefined;
    return false;
  }

  /** The turn ends however it ends: steers it never reached are recorded with it all the same. */
  close(): UserMessage[] {
    const left = this.take();
    this.turnId = undefined;
    return left;
  }
}
