import path from "node:path";
import { gitCeilings } from "../config/git-ceilings.js";
import { findProjectRoot } from "../context/project-root.js";
import { trustProject } from "../sessions/project-trust.js";
import { parseCommandArgs } from "./args.js";
import { openRuntime } from "./runtime.js";

/** `interpreter trust [path]`: lets the project's own `.openinterpreter/config.toml` apply. */
export async function trustCommand(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, {});
  const runtime = openRuntime(args.overrides);
  if (!runtime) return 1;
  try {
    const root = findProjectRoot(path.resolve(args.positionals[0] ?? process.cwd()), {
      ceilings: gitCeilings(process.env),
    });
    process.stdout.write(`${trustProject({ store: runtime.store, root })}\n`);
    return 0;
  } finally {
    await runtime.shutdown();
  }
}
