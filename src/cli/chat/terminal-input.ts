export type LineResult =
  | { type: "line"; text: string }
  /** Ctrl-C at the prompt; `hadText` when it only discarded a half-typed prompt. */
  | { type: "interrupt"; hadText: boolean }
  | { type: "eof" };

export type KeyResult = { type: "key"; key: string } | { type: "interrupt" } | { type: "aborted" };

export interface PickItem {
  value: string;
  label: string;
  description?: string;
}

export type PickResult =
  | { type: "picked"; index: number }
  /** One of the `extraKeys`. */
  | { type: "key"; key: string }
  /** Esc or Ctrl-C. */
  | { type: "cancel" };

export interface PickOptions {
  title: string;
  items: PickItem[];
  /** The row selected at first (the current value). */
  selected?: number;
  /** Digits 1-9 take their row (the first-run lists); otherwise typing filters the rows. */
  numbered?: boolean;
  /** Keys that end the list without a pick, with their hint (e.g. `r` → "look again"). */
  extraKeys?: Record<string, string>;
}

/** How the chat reads the user: prompts, single keys for questions, picks from lists. */
export interface TerminalInput {
  /** Pickers with arrows and filtering (a terminal); a pipe answers the typed commands instead. */
  readonly interactive: boolean;
  readLine(prompt: string): Promise<LineResult>;
  /**
   * One of `keys` (exact, so `n` and `N` differ); a key may also be a key's name longer than one
   * character (`up`, `down`, `return`). Ctrl-C and Esc answer `interrupt`.
   */
  readKey(keys: string[], signal: AbortSignal): Promise<KeyResult>;
  pick(options: PickOptions): Promise<PickResult>;
  /** While a turn runs: Ctrl-C calls `onInterrupt` (Esc too, as `soft`). Returns the stop function. */
  watchInterrupts(onInterrupt: (soft: boolean) => void): () => void;
  /** Writes output that arrives while the prompt may be showing. */
  above(write: () => void): void;
  close(): void;
}
