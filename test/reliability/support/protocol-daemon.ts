import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createAcpValidator } from "../../support/acp-schema.js";
import { TEST_CEILING } from "../../support/ceiling.js";
import { BIN } from "../../support/spawn-agent.js";

// biome-ignore lint/suspicious/noExplicitAny: lines from the daemon are whatever it wrote
export type Message = Record<string, any>;

export interface RawDaemon {
  child: ChildProcessWithoutNullStreams;
  /** Every message the daemon wrote, parsed, in order (empty with `keepMessages: false`). */
  messages: Message[];
  /** stdout lines that were not JSON, not JSON-RPC 2.0, or failed the SDK schema. */
  violations: string[];
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Writes bytes as they are (no newline added); resolves once the pipe took them. */
  write(data: string | Uint8Array): Promise<void>;
  /** Writes one line; a request's id is remembered so its answer can be schema-checked. */
  send(message: string | object): Promise<void>;
  /** Notes a line written with `write` so the answer to it can be schema-checked. */
  remember(line: string): void;
  /** Notes that a request `method` went out with `id` (for schema-checking its answer). */
  note(id: unknown, method: string): void;
  /** Sends a request with a fresh id and resolves with its answer (result or error). */
  request(method: string, params?: unknown): Promise<Message>;
  /** How many answers (responses) arrived per `idKey` of their id. */
  answerCounts: ReadonlyMap<string, number>;
  /** How many responses arrived in all. */
  responseCount(): number;
  /** Resolves with the answers to `id` once `count` arrived; rejects after `timeoutMs`. */
  answers(id: unknown, count?: number, timeoutMs?: number): Promise<Message[]>;
  /** Resolves when `predicate` holds for the messages so far (checked on each new one). */
  until(predicate: () => boolean, timeoutMs?: number, what?: string): Promise<void>;
}

/** Key for an id as it appears on the wire (`1` and `"1"` are different ids). */
export const idKey = (id: unknown): string => JSON.stringify(id ?? null);

/**
 * `bin/interpreter.js acp` driven with raw lines (no SDK client in between, so the test can
 * send what no client would). Every stdout line is parsed and checked against the SDK schema.
 */
export function spawnRawDaemon(options: {
  home: string;
  env?: Record<string, string>;
  /** false: count answers instead of keeping them (a million-line fuzz run); `request` still works. */
  keepMessages?: boolean;
}): RawDaemon {
  const keep = options.keepMessages ?? true;
  const child = spawn(process.execPath, [BIN, "acp", "--in-process"], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: options.home,
      INTERPRETER_HOME: options.home,
      ...TEST_CEILING,
      ...options.env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    // Keep the head and the tail: a fuzz run may print a lot.
    stderr = stderr.length < 200_000 ? stderr + chunk : stderr.slice(0, 100_000) + chunk.slice(-100_000);
  });
  // Writes to a daemon that already exited fail with EPIPE; the test sees that through `exited`.
  child.stdin.on("error", () => {});
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const validator = createAcpValidator();
  // Methods sent per id: an id reused for another method (or null) may answer either of them.
  const sent = new Map<string, Set<string>>();
  const note = (id: unknown, method: string) => {
    const key = idKey(id);
    const methods = sent.get(key) ?? new Set();
    methods.add(method);
    sent.set(key, methods);
  };
  const messages: Message[] = [];
  const violations: string[] = [];
  const byId = new Map<string, Message[]>();
  const counts = new Map<string, number>();
  let responses = 0;
  const waiters = new Set<() => void>();
  let pending: Buffer = Buffer.alloc(0);
  child.stdout.on("data", (chunk: Buffer) => {
    pending = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    let start = 0;
    for (let nl = pending.indexOf(10, start); nl >= 0; nl = pending.indexOf(10, start)) {
      take(pending.toString("utf8", start, nl));
      start = nl + 1;
    }
    pending = pending.subarray(start);
    for (const wake of [...waiters]) wake();
  });

  function take(line: string) {
    let message: Message;
    try {
      message = JSON.parse(line) as Message;
    } catch {
      violations.push(`not JSON: ${line.slice(0, 200)}`);
      return;
    }
    if (keep) messages.push(message);
    const candidates = "result" in message ? [...(sent.get(idKey(message.id)) ?? [])] : [""];
    const problems: string[] = [];
    for (const method of candidates) {
      try {
        validator.check(message, new Map([[message.id, method]]));
        break;
      } catch (error) {
        problems.push((error as Error).message.slice(0, 1000));
      }
    }
    if (problems.length === candidates.length) {
      violations.push(problems[0] ?? `a result for an id never sent: ${line.slice(0, 200)}`);
    }
    if ("id" in message && !("method" in message)) {
      responses++;
      const key = idKey(message.id);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (keep || key.startsWith('"req-')) byId.set(key, [...(byId.get(key) ?? []), message]);
    }
  }

  const until = (predicate: () => boolean, timeoutMs = 20_000, what = "condition") =>
    new Promise<void>((resolve, reject) => {
      if (predicate()) return resolve();
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const check = () => {
        if (!predicate()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      void exited.then(() => setTimeout(check, 50));
    });

  const write = (data: string | Uint8Array) =>
    new Promise<void>((resolve) => {
      if (child.stdin.destroyed || child.stdin.writableEnded) return resolve();
      if (child.stdin.write(data)) return resolve();
      // A daemon that died never drains: stop waiting when the pipe closes.
      const done = () => {
        child.stdin.off("drain", done);
        child.stdin.off("close", done);
        resolve();
      };
      child.stdin.once("drain", done);
      child.stdin.once("close", done);
    });
  const send = (message: string | object) => {
    const line = typeof message === "string" ? message : JSON.stringify(message);
    remember(line);
    return write(`${line}\n`);
  };
  const remember = (line: string) => {
    try {
      const parsed = JSON.parse(line) as Message;
      if (typeof parsed?.method === "string" && parsed.id !== undefined) note(parsed.id, parsed.method);
    } catch {
      // Not JSON: nothing to remember.
    }
  };
  let nextId = 1;
  const answers = async (id: unknown, count = 1, timeoutMs = 20_000) => {
    const key = idKey(id);
    await until(() => (counts.get(key) ?? 0) >= count, timeoutMs, `${count} answer(s) to id ${key}`);
    return byId.get(key) ?? [];
  };
  return {
    child,
    messages,
    violations,
    stderr: () => stderr,
    exited,
    write,
    send,
    async request(method, params) {
      const id = `req-${nextId++}`;
      await send({ jsonrpc: "2.0", id, method, params });
      return (await answers(id))[0]!;
    },
    answers,
    answerCounts: counts,
    responseCount: () => responses,
    until,
    remember,
    note,
  };
}

export const INIT_PARAMS = {
  protocolVersion: 1,
  clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
  clientInfo: { name: "protocol-test", version: "1.0.0" },
};
