/** A CLI command: loaded only when it runs, so `interpreter acp` never imports the others. */
export interface Command {
  /** One line for the help screen: the usage shape, then what it does. */
  usage: string;
  load(): Promise<(argv: string[]) => Promise<number>>;
}

/** Every command, in help-screen order. */
export const COMMANDS: Record<string, Command> = {
  acp: {
    usage: "acp                 run as an ACP agent on stdio (for Zed, Neovim, JetBrains, ...)",
    load: async () => (await import("./acp-command.js")).acpCommand,
  },
  exec: {
    usage: 'exec "<prompt>"     run one prompt to completion and print the answer',
    load: async () => (await import("./exec-command.js")).execCommand,
  },
  trust: {
    usage: "trust [path]        trust a project: use its .openinterpreter/config.toml",
    load: async () => (await import("./trust-command.js")).trustCommand,
  },
};
