import { ReadTracker } from "../../tools/fs/read-tracker.js";
import type { FsPort } from "../../tools/types.js";

/**
 * Qwen Code's per-session file-read cache, as far as the model notices it
 * (QwenLM/qwen-code `packages/core/src/tools/priorReadEnforcement.ts`, `read-file.ts`):
 * `edit` and `write_file` refuse an existing file that was not fully read in this session or
 * changed since, and reading a fully read, unchanged file again returns a short placeholder.
 * Only full reads (no offset/limit, not truncated) count; our own writes count as reads.
 */
export class ReadLedger {
  private readonly tracker = new ReadTracker();
  /** Files whose latest full content the model got from read_file (not from its own write). */
  private readonly served = new Set<string>();

  recordFullRead(file: string, mtimeMs: number): void {
    this.tracker.recordRead(file, mtimeMs);
    this.served.add(file);
  }

  async recordWrite(fs: FsPort, file: string): Promise<void> {
    this.served.delete(file);
    const mtimeMs = await fs.stat(file).then(
      (s) => s?.mtimeMs,
      () => undefined,
    );
    if (mtimeMs !== undefined) this.tracker.recordWrite(file, mtimeMs);
  }

  /** The file counts as unread again (a notebook edit that moved cells without stable ids). */
  forget(file: string): void {
    this.served.delete(file);
    this.tracker.forget(file);
  }

  /** True when a full read would return what the model was already shown. */
  unchanged(file: string, mtimeMs: number): boolean {
    return this.served.has(file) && this.tracker.check(file, mtimeMs) === "ok";
  }

  /** Whether `file` was fully read (or written) in this session, as it is now. */
  state(file: string, mtimeMs: number): "ok" | "not_read" | "changed" {
    return this.tracker.check(file, mtimeMs);
  }

  /** Qwen's refusal text when `file` may not be changed yet, else undefined. */
  priorReadError(file: string, mtimeMs: number, verb: "editing" | "overwriting"): string | undefined {
    const state = this.tracker.check(file, mtimeMs);
    if (state === "ok") return undefined;
    if (state === "changed") {
      return `File ${file} has been modified since you last read it (mtime or size changed). Re-read it with the read_file tool before ${verb} it to ensure your changes are based on current content.`;
    }
    return `File ${file} has not been fully read in this session. Use the read_file tool first (without offset / limit / pages) to load the entire current text content before ${verb} it.`;
  }
}
