import { z } from "zod";
import { fence } from "../../tools/markdown-fence.js";
import { TmuxTerminal } from "../../tools/terminal/tmux-terminal.js";
import type { Tool } from "../../tools/types.js";
import { incrementalOutput } from "./incremental-output.js";
import { limitOutput } from "./limit-output.js";
import { confirmationText, MAX_DURATION_S, stepText } from "./observations.js";

const Args = z.looseObject({
  commands: z.array(z.object({ keystrokes: z.string(), duration: z.number() })),
  task_complete: z.boolean().default(false),
  /** The parser's warnings about the reply, put ahead of the terminal's output. */
  warning: z.string().default(""),
});
type Args = z.infer<typeof Args>;

/** What the keystrokes would run, for the permission gate and the sandbox's view of a command. */
export function typedCommands(args: Pick<Args, "commands">): string {
  return args.commands
    .map((c) => c.keystrokes.replace(/\n+$/, ""))
    .filter(Boolean)
    .join("\n");
}

/**
 * One Terminus 2 reply's batch: each command's keystrokes typed into the session's persistent
 * tmux pane, its duration waited (at most 60 s), then the pane's new output as the next
 * prompt (10 kB at most), or the completion question when the reply said the task is done.
 * Never sent as a schema: the harness builds the call from the reply's JSON.
 */
export function terminalTool(options: { terminal?: TmuxTerminal } = {}): Tool<Args> {
  const terminal = options.terminal ?? new TmuxTerminal({ owner: "terminus-2" });
  return {
    name: "terminal",
    description: "Send keystrokes to the terminal",
    kind: "execute",
    capability: "exec",
    parameters: {
      type: "object",
      properties: {
        commands: {
          type: "array",
          items: {
            type: "object",
            properties: { keystrokes: { type: "string" }, duration: { type: "number" } },
            required: ["keystrokes", "duration"],
          },
        },
        task_complete: { type: "boolean" },
      },
      required: ["commands"],
    },
    schema: Args,
    preview: async (args) => ({ title: typedCommands(args).split("\n").join("; ") || "(wait)" }),
    // Only waiting (nothing typed) runs nothing.
    access: (args, ctx) => {
      const command = typedCommands(args);
      return command ? { type: "exec", command, cwd: ctx.cwd } : { type: "none" };
    },
    async execute(args, ctx) {
      const commands = args.commands.map((c) => ({
        keystrokes: c.keystrokes,
        duration: Math.min(c.duration, MAX_DURATION_S),
      }));
      const sent = await terminal.send(ctx, commands);
      if (!sent.ok) return { output: sent.error, isError: true };
      const output = limitOutput(incrementalOutput(sent.capture));
      const display = [{ type: "text" as const, text: fence(output) }];
      if (args.task_complete) return { output: confirmationText(output), isError: false, display };
      return { output: stepText(output, args.warning), isError: false, display };
    },
  };
}
