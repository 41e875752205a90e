import type { Command } from "./commands.js";

/** `interpreter <command> --help`: the command's usage line and flags, then the global flags. */
export function commandUsage(command: Command): string {
  const own = command.options ? `\nOptions:\n${command.options}\n` : "";
  return `Usage: interpreter ${command.usage}\n${own}\n${GLOBAL_FLAGS}`;
}

const GLOBAL_FLAGS = `Options for every command:
  -m, --model <id>                model to use
      --harness <id>              tool harness (default: chosen by model family)
  -p, --profile <name>            config profile from config.toml
  -c, --config <key=value>        override a config key (value parsed as TOML)
      --chat-completions          use the chat-completions wire API for the selected provider
  -h, --help                      show this help
  -V, --version                   print the version
`;

/** The help screen, built from the command table. */
export function usage(commands: Record<string, Command>): string {
  const lines = Object.values(commands).map((c) => `  interpreter ${c.usage}`);
  return `interpreter — a local coding agent for any OpenAI-compatible model

Usage:
${lines.join("\n")}

${GLOBAL_FLAGS}
Run \`interpreter <command> --help\` for a command's own options.
Config: $INTERPRETER_HOME/config.toml (default ~/.openinterpreter/config.toml);
environment: OPENAI_BASE_URL, OPENAI_API_KEY.
`;
}
