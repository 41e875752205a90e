import path from "node:path";
import { runOnce } from "../acp/run-once.js";
import { MODES, type Mode } from "../config/types.js";
import { parseCommandArgs } from "./args.js";
import { openRuntime } from "./runtime.js";
import { VERSION } from "./version.js";

const EXEC_OPTIONS = {
  cd: { type: "string", short: "C" },
  mode: { type: "string" },
  "full-auto": { type: "boolean" },
} as const;

/**
 * `interpreter exec "<prompt>"`: one prompt, run by the same ACP agent in-process. The answer
 * streams to stdout, progress to stderr. Nobody can answer permission requests here, so they
 * are rejected (use --mode / --full-auto to allow more).
 */
export async function execCommand(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, EXEC_OPTIONS);
  const prompt = args.positionals.join(" ").trim();
  if (!prompt) {
    process.stderr.write('interpreter exec: missing prompt (usage: interpreter exec "<prompt>")\n');
    return 2;
  }
  const mode = args.values["full-auto"] ? "full-access" : args.values.mode;
  if (mode && !(MODES as readonly string[]).includes(mode)) {
    process.stderr.write(`interpreter exec: unknown mode '${mode}' (expected ${MODES.join(", ")})\n`);
    return 2;
  }
  const runtime = openRuntime(args.overrides);
  if (!runtime) return 1;
  try {
    const stopReason = await runOnce({
      manager: runtime.manager,
      logger: runtime.logger,
      version: VERSION,
      cwd: path.resolve(args.values.cd ?? process.cwd()),
      prompt,
      mode: mode as Mode | undefined,
      progress: {
        text: (chunk) => process.stdout.write(chunk),
        toolStarted: (title) => process.stderr.write(`▸ ${title}\n`),
        toolFinished: (title, ok) => process.stderr.write(`${ok ? "✓" : "✗"} ${title}\n`),
        rejected: (title) => process.stderr.write(`✗ needs approval, rejected: ${title}\n`),
      },
    });
    process.stdout.write("\n");
    if (stopReason !== "end_turn") process.stderr.write(`interpreter: turn ended: ${stopReason}\n`);
    return stopReason === "end_turn" ? 0 : 1;
  } catch (error) {
    process.stderr.write(`\ninterpreter: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await runtime.shutdown();
  }
}
