import { parseArgs } from "node:util";
import type { CliOverrides } from "../config/types.js";

export interface CliArgs {
  command: string;
  positionals: string[];
  overrides: CliOverrides;
  cd?: string;
  mode?: string;
  fullAuto: boolean;
  help: boolean;
  version: boolean;
}

/** Global flags work before or after the command (`interpreter -m x acp` = `interpreter acp -m x`). */
export function parseCli(argv: string[]): CliArgs {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      model: { type: "string", short: "m" },
      harness: { type: "string" },
      profile: { type: "string", short: "p" },
      config: { type: "string", short: "c", multiple: true },
      "chat-completions": { type: "boolean" },
      cd: { type: "string", short: "C" },
      mode: { type: "string" },
      "full-auto": { type: "boolean" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "V" },
    },
  });
  const [command = "help", ...rest] = positionals;
  return {
    command,
    positionals: rest,
    overrides: {
      model: values.model,
      harness: values.harness,
      profile: values.profile,
      overrides: values.config ?? [],
      chatCompletions: values["chat-completions"] ?? false,
    },
    cd: values.cd,
    mode: values.mode,
    fullAuto: values["full-auto"] ?? false,
    help: values.help ?? false,
    version: values.version ?? false,
  };
}

export const USAGE = `interpreter — a local coding agent for any OpenAI-compatible model

Usage:
  interpreter acp                 run as an ACP agent on stdio (for Zed, Neovim, JetBrains, ...)
  interpreter exec "<prompt>"     run one prompt to completion and print the answer
  interpreter trust [path]        trust a project: use its .openinterpreter/config.toml

Options:
  -m, --model <id>                model to use
      --harness <id>              tool harness (default: chosen by model family)
  -p, --profile <name>            config profile from config.toml
  -c, --config <key=value>        override a config key (value parsed as TOML)
      --chat-completions          use the chat-completions wire API for the selected provider
  -C, --cd <dir>                  working directory for exec
      --mode <mode>               read-only | workspace-write | auto | full-access (exec)
      --full-auto                 exec: same as --mode full-access
  -h, --help                      show this help
  -V, --version                   print the version

Config: $INTERPRETER_HOME/config.toml (default ~/.openinterpreter/config.toml);
environment: OPENAI_BASE_URL, OPENAI_API_KEY.
`;
