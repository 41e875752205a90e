import { createHash } from "node:crypto";
import path from "node:path";

/** One ZCode todo as its TodoWrite takes it and its TodoRead returns it. */
export interface ZCodeTodo {
  content: string;
  status: string;
  priority: string;
}

/**
 * What a ZCode session remembers between calls, owned by what `open` returns: the hash of each
 * file as the model last saw it (a Read of the whole file, or its own Write or Edit), for the
 * "Wasted call" answer and Read-before-Edit, and the todo list (set from the history before each
 * request, so a restart or a harness switch finds the list the model last wrote).
 */
export class ZCodeState {
  readonly #seen = new Map<string, string>();
  /** Files read or written by calls in the history, before this state was opened (a restart, a switch). */
  readonly #earlier = new Set<string>();
  todos: ZCodeTodo[] = [];

  saw(file: string, content: string): void {
    this.#seen.set(path.resolve(file), hash(content));
  }

  /** As upstream reads its history: a file an earlier Read, Write or Edit succeeded on is known. */
  sawEarlier(file: string): void {
    this.#earlier.add(path.resolve(file));
  }

  /** Whether the model has this file's state at all (read or written in this session). */
  known(file: string): boolean {
    const resolved = path.resolve(file);
    return this.#seen.has(resolved) || this.#earlier.has(resolved);
  }

  /** Whether the model's last view of the file is its content now. */
  current(file: string, content: string): boolean {
    return this.#seen.get(path.resolve(file)) === hash(content);
  }
}

function hash(content: string): string {
  return createHash("sha256").update(content).digest("hex");
}
