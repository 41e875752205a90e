import { acpCommand } from "./acp-command.js";
import { parseCli, USAGE } from "./args.js";
import { execCommand } from "./exec-command.js";
import { scrubEnviron } from "./scrub-environ.js";
import { trustCommand } from "./trust-command.js";
import { VERSION } from "./version.js";

/** Entry point behind bin/interpreter.js; resolves with the process exit code. */
export async function main(argv: string[]): Promise<number> {
  let args: ReturnType<typeof parseCli>;
  try {
    args = parseCli(argv);
  } catch (error) {
    process.stderr.write(
      `interpreter: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`,
    );
    return 2;
  }
  if (args.version) {
    process.stdout.write(`interpreter ${VERSION}\n`);
    return 0;
  }
  if (args.help || args.command === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  // The daemon keeps its keys in memory only; commands outside the sandbox cannot read them back.
  if (args.command === "acp" || args.command === "exec") scrubEnviron();
  switch (args.command) {
    case "acp":
      return acpCommand(args);
    case "exec":
      return execCommand(args);
    case "trust":
      return trustCommand(args);
    default:
      process.stderr.write(`interpreter: unknown command '${args.command}'\n\n${USAGE}`);
      return 2;
  }
}
