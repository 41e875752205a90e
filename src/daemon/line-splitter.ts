const NEWLINE = 10;

/**
 * Cuts a byte stream at line ends for the proxy, which passes whole lines on (so a daemon
 * dying mid-line never leaves half a message on the editor's side) and reads some of them.
 * A line longer than `maxHold` is passed on as it comes, unread: the daemon refuses it anyway.
 */
export class LineSplitter {
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** The start of the current line was passed on already (it outgrew `maxHold`). */
  private midLine = false;

  constructor(private readonly maxHold: number) {}

  /** What to pass on now, and the complete lines in it that can be read. */
  push(chunk: Buffer): { forward: Buffer | undefined; lines: Buffer[] } {
    const last = chunk.lastIndexOf(NEWLINE);
    if (last === -1) {
      if (this.midLine) return { forward: chunk, lines: [] };
      this.hold(chunk);
      if (this.heldBytes <= this.maxHold) return { forward: undefined, lines: [] };
      const forward = this.take();
      this.midLine = true;
      return { forward, lines: [] };
    }
    const head = chunk.subarray(0, last + 1);
    const forward = this.midLine ? head : Buffer.concat([...this.held, head]);
    const lines: Buffer[] = [];
    let start = 0;
    if (this.midLine) start = forward.indexOf(NEWLINE) + 1;
    while (start < forward.length) {
      const end = forward.indexOf(NEWLINE, start);
      if (end > start) lines.push(forward.subarray(start, end));
      start = end + 1;
    }
    this.held = [];
    this.heldBytes = 0;
    this.midLine = false;
    if (last + 1 < chunk.length) this.hold(chunk.subarray(last + 1));
    return { forward, lines };
  }

  /** Forgets a partial line (its stream ended); true when part of it was passed on already. */
  reset(): boolean {
    const was = this.midLine;
    this.held = [];
    this.heldBytes = 0;
    this.midLine = false;
    return was;
  }

  private hold(bytes: Buffer): void {
    this.held.push(bytes);
    this.heldBytes += bytes.length;
  }

  private take(): Buffer {
    const all = Buffer.concat(this.held);
    this.held = [];
    this.heldBytes = 0;
    return all;
  }
}
