/**
 * Collects streamed text and reasoning deltas and hands them over in batches, so the store
 * commits a handful of parts per response instead of one row per token. The first delta of a
 * burst waits at most `intervalMs`; a flush also happens on demand (end of stream, tool call).
 */
export class ChunkBatcher {
  private text = "";
  private reasoning = "";
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly onFlush: (part: { text: string; reasoning: string }) => void,
    private readonly intervalMs = 40,
  ) {}

  add(kind: "text" | "reasoning", delta: string): void {
    if (!delta) return;
    // Keep the order the model produced: reasoning that follows text starts a new part.
    if (kind === "reasoning" && this.text) this.flush();
    if (kind === "text") this.text += delta;
    else this.reasoning += delta;
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.text && !this.reasoning) return;
    const part = { text: this.text, reasoning: this.reasoning };
    this.text = "";
    this.reasoning = "";
    this.onFlush(part);
  }
}
