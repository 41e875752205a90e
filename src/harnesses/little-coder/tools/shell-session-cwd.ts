import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { shellSessionCwdDescription, shellSessionCwdSchema } from "../tool-schemas.js";
import { formatShellOutput } from "./shell-output.js";
import type { ShellPane } from "./shell-pane.js";

const Args = z.looseObject({});
type Args = z.infer<typeof Args>;

/** little-coder `ShellSessionCwd`: `pwd` in the persistent shell (5 s), answered like any ShellSession call. */
export function shellSessionCwdTool(pane: ShellPane): Tool<Args> {
  return {
    name: "ShellSessionCwd",
    description: shellSessionCwdDescription,
    kind: "read",
    capability: "exec",
    parameters: shellSessionCwdSchema,
    schema: Args,
    preview: async () => ({ title: "pwd" }),
    // Printing the directory changes nothing.
    access: () => ({ type: "none" }),
    async execute(_args, ctx) {
      const ran = await pane.run(ctx, "pwd", 5);
      if (!ran.ok) return { output: ran.error, isError: true };
      return { output: formatShellOutput(ran.outcome) };
    },
  };
}
