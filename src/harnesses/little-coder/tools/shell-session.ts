import { z } from "zod";
import { fence } from "../../../tools/markdown-fence.js";
import type { Tool } from "../../../tools/types.js";
import { shellSessionDescription, shellSessionSchema } from "../tool-schemas.js";
import { DEFAULT_TIMEOUT_S, formatShellOutput } from "./shell-output.js";
import type { ShellPane } from "./shell-pane.js";

// A timeout that is not a number falls back to the default, as the original reads it.
const Args = z.looseObject({ command: z.string().default(""), timeout: z.unknown().optional() });
type Args = z.infer<typeof Args>;

/**
 * little-coder `ShellSession` (its Terminal-Bench backend, the one whose description it sends
 * here): the command runs in the session's persistent shell, waited for up to its timeout
 * (30 s unless given, held to 5 s – 600 s), and answers with the output and the
 * `[exit=N cwd=… timed_out=…]` footer. An empty command is refused with the original's text.
 */
export function shellSessionTool(pane: ShellPane): Tool<Args> {
  return {
    name: "ShellSession",
    description: shellSessionDescription,
    kind: "execute",
    capability: "exec",
    parameters: shellSessionSchema,
    schema: Args,
    preview: async (args) => ({ title: args.command }),
    access: (args, ctx) => ({ type: "exec", command: args.command, cwd: ctx.cwd }),
    async execute(args, ctx) {
      const command = args.command.trim();
      if (!command) return { output: "Error: command is required", isError: true };
      const asked = typeof args.timeout === "number" ? args.timeout : DEFAULT_TIMEOUT_S;
      const seconds = Math.max(5, Math.min(asked, 600));
      const ran = await pane.run(ctx, command, seconds);
      if (!ran.ok) return { output: ran.error, isError: true };
      return {
        output: formatShellOutput(ran.outcome),
        display: [{ type: "text", text: fence(ran.outcome.output) }],
      };
    },
  };
}
