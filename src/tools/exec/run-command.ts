import { performance } from "node:perf_hooks";
import type { ExecPort, ExecRequest, ExecResult } from "../types.js";
import { BoundedOutput, completeUtf8Prefix, DEFAULT_OUTPUT_CAP } from "./bounded-output.js";
import { buildChildEnv } from "./child-env.js";
import { type CommandTree, ProcessTree } from "./process-tree.js";
import type { SpawnCommand, SpawnCommandOptions, SpawnedProcess } from "./spawner/spawned-process.js";
import { startChild } from "./spawner/start-child.js";

export interface LocalExecOptions {
  /**
   * The exact environment of every command. Build it with `buildChildEnv`; the default is
   * `buildChildEnv(process.env)`. Never pass `process.env` itself: it holds the daemon's secrets.
   */
  env?: Record<string, string>;
  /** The shell that runs `command` as `<shell> -c <command>`. Default `/bin/bash`. */
  shell?: string;
  /**
   * Turns the argv about to be spawned into the argv actually spawned: the hook for a sandbox
   * launcher (`bwrap … -- /bin/bash -c cmd`). The launcher becomes the process-group leader,
   * so killing the tree kills it and everything inside.
   */
  wrap?: (argv: string[]) => string[];
  /** What the launcher `wrap` put in front gets besides its argv: an fd 3, a cgroup to start in. */
  launch?: Pick<SpawnCommandOptions, "fd3File" | "cgroupProcs">;
  /** Bytes of output kept (head + tail). Default 1 MiB. */
  outputCap?: number;
  /** Between SIGTERM and SIGKILL on timeout or abort. Default 500 ms; keep it at most 1 s. */
  killGraceMs?: number;
  /** How long to wait for the pipes to close after the shell exits. Default 100 ms. */
  drainMs?: number;
  /**
   * How often the process tree is sampled while a command runs. Default 250 ms. `Infinity`
   * turns sampling off: for launchers whose pid namespace dies with the command (bubblewrap),
   * where nothing can escape to be found later. Each sample walks all of /proc.
   */
  trackIntervalMs?: number;
  /**
   * Starts the process. Default: node's `spawn` in this process. The runtime passes its spawn
   * helper's (`createSpawner`), whose pid arrives a moment later: a fork costs the daemon time
   * in proportion to its memory, the small helper's does not.
   */
  spawn?: SpawnCommand;
  /**
   * What cancel, timeout and the end of a command kill, given the pid `spawn` reported.
   * Default: its process group and every descendant seen in /proc (`ProcessTree`). A command
   * forked inside the sandbox's pid namespace passes the group of its pids cgroup instead,
   * which holds its whole tree and nothing else, and whose leftovers are killed as soon as the
   * command exits, as the end of a sandbox of its own would.
   */
  tree?: (pid: number) => CommandTree;
}

/** setTimeout fires at once for delays above 2^31-1 ms. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Runs commands as local child processes. stdin is /dev/null and stdout/stderr are pipes (the
 * daemon's own stdout is the ACP channel and must never be inherited). Each command leads its
 * own process group; timeout and abort kill the whole tree, and whatever a finished command
 * left running is killed too, so a run never outlives its promise. The promise rejects only
 * for programmer errors (a bad request, a throwing `onOutput`); command failures, including a
 * shell that cannot start, resolve as results.
 */
export function createLocalExec(options: LocalExecOptions = {}): ExecPort {
  const settings: Settings = {
    env: options.env ?? buildChildEnv(process.env),
    shell: options.shell ?? "/bin/bash",
    wrap: options.wrap ?? ((argv) => argv),
    launch: options.launch ?? {},
    outputCap: options.outputCap ?? DEFAULT_OUTPUT_CAP,
    killGraceMs: options.killGraceMs ?? 500,
    drainMs: options.drainMs ?? 100,
    trackIntervalMs: options.trackIntervalMs ?? 250,
    spawn: options.spawn ?? startChild,
    ...(options.tree ? { tree: options.tree } : {}),
  };
  const port: ExecPort = {
    run: (request) => runCommand(request, settings),
    launch: async ({ command }) => ({
      argv: settings.wrap(command),
      env: settings.env,
      ...(settings.launch.fd3File !== undefined ? { fd3File: settings.launch.fd3File } : {}),
      host: { run: port.run },
    }),
  };
  return port;
}

type Settings = Required<Omit<LocalExecOptions, "tree">> & Pick<LocalExecOptions, "tree">;

