import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { BackgroundProcess } from "../exec/background-processes.js";
import { buildChildEnv } from "../exec/child-env.js";
import { createLocalExec } from "../exec/run-command.js";
import type { ExecPort, Launch, ToolContext } from "../types.js";
import {
  batchScript,
  type Keystrokes,
  markers,
  PANE_SHELL,
  type PaneOptions,
  paneCommand,
  readCapture,
  sessionScript,
} from "./tmux-script.js";

export type { Keystrokes } from "./tmux-script.js";

/** What a batch of keystrokes left: the pane's scrollback and screen, and the scrollback before. */
export interface Capture {
  buffer: string;
  screen: string;
  /** The scrollback at the previous look; undefined on a terminal's first. */
  previous?: string;
}

export type SendResult = { ok: true; capture: Capture } | { ok: false; cancelled: boolean; error: string };

/** Time the server has to open its socket, and a tmux command or batch to answer beyond its waits. */
const START_MS = 10_000;
const SLACK_MS = 30_000;

interface Running {
  server: BackgroundProcess;
  control: ExecPort;
  dir: string;
  socket: string;
  /** The pane's launch, to tell when the session's confinement changed (mode, escalation). */
  launch: string;
}

/**
 * A persistent shell in a tmux pane for one session. tmux itself (server and control commands)
 * runs outside the sandbox, since the sandbox denies the Unix sockets tmux is made of; the
 * shell in the pane is started through the session's exec port (`launch`), so it is confined
 * exactly as any command is. The server is one of the session's background processes kept in
 * the foreground (`-D`), so the session's close kills it with its whole tree, the pane's shell
 * and what runs in it included. A cancelled batch kills the terminal; so does a change of the
 * session's confinement; the next batch starts a new one.
 */
export class TmuxTerminal {
  readonly #pane: PaneOptions;
  readonly #owner: string;
  #running: Running | undefined;
  #previous: string | undefined;

  constructor(options: { owner: string; pane?: Partial<PaneOptions> }) {
    this.#owner = options.owner;
    this.#pane = { width: 160, height: 40, historyLimit: 50_000, session: "terminal", ...options.pane };
  }

  /** The tmux server's process while the terminal runs. */
  get server(): BackgroundProcess | undefined {
    return this.#running?.server;
  }

  async send(ctx: ToolContext, commands: Keystrokes[]): Promise<SendResult> {
    const launch: Launch | { refused: string } = ctx.exec.launch
      ? await ctx.exec.launch({ command: PANE_SHELL, cwd: ctx.cwd })
      : { argv: PANE_SHELL, env: buildChildEnv(process.env), host: createLocalExec() };
    if ("refused" in launch) return { ok: false, cancelled: false, error: launch.refused };
    const key = JSON.stringify({ argv: launch.argv, env: launch.env, fd3File: launch.fd3File });
    if (this.#running && (this.#running.server.exit || this.#running.launch !== key)) await this.#stop(ctx);
    if (!this.#running) {
      const started = await this.#start(ctx, launch, key);
      if (!started.ok) return started;
    }
    const running = this.#running!;
    // The session may be gone (its shell exited): started again, as a first look.
    const session = await running.control.run({
      command: sessionScript({
        socket: running.socket,
        pane: this.#pane,
        cwd: ctx.cwd,
        command: paneCommand(launch),
      }),
      cwd: ctx.cwd,
      timeoutMs: START_MS,
      signal: ctx.signal,
    });
    if (ctx.signal.aborted) return this.#cancelled(ctx);
    if (session.exitCode !== 0)
      return this.#failed(ctx, `the terminal could not start: ${session.output.trim()}`);
    if (this.#previous === undefined) {
      // The look the original takes before its first prompt, so the first batch reads as new output.
      const first = await this.#batch(ctx, []);
      if (!first.ok) return first;
      this.#previous = first.capture.buffer;
    }
    const result = await this.#batch(ctx, commands);
    if (result.ok) this.#previous = result.capture.buffer;
    return result;
  }

  async #start(ctx: ToolContext, launch: Launch, key: string): Promise<SendResult> {
    const dir = mkdtempSync(path.join(os.tmpdir(), "oi-terminal-"));
    const socket = path.join(dir, "tmux.sock");
    const control = launch.host;
    const taken = new Set(ctx.background.list().map((p) => p.id));
    let n = 1;
    while (taken.has(`terminal-${n}`)) n++;
    const server = ctx.background.start({
      exec: control,
      command: `exec tmux -D -S ${JSON.stringify(socket)} -f /dev/null`,
      cwd: ctx.cwd,
      signal: ctx.sessionSignal,
      id: () => `terminal-${n}`,
      owner: this.#owner,
      description: "terminal (tmux)",
    });
    server.silence();
    void server.ended().then(() => rmSync(dir, { recursive: true, force: true }));
    this.#running = { server, control, dir, socket, launch: key };
    this.#previous = undefined;
    const deadline = Date.now() + START_MS;
    while (!existsSync(socket)) {
      if (ctx.signal.aborted) return this.#cancelled(ctx);
      if (server.exit || Date.now() > deadline) {
        return this.#failed(
          ctx,
          `the terminal could not start: ${server.tail().trim() || "tmux did not answer"}`,
        );
      }
      await sleep(20);
    }
    return { ok: true, capture: { buffer: "", screen: "" } };
  }

  async #batch(ctx: ToolContext, commands: Keystrokes[]): Promise<SendResult> {
    const running = this.#running!;
    const m = markers(randomBytes(8).toString("hex"));
    const waits = commands.reduce((sum, c) => sum + Math.max(0, c.duration) * 1000, 0);
    const result = await running.control.run({
      command: batchScript({ socket: running.socket, pane: this.#pane, commands, markers: m }),
      cwd: ctx.cwd,
      timeoutMs: waits + SLACK_MS,
      signal: ctx.signal,
    });
    if (ctx.signal.aborted) return this.#cancelled(ctx);
    const capture = readCapture(result.output, m);
    if (!capture) return this.#failed(ctx, `the terminal did not answer: ${result.output.trim()}`);
    return { ok: true, capture: { ...capture, previous: this.#previous } };
  }

  async #cancelled(ctx: ToolContext): Promise<SendResult> {
    await this.#stop(ctx);
    return { ok: false, cancelled: true, error: "cancelled" };
  }

  async #failed(ctx: ToolContext, error: string): Promise<SendResult> {
    await this.#stop(ctx);
    return { ok: false, cancelled: false, error };
  }

  async #stop(ctx: ToolContext): Promise<void> {
    const running = this.#running;
    this.#running = undefined;
    this.#previous = undefined;
    if (running) await ctx.background.kill(running.server.id, "closed");
  }
}
