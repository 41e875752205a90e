import { randomUUID } from "node:crypto";
import path from "node:path";
import type { BackgroundProcess } from "../../tools/exec/background-processes.js";
import type { Tool, ToolContext, ToolResult } from "../../tools/types.js";

/** The id prefix Claude Code 2.1.44 gives a background shell (`local_bash`); agents get `a`. */
const BASH_PREFIX = "b";

/**
 * Claude Code 2.1.44's background shells for one harness session: `Bash` with
 * `run_in_background` starts one here, `TaskOutput` and `TaskStop` find it in the session's
 * table. Each lives until it ends, `TaskStop` kills it or the session closes; its output goes to
 * `<scratch>/tasks/<id>.output` (Claude Code's `/tmp/claude-<uid>/<cwd>/tasks/`). This object
 * keeps what only Claude Code shows: how many lines of output each task printed since the model
 * was last told (the new-output reminder).
 */
export class ClaudeTasks {
  readonly #lines = new Map<string, { seen: number; told: number }>();

  constructor(private readonly o: { scratchDir: string }) {}

  /** Starts `command` in the background and answers as 2.1.44's Bash does. */
  start(args: { command: string; description?: string | null }, ctx: ToolContext): ToolResult {
    const lines = { seen: 0, told: 0 };
    const taken = new Set(ctx.background.list().map((p) => p.id));
    let id: string;
    do id = BASH_PREFIX + randomUUID().replaceAll("-", "").slice(0, 6);
    while (taken.has(id));
    const process = ctx.background.start({
      exec: ctx.exec,
      command: args.command,
      cwd: ctx.cwd,
      signal: ctx.sessionSignal,
      id: () => id,
      // 2.1.44 names the task after the command when the model gave no description.
      description: args.description || args.command,
      owner: "claude-code",
      ...(ctx.callId ? { callId: ctx.callId } : {}),
      outputFile: path.join(this.o.scratchDir, "tasks", `${id}.output`),
      notify: true,
      // 2.1.44 counts the non-empty pieces of each chunk split at newlines.
      watch: (chunk) => {
        lines.seen += chunk.split("\n").filter((line) => line.length > 0).length;
      },
    });
    this.#lines.set(process.id, lines);
    return {
      output: `Command running in background with ID: ${process.id}. Output is being written to: ${process.outputFile}`,
    };
  }

  /**
   * The `<system-reminder>`s 2.1.44 attaches for running tasks that printed lines since the last
   * one, each counted as told once returned.
   */
  reminders(processes: BackgroundProcess[]): string[] {
    const reminders: string[] = [];
    for (const process of processes) {
      const lines = this.#lines.get(process.id);
      if (!lines || process.status !== "running" || lines.seen === lines.told) continue;
      const count = lines.seen - lines.told;
      lines.told = lines.seen;
      reminders.push(
        `<system-reminder>\nBackground bash ${process.id} has new output: ${count} line${count > 1 ? "s" : ""} of stdout. Read ${process.outputFile} to see output.\n</system-reminder>`,
      );
    }
    return reminders;
  }

  /** The tool with the new-output reminders appended to its result, as 2.1.44 attaches them. */
  withReminders<A>(tool: Tool<A>): Tool<A> {
    return {
      ...tool,
      execute: async (args, ctx) => {
        const result = await tool.execute(args, ctx);
        const reminders = this.reminders(ctx.background.list());
        if (reminders.length === 0) return result;
        return { ...result, output: [result.output, ...reminders].join("\n\n") };
      },
    };
  }
}
