import path from "node:path";
import type { BackgroundProcess } from "../../tools/exec/background-processes.js";
import type { ToolContext } from "../../tools/types.js";
import { signalNumber } from "../shared/gemini-core/signal-number.js";

/** Gemini CLI's `BACKGROUND_DELAY_MS`: how long `is_background` waits before answering. */
export const BACKGROUND_DELAY_MS = 200;

/**
 * Starts `command` as a Gemini CLI background process: it lives for the session, its output goes
 * to `<scratch>/background-processes/background-<n>.log` (0.61 names the file after the pid in
 * its temp folder), and the model knows it by its process group id. After `delayMs` the call
 * answers 0.61's text, even when the command has already ended, as 0.61 does. Gemini CLI tells
 * the model nothing when it ends.
 */
export async function startGeminiBackground(options: {
  command: string;
  cwd: string;
  delayMs?: number | undefined;
  scratchDir: string;
  ctx: ToolContext;
}): Promise<string> {
  const { ctx } = options;
  const taken = new Set(ctx.background.list().map((p) => p.id));
  let n = 1;
  while (taken.has(`gemini-${n}`)) n++;
  const id = `gemini-${n}`;
  const process = ctx.background.start({
    exec: ctx.exec,
    command: options.command,
    cwd: options.cwd,
    signal: ctx.sessionSignal,
    id: () => id,
    owner: "gemini-cli",
    ...(ctx.callId ? { callId: ctx.callId } : {}),
    outputFile: path.join(options.scratchDir, "background-processes", `background-${n}.log`),
  });
  await process.running();
  await sleep(options.delayMs ?? BACKGROUND_DELAY_MS, ctx.signal);
  return `<untrusted_context>\nCommand moved to background (PID: ${process.pid ?? ""}). Output hidden. Press Ctrl+B to view.\n</untrusted_context>`;
}

/** The session's Gemini CLI background processes, in the order they started. */
export function geminiProcesses(ctx: ToolContext): BackgroundProcess[] {
  return ctx.background.list().filter((p) => p.owner === "gemini-cli");
}

/** One line of list_background_processes: `- [PID n] RUNNING: \`cmd\``, then the exit code or signal. */
export function processLine(process: BackgroundProcess): string {
  const status = process.status === "running" ? "RUNNING" : "EXITED";
  const exit = process.exit;
  const code = exit && exit.exitCode !== null ? ` (Exit Code: ${exit.exitCode})` : "";
  const signal = exit?.signal ? ` (Signal: ${signalNumber(exit.signal)})` : "";
  return `- [PID ${process.pid ?? ""}] ${status}: \`${process.command}\`${code}${signal}`;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
