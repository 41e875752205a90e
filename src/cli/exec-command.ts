import { statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ResumeError, type RunEvent, runOnce } from "../acp/run-once.js";
import { openAgentSource } from "./agent-source.js";
import { type CodexEvent, createCodexMapper, stopMessage, type TurnOutcome } from "./exec/codex-events.js";
import { ExecUsageError, overridesSetMode, parseExecArgs } from "./exec/exec-args.js";
import { loadImages, readPrompt, schemaInstruction } from "./exec/exec-input.js";
import { createTextOutput } from "./exec/text-output.js";
import { VERSION } from "./version.js";

/**
 * `interpreter exec "<prompt>"`: one prompt, run by the same ACP agent, in this process or,
 * with `--daemon`, in the shared daemon (docs/daemon.md). Progress on
 * stderr, the answer on stdout (or, with `--json`, Codex's JSONL events). Exit 0 when the turn
 * ended normally, 1 when it failed, 2 on usage errors. Nobody can answer permission requests,
 * so they are rejected: read-only is the default, as in `codex exec`.
 */
export async function execCommand(argv: string[]): Promise<number> {
  const usageError = (error: unknown) => {
    if (!(error instanceof ExecUsageError)) throw error;
    process.stderr.write(`interpreter exec: ${error.message}\n`);
    return 2;
  };
  let args: ReturnType<typeof parseExecArgs>;
  let prompt: string[];
  let images: Awaited<ReturnType<typeof loadImages>>;
  try {
    args = parseExecArgs(argv);
    prompt = [await readPrompt(args.prompt, process.stdin)];
    images = await loadImages(args.images, process.cwd());
    if (args.outputSchema) prompt.push(await schemaInstruction(args.outputSchema, process.cwd()));
  } catch (error) {
    return usageError(error);
  }
  const cwd = path.resolve(args.cd ?? process.cwd());
  if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) {
    process.stderr.write(`interpreter exec: --cd ${cwd}: not a directory\n`);
    return 1;
  }
  const agent = await openAgentSource({
    overrides: args.overrides,
    env: execEnv(process.env),
    daemon: args.daemon,
  });
  if (!agent) return 1;
  const mode =
    args.mode ?? (overridesSetMode(args.overrides.overrides ?? []) ? agent.config.mode : "read-only");
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  process.once("SIGINT", interrupt);
  process.once("SIGTERM", interrupt);

  const codex = args.json ? createCodexMapper() : undefined;
  const text = codex ? undefined : createTextOutput({ stderr: (s) => process.stderr.write(s) });
  const emit = (events: CodexEvent[]) => {
    for (const event of events) process.stdout.write(`${JSON.stringify(event)}\n`);
  };
  let started = false;
  let outcome: TurnOutcome;
  try {
    const result = await runOnce({
      ...agent.link,
      version: VERSION,
      cwd,
      additionalDirectories: args.addDirs.map((dir) => path.resolve(dir)),
      prompt,
      images,
      mode,
      ...(args.resume ? { resume: args.resume } : {}),
      ...(args.overrides.model ? { model: args.overrides.model } : {}),
      signal: controller.signal,
      onSession(sessionId) {
        started = true;
        if (codex) emit(codex.start(sessionId));
        else process.stderr.write(`session ${sessionId} (${mode})\n`);
      },
      onEvent(event: RunEvent) {
        // The notice about this machine's sandbox is not the thread's: with --json it goes to stderr.
        if (codex && event.type === "notice" && event.topic === "sandbox")
          process.stderr.write(`warning: ${event.text}\n`);
        else if (codex) emit(codex.map(event));
        else text?.onEvent(event);
      },
    });
    outcome = { stopReason: result.stopReason, ...(result.usage ? { usage: result.usage } : {}) };
  } catch (error) {
    if (!started || error instanceof ResumeError) {
      process.stderr.write(`interpreter: ${agent.lost() ?? messageOf(error)}\n`);
      await agent.close();
      return 1;
    }
    outcome = { error: agent.lost() ?? messageOf(error) };
  } finally {
    process.off("SIGINT", interrupt);
    process.off("SIGTERM", interrupt);
  }
  try {
    const ok = "stopReason" in outcome && outcome.stopReason === "end_turn";
    let answer: string | undefined;
    if (codex) {
      emit(codex.finish(outcome));
      answer = codex.finalMessage();
    } else if (text) {
      answer = text.answer();
      if (answer) process.stdout.write(`${answer}\n`);
      const failure = "error" in outcome ? outcome.error : ok ? undefined : stopMessage(outcome.stopReason);
      if (failure !== undefined && !text.told(failure)) process.stderr.write(`interpreter: ${failure}\n`);
    }
    if (ok && args.outputLastMessage) writeFileSync(path.resolve(args.outputLastMessage), answer ?? "");
    return ok ? 0 : 1;
  } finally {
    await agent.close();
  }
}

/**
 * The environment exec reads config from. `CODEX_API_KEY` is how the Codex SDK passes its
 * `apiKey` (and Codex's exec-only key variable): it becomes the `openai` provider's key.
 */
export function execEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const codexKey = env.CODEX_API_KEY?.trim();
  return codexKey ? { ...env, OPENAI_API_KEY: codexKey } : env;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
