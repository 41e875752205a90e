import { z } from "zod";
import { readOutputTail } from "../../../tools/exec/read-output-tail.js";
import type { Tool } from "../../../tools/types.js";
import { geminiProcesses, sleep } from "../background-shell.js";
import description from "../descriptions/read-background-output.md";
import { readBackgroundOutputSchema } from "../tool-schemas.js";

/** Gemini CLI reads at most the last 64 KiB of a log, and shows its last 100 lines unless asked. */
const MAX_READ_BYTES = 64 * 1024;
const DEFAULT_LINES = 100;

const Args = z.looseObject({
  pid: z.number().int(),
  lines: z.number().int().min(1).optional(),
  delay_ms: z.number().int().optional(),
  wait_for_previous: z.boolean().optional(),
});
type Args = z.infer<typeof Args>;

/**
 * Gemini CLI 0.61 `read_background_output`: after `delay_ms`, the last `lines` lines of a
 * background process's log (`Full Log Output:` when that is all of it, else `Showing last N of
 * M lines:`), `Log is empty.` before any output. A pid this session did not start is refused with
 * 0.61's error message.
 */
export function readBackgroundOutputTool(): Tool<Args> {
  return {
    name: "read_background_output",
    description: description.trimEnd(),
    kind: "read",
    capability: "other",
    parameters: readBackgroundOutputSchema(),
    schema: Args,
    preview: async (args) => ({ title: `Read output of process ${args.pid}` }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      await sleep(args.delay_ms ?? 0, ctx.signal);
      const process = geminiProcesses(ctx).find((p) => p.pid === args.pid);
      if (!process)
        return { output: `Background process history lookup failed for PID ${args.pid}`, isError: true };
      const { text, start } = await readOutputTail(process.outputFile ?? "", MAX_READ_BYTES);
      if (!text) return { output: "Log is empty." };
      const lines = text.split("\n");
      if (lines.at(-1) === "") lines.pop();
      // A read that starts inside the file starts inside a line: that line is left out.
      if (start > 0 && lines.length > 0) lines.shift();
      const wanted = args.lines ?? DEFAULT_LINES;
      const header =
        wanted < lines.length ? `Showing last ${wanted} of ${lines.length} lines:\n` : "Full Log Output:\n";
      return { output: header + lines.slice(-wanted).join("\n") };
    },
  };
}
