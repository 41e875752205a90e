/** A CLI command: loaded only when it runs, so `interpreter acp` never imports the others. */
export interface Command {
  /** One line for the help screen: the usage shape, then what it does. */
  usage: string;
  load(): Promise<(argv: string[]) => Promise<number>>;
}

/** Every command, in help-screen order. */
export const COMMANDS: Record<string, Command> = {
  chat: {
    usage: "chat                interactive chat in this terminal (the default); --resume [ID], --last",
    load: async () => (await import("./chat-command.js")).chatCommand,
  },
  acp: {
    usage: "acp                 run as an ACP agent on stdio (for Zed, Neovim, JetBrains, ...)",
    load: async () => (await import("./acp-command.js")).acpCommand,
  },
  exec: {
    usage:
      'exec "<prompt>"     run one prompt, answer on stdout (read-only; --full-auto, --json, resume ID; docs/exec.md)',
    load: async () => (await import("./exec-command.js")).execCommand,
  },
  trust: {
    usage: "trust [path]        trust a project: use its .openinterpreter/config.toml",
    load: async () => (await import("./trust-command.js")).trustCommand,
  },
  sessions: {
    usage: "sessions [show|export|rm ID]  list stored sessions, or show, export (json|md) or delete one",
    load: async () => (await import("./sessions-command.js")).sessionsCommand,
  },
  resume: {
    usage: "resume [ID|--last]  continue a stored session in the interactive chat",
    load: async () => {
      const [{ chatCommand }, { resumeArgs }] = await Promise.all([
        import("./chat-command.js"),
        import("./sessions/resume-args.js"),
      ]);
      return (argv) => chatCommand(resumeArgs(argv));
    },
  },
  usage: {
    usage: "usage [--since 7d|DATE] [--by model|harness|session] [--json]  tokens and cost from the ledger",
    load: async () => (await import("./usage-command.js")).usageCommand,
  },
  doctor: {
    usage:
      "doctor              check Node, home, config, endpoint, harness, sandbox and MCP servers (--json)",
    load: async () => (await import("./doctor-command.js")).doctorCommand,
  },
};
