import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { shellSessionResetDescription, shellSessionResetSchema } from "../tool-schemas.js";
import type { ShellPane } from "./shell-pane.js";

const Args = z.looseObject({});
type Args = z.infer<typeof Args>;

/** The original's session name when none is set (`LITTLE_CODER_SESSION_ID`). */
const SESSION = "default";

/** little-coder `ShellSessionReset`: interrupts and clears the persistent shell, then sets it up again. */
export function shellSessionResetTool(pane: ShellPane): Tool<Args> {
  return {
    name: "ShellSessionReset",
    description: shellSessionResetDescription,
    kind: "execute",
    capability: "exec",
    parameters: shellSessionResetSchema,
    schema: Args,
    preview: async () => ({ title: "reset the shell session" }),
    // It interrupts what runs and types `clear`: nothing the user has to approve.
    access: () => ({ type: "none" }),
    async execute(_args, ctx) {
      const reset = await pane.reset(ctx);
      if (!reset.ok) return { output: reset.error, isError: true };
      return { output: `Session '${SESSION}' unstuck and reinitialized.` };
    },
  };
}
