import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { ProcessTree } from "../exec/process-tree.js";

export interface StdioProcessOptions {
  command: string;
  args: string[];
  /** The complete environment; nothing is inherited. */
  env: Record<string, string>;
  cwd: string;
  /** Each line the server writes to stderr (the daemon's stderr is never inherited). */
  onStderr(line: string): void;
  /** After stdin is closed, how long the server may take to exit before SIGTERM. Default 500 ms. */
  closeGraceMs?: number;
  /** Between SIGTERM and SIGKILL. Default 1000 ms. */
  killGraceMs?: number;
  /** How often the process tree is sampled, to follow processes that leave it. Default 5 s. */
  trackIntervalMs?: number;
}

const STDERR_TAIL = 2048;

/**
 * MCP over a child's stdin/stdout, like the SDK's `StdioClientTransport`, except that the
 * server leads its own process group and is followed as a `ProcessTree`: servers started
 * through `npx` or a shell leave grandchildren that the SDK's transport (which signals only
 * the direct child) would leak. `close()` ends stdin, gives the server `closeGraceMs` to exit,
 * then SIGTERMs and SIGKILLs whatever is left of the tree. When the server exits on its own,
 * whatever it left behind is killed at once. `onclose` fires exactly once, after the exit.
 */
export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #options: StdioProcessOptions;
  readonly #buffer = new ReadBuffer();
  #child: ChildProcessWithoutNullStreams | undefined;
  #tree: ProcessTree | undefined;
  #exited: Promise<void> = Promise.resolve();
  #exit: { code: number | null; signal: NodeJS.Signals | null; duringClose: boolean } | undefined;
  #closing = false;
  #stderrTail = "";

  constructor(options: StdioProcessOptions) {
    this.#options = options;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /**
   * How the server ended when it ended by itself, with the end of its stderr (the line that
   * says what is wrong is usually last); undefined while it runs or when `close()` ended it.
   */
  describeExit(): string | undefined {
    const exit = this.#exit;
    if (!exit || exit.duringClose) return undefined;
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    const tail = this.stderrTail();
    return tail === "" ? how : `${how}; stderr: ${tail}`;
  }

  /** The last few lines the server wrote to stderr. */
  stderrTail(): string {
    return this.#stderrTail.trim().split("\n").slice(-3).join("\n").slice(-500);
  }

  /**
   * Records the server's descendants now, so that one which later leaves the tree (its parent
   * exits, it is re-parented to init) is still killed. Called at moments a server is likely to
   * have spawned helpers (after `initialize`, after each call), between the periodic samples.
   */
  sample(): void {
    this.#tree?.members();
  }

  async start(): Promise<void> {
    const { command, args, env, cwd } = this.#options;
    // spawn() reports a missing cwd as a missing command; say which one it is.
    if (!(await stat(cwd).catch(() => undefined))?.isDirectory()) {
      throw new Error(`working directory ${cwd} does not exist`);
    }
    const child = spawn(command, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"], detached: true });
    this.#child = child;
    let tree: ProcessTree | undefined;
    const spawned = new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", (error) => reject(new Error(`cannot start ${command}: ${error.message}`)));
    });
    this.#exited = new Promise((resolve) => {
      child.once("error", () => {
        if (child.pid === undefined) resolve(); // it never started
      });
      child.once("exit", (code, signal) => {
        this.#exit = { code, signal, duringClose: this.#closing };
        // Whatever the server left running (npx grandchildren) would otherwise hold our pipes.
        if (!this.#closing) tree?.sweep();
        resolve();
      });
    });
    child.once("close", () => {
      tree?.stopTracking();
      this.onclose?.();
    });
    child.on("error", (error) => this.onerror?.(error));
    child.stdin.on("error", (error) => this.onerror?.(error));
    child.stdout.on("data", (chunk: Buffer) => {
      try {
        this.#buffer.append(chunk); // throws past 10 MB without a newline
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        void this.close();
        return;
      }
      this.#drain();
    });
    child.stderr.setEncoding("utf8");
    let partial = "";
    child.stderr.on("data", (text: string) => {
      this.#stderrTail = (this.#stderrTail + text).slice(-STDERR_TAIL);
      const lines = (partial + text).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) if (line.trim() !== "") this.#options.onStderr(line);
    });
    await spawned;
    tree = new ProcessTree(child.pid!);
    tree.startTracking(this.#options.trackIntervalMs ?? 5000);
    this.#tree = tree;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || stdin.destroyed || this.#closing) throw new Error("MCP server is not running");
    if (!stdin.write(serializeMessage(message))) {
      await new Promise<void>((resolve) => {
        const done = () => {
          stdin.off("drain", done);
          stdin.off("close", done);
          resolve();
        };
        stdin.on("drain", done);
        stdin.on("close", done);
      });
    }
  }

  async close(): Promise<void> {
    const child = this.#child;
    const tree = this.#tree;
    if (!child || !tree || this.#closing) return this.#exited;
    this.#closing = true;
    child.stdin.end();
    if (this.#exit === undefined) {
      await Promise.race([this.#exited, delay(this.#options.closeGraceMs ?? 500)]);
    }
    // Even a server that exited by itself may have left its children running.
    await tree.kill(this.#options.killGraceMs ?? 1000);
    await Promise.race([this.#exited, delay(1000)]);
    this.#buffer.clear();
  }

  #drain(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.#buffer.readMessage();
      } catch (error) {
        // A line that is not JSON-RPC (a stray console.log); the next line may be fine.
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
