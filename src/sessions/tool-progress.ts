const KEEP = 16 * 1024;
const INTERVAL_MS = 100;

/**
 * Live command output for the editor: keeps the tail of what arrived and sends it at most
 * every 100 ms, so a flood of output costs a bounded number of notifications.
 */
export class ToolProgress {
  private buffer = "";
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly send: (text: string) => void) {}

  add(chunk: string): void {
    this.buffer = (this.buffer + chunk).slice(-KEEP);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.send(this.buffer);
    }, INTERVAL_MS);
  }
}
