import { parseCommandArgs, splitCommand } from "./args.js";
import { COMMANDS } from "./commands.js";
import { scrubEnviron } from "./scrub-environ.js";
import { commandUsage, usage } from "./usage-text.js";
import { VERSION } from "./version.js";

/** Commands that hold model keys in memory while they run agents. */
const RUNS_AGENTS = new Set(["acp", "daemon", "exec", "chat", "resume"]);

/** Entry point behind bin/interpreter.js; resolves with the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const { command, rest } = chatByDefault(splitCommand(argv), argv);
  if (rest.includes("-V") || rest.includes("--version")) {
    process.stdout.write(`interpreter ${VERSION}\n`);
    return 0;
  }
  if (command === undefined || command === "help" || rest.includes("-h") || rest.includes("--help")) {
    if (command === undefined) {
      try {
        parseCommandArgs(rest, {});
      } catch (error) {
        return fail(error);
      }
    }
    const known = command === undefined ? undefined : COMMANDS[command];
    process.stdout.write(known ? commandUsage(known) : usage(COMMANDS));
    return 0;
  }
  const entry = COMMANDS[command];
  if (!entry) {
    process.stderr.write(`interpreter: unknown command '${command}'\n\n${usage(COMMANDS)}`);
    return 2;
  }
  // The daemon keeps its keys in memory only; commands outside the sandbox cannot read them back.
  if (RUNS_AGENTS.has(command)) scrubEnviron();
  const run = await entry.load();
  try {
    return await run(rest);
  } catch (error) {
    if (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS")) {
      return fail(error, command);
    }
    throw error;
  }
}

/**
 * No command runs the chat when stdin is a terminal, or when a chat flag asks for it; from a
 * pipe or a script it prints the help. In `--resume ID` the id is not a command name, and in a
 * terminal `interpreter "fix the tests"` (words with spaces) is the chat's first prompt.
 */
function chatByDefault(
  split: ReturnType<typeof splitCommand>,
  argv: string[],
): ReturnType<typeof splitCommand> {
  const { command, rest } = split;
  if (command !== undefined) {
    const resumed = !COMMANDS[command] && argv[argv.indexOf(command) - 1] === "--resume";
    const prompt = !COMMANDS[command] && /\s/.test(command.trim()) && process.stdin.isTTY;
    return resumed || prompt ? { command: "chat", rest: argv } : split;
  }
  if (rest.includes("-h") || rest.includes("--help")) return split;
  const chatFlag = argv.some((a) => a === "--last" || a === "--resume" || a.startsWith("--resume="));
  return process.stdin.isTTY || chatFlag ? { command: "chat", rest: argv } : split;
}

function fail(error: unknown, command?: string): number {
  const message = error instanceof Error ? error.message : String(error);
  const prefix = command ? `interpreter ${command}` : "interpreter";
  process.stderr.write(`${prefix}: ${message}\n\n${usage(COMMANDS)}`);
  return 2;
}