function runCommand(request: ExecRequest, settings: Settings): Promise<ExecResult> {
  const { command, cwd, timeoutMs, signal, onOutput } = request;
  if (typeof command !== "string" || typeof cwd !== "string" || !(signal instanceof AbortSignal)) {
    return Promise.reject(
      new TypeError("exec request needs a string command, a string cwd and an AbortSignal"),
    );
  }
  if (!(timeoutMs > 0)) return Promise.reject(new RangeError(`timeoutMs must be positive: ${timeoutMs}`));
  const started = performance.now();
  const output = new BoundedOutput(settings.outputCap);
  let processGroup: number | undefined;
  const stdout = new BoundedOutput(settings.outputCap);
  const stderr = new BoundedOutput(settings.outputCap);
  const result = (fields: Partial<ExecResult>): ExecResult => {
    const text = output.finish();
    const streams = { stdout: stdout.finish().text, stderr: stderr.finish().text };
    return {
      exitCode: null,
      signal: null,
      timedOut: false,
      aborted: false,
      durationMs: Math.round(performance.now() - started),
      output: text.text,
      droppedBytes: text.droppedBytes,
      totalBytes: text.totalBytes,
      totalLines: text.totalLines,
      ...(processGroup !== undefined ? { processGroup } : {}),
      ...(streams.stdout || streams.stderr ? { streams } : {}),
      ...fields,
    };
  };
  if (signal.aborted) return Promise.resolve(result({ aborted: true }));

  const [file, ...args] = settings.wrap([settings.shell, "-c", command]);
  if (file === undefined) return Promise.reject(new TypeError("wrap() returned an empty argv"));
  const cannotStart = (error: unknown): ExecResult => {
    const message = error instanceof Error ? error.message : String(error);
    output.push(Buffer.from(`could not start ${file} in ${cwd}: ${message}\n`));
    return result({ exitCode: 127 });
  };
  let child: SpawnedProcess;
  try {
    child = settings.spawn(file, args, { cwd, env: settings.env, ...settings.launch });
  } catch (error) {
    // Arguments Node refuses before forking, such as a NUL byte in the command.
    return Promise.resolve(cannotStart(error));
  }

  return new Promise<ExecResult>((resolve, reject) => {
    let stopped: "timeout" | "abort" | undefined;
    let killing: Promise<void> = Promise.resolve();
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let callbackError: unknown;
    let drainTimer: NodeJS.Timeout | undefined;
    let settled = false;
    let tree: CommandTree | undefined;
    const started = (pid: number): void => {
      // Spawned detached, the command leads its own group: its pid is the group's id.
      processGroup = pid;
      tree = settings.tree?.(pid) ?? new ProcessTree(pid);
      request.onStart?.(pid);
      if (Number.isFinite(settings.trackIntervalMs)) tree.startTracking(settings.trackIntervalMs);
      if (stopped) killing = tree.kill(settings.killGraceMs); // stopped before the pid came
    };
    if (child.pid !== undefined) started(child.pid);
    else child.once("spawn", () => child.pid !== undefined && started(child.pid));

    const emit = (bytes: Buffer, own: BoundedOutput): void => {
      if (bytes.length === 0) return;
      output.push(bytes);
      own.push(bytes);
      if (!onOutput || callbackError !== undefined) return;
      try {
        onOutput(bytes.toString("utf8"));
      } catch (error) {
        callbackError = error;
      }
    };
    const pumps = [
      pump(child.stdout, (bytes) => emit(bytes, stdout)),
      pump(child.stderr, (bytes) => emit(bytes, stderr)),
    ];

    const stop = (reason: "timeout" | "abort"): void => {
      if (stopped || exit || settled) return;
      stopped = reason;
      if (tree) killing = tree.kill(settings.killGraceMs);
    };
    const onAbort = (): void => stop("abort");
    signal.addEventListener("abort", onAbort, { once: true });
    // Aborted already: by `onStart` itself, which runs before the listener above exists.
    if (signal.aborted) onAbort();
    const timer = Number.isFinite(timeoutMs)
      ? setTimeout(() => stop("timeout"), Math.min(timeoutMs, MAX_TIMER_MS))
      : undefined;

    const finish = async (fields: Partial<ExecResult>): Promise<void> => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      signal.removeEventListener("abort", onAbort);
      await killing;
      tree?.sweep(); // strays the command left behind, even when it succeeded
      for (const flush of pumps) flush();
      if (callbackError !== undefined) reject(callbackError);
      else resolve(result({ timedOut: stopped === "timeout", aborted: stopped === "abort", ...fields }));
    };

    child.on("error", (error) => {
      if (child.pid !== undefined || settled) return; // only spawn failures reach here in practice
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(cannotStart(error));
    });
    child.on("exit", (code, exitSignal) => {
      exit = { code, signal: exitSignal };
      clearTimeout(timer);
      tree?.stopTracking();
      if (!stopped) tree?.exited?.();
      // Background processes may hold our pipes open forever: give the output a moment to
      // drain, then kill them, which closes the pipes (after a timeout or abort, only once
      // the kill and its grace period are over).
      void killing.then(() => {
        if (settled) return;
        drainTimer = setTimeout(() => {
          tree?.sweep();
          child.stdout?.destroy();
          child.stderr?.destroy();
        }, settings.drainMs);
      });
    });
    child.on("close", () => {
      void finish({ exitCode: exit?.code ?? null, signal: exit?.signal ?? null });
    });
  });
}

/**
 * Forwards a stream's chunks cut at UTF-8 character boundaries (the few bytes of a character
 * split across reads wait for the next chunk), so stdout and stderr can interleave without
 * corrupting characters. Returns a flush for the end of the stream.
 */
function pump(stream: SpawnedProcess["stdout"], emit: (bytes: Buffer) => void): () => void {
  let pending: Buffer | undefined;
  stream?.on("data", (chunk: Buffer) => {
    const bytes = pending ? Buffer.concat([pending, chunk]) : chunk;
    const cut = completeUtf8Prefix(bytes);
    pending = cut < bytes.length ? Buffer.from(bytes.subarray(cut)) : undefined;
    emit(bytes.subarray(0, cut));
  });
  return () => {
    if (pending) emit(pending);
    pending = undefined;
  };
}
