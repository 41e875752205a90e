import path from "node:path";

/**
 * Remembers which files the model has read in one session, and each file's mtime at that read,
 * for Read-before-Edit and "file changed since read" checks. One instance per session; paths are
 * keyed by `path.resolve`, so `./a.ts` and `/cwd/a.ts` are the same file.
 */
export class ReadTracker {
  readonly #mtimes = new Map<string, number>();

  recordRead(file: string, mtimeMs: number): void {
    this.#mtimes.set(path.resolve(file), mtimeMs);
  }

  /** Our own writes keep the file "read": the model knows what it just wrote. */
  recordWrite(file: string, mtimeMs: number): void {
    this.#mtimes.set(path.resolve(file), mtimeMs);
  }

  /** `changed` when the file's mtime differs (either way) from the one last recorded. */
  check(file: string, currentMtimeMs: number): "ok" | "not_read" | "changed" {
    const recorded = this.#mtimes.get(path.resolve(file));
    if (recorded === undefined) return "not_read";
    return recorded === currentMtimeMs ? "ok" : "changed";
  }

  /** The file counts as never read. */
  forget(file: string): void {
    this.#mtimes.delete(path.resolve(file));
  }

  /** The mtime recorded at the last read or write, if any. */
  lastRead(file: string): number | undefined {
    return this.#mtimes.get(path.resolve(file));
  }
}
