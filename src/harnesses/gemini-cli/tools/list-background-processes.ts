import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { geminiProcesses, processLine } from "../background-shell.js";
import description from "../descriptions/list-background-processes.md";
import { listBackgroundProcessesSchema } from "../tool-schemas.js";

const Args = z.looseObject({ wait_for_previous: z.boolean().optional() });
type Args = z.infer<typeof Args>;

/**
 * Gemini CLI 0.61 `list_background_processes`: one line per background process of the session,
 * oldest first, with its process group id, RUNNING or EXITED, the command and how it ended.
 * `wait_for_previous` is accepted: calls run one after another here anyway.
 */
export function listBackgroundProcessesTool(): Tool<Args> {
  return {
    name: "list_background_processes",
    description: description.trimEnd(),
    kind: "read",
    capability: "other",
    parameters: listBackgroundProcessesSchema(),
    schema: Args,
    preview: async () => ({ title: "List background processes" }),
    access: () => ({ type: "none" }),
    async execute(_args, ctx) {
      const processes = geminiProcesses(ctx);
      if (processes.length === 0) return { output: "No background processes found." };
      return { output: processes.map(processLine).join("\n") };
    },
  };
}
