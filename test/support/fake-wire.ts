import type { ChatBody, ReplyStep } from "./fake-model.js";

/** How strict a wire's validation is. */
export interface FakeWireOptions {
  /** OpenAI itself: vendor fields (`enable_thinking`, `reasoning_content` in history) are errors. */
  strictOpenAI?: boolean;
}

/**
 * One model API the fake model speaks. `startFakeModel` answers each wire's POST route with the
 * same scripted steps, so one script drives a test on every wire.
 */
export interface FakeWire {
  wire: "chat" | "responses" | "messages";
  /** The POST route, e.g. `/v1/chat/completions`. */
  path: string;
  /**
   * What is wrong with the request for this wire's API, strictly: an unknown or misplaced field,
   * a wrong type, a broken adjacency rule. Each problem fails the test at `assertDone()`.
   */
  validate(body: ChatBody, options?: FakeWireOptions): string[];
  /** The server-sent events of a successful reply step, in order (`event` only where the wire names them). */
  events(step: ReplyStep, body: ChatBody, nextId: () => string): Array<{ event?: string; data: string }>;
}
