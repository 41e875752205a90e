import { GLOBAL_OPTIONS } from "../args.js";

/** Flags of the chat command that take a value, besides the global ones. */
const CHAT_VALUE_FLAGS = ["-C", "--cd", "--mode", "--resume"];

/**
 * `interpreter resume [ID|--last] [flags]` as the chat command's flags: the first positional
 * becomes `--resume ID`; `--last` passes through; neither asks which session (`--resume=`).
 */
export function resumeArgs(argv: string[]): string[] {
  const takesValue = new Set(CHAT_VALUE_FLAGS);
  for (const [name, spec] of Object.entries(GLOBAL_OPTIONS)) {
    if (spec.type !== "string") continue;
    takesValue.add(`--${name}`);
    if ("short" in spec) takesValue.add(`-${spec.short}`);
  }
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string;
    if (token === "--") break;
    if (takesValue.has(token)) {
      i++;
      continue;
    }
    if (!token.startsWith("-")) return ["--resume", token, ...argv.slice(0, i), ...argv.slice(i + 1)];
  }
  if (argv.includes("--last") || argv.some((arg) => arg === "--resume" || arg.startsWith("--resume="))) {
    return argv;
  }
  return ["--resume=", ...argv];
}
