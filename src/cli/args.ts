import { type ParseArgsConfig, parseArgs } from "node:util";
import type { CliOverrides } from "../config/types.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** Flags every command accepts, before or after the command name. */
export const GLOBAL_OPTIONS = {
  model: { type: "string", short: "m" },
  harness: { type: "string" },
  profile: { type: "string", short: "p" },
  config: { type: "string", short: "c", multiple: true },
  "chat-completions": { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
} as const satisfies Options;

/**
 * Parses a command's arguments (the command name already removed) with the global flags plus
 * the command's own. Strict: an unknown flag or a missing value throws a readable `TypeError`.
 */
export function parseCommandArgs<O extends Options>(argv: string[], options: O) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { ...GLOBAL_OPTIONS, ...options },
  });
  const v = values as Record<string, unknown>;
  const overrides: CliOverrides = {
    model: v.model as string | undefined,
    harness: v.harness as string | undefined,
    profile: v.profile as string | undefined,
    overrides: (v.config as string[] | undefined) ?? [],
    chatCompletions: v["chat-completions"] === true,
  };
  return {
    positionals,
    values: values as {
      [K in keyof O]?: O[K] extends { type: "boolean" }
        ? boolean
        : O[K] extends { multiple: true }
          ? string[]
          : string;
    },
    overrides,
  };
}

/**
 * Finds the command name: the first positional, skipping the values of global flags that take
 * one (`interpreter -m x exec` runs `exec`). Returns the name and the arguments without it.
 */
export function splitCommand(argv: string[]): { command: string | undefined; rest: string[] } {
  const takesValue = new Set<string>();
  for (const [name, spec] of Object.entries(GLOBAL_OPTIONS)) {
    if (spec.type !== "string") continue;
    takesValue.add(`--${name}`);
    if ("short" in spec) takesValue.add(`-${spec.short}`);
  }
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string;
    if (token === "--") return { command: undefined, rest: argv };
    if (takesValue.has(token)) {
      i++;
      continue;
    }
    if (!token.startsWith("-") || token === "-") {
      return { command: token, rest: [...argv.slice(0, i), ...argv.slice(i + 1)] };
    }
  }
  return { command: undefined, rest: argv };
}
