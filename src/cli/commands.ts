/** A CLI command: loaded only when it runs, so `interpreter acp` never imports the others. */
export interface Command {
  /** One line for the help screen: the usage shape, then what it does. */
  usage: string;
  /** The command's own flags, one per line, for `interpreter <command> --help`. */
  options?: string;
  load(): Promise<(argv: string[]) => Promise<number>>;
}

/** Every command, in help-screen order. */
export const COMMANDS: Record<string, Command> = {
  chat: {
    usage: "chat                interactive chat in this terminal (the default); --resume [ID], --last",
    options: `  -C, --cd <dir>             work in this folder
      --mode <mode>          read-only | workspace-write | auto | full-access
      --full-auto            same as --mode full-access
      --resume [ID]          continue a stored session (an id prefix works; no id: pick one)
      --last                 continue the newest session in this folder
      --daemon               run in the shared daemon: editor windows see this session live
      --in-process           run the agent in this process (the default)`,
    load: async () => (await import("./chat-command.js")).chatCommand,
  },
  acp: {
    usage: "acp                 run as an ACP agent on stdio (for Zed, Neovim, JetBrains, ...)",
    options: `      --in-process           serve this editor in this process, not through the shared daemon
      --daemon               use the shared daemon even when [daemon] enabled = false`,
    load: async () => (await import("./acp-command.js")).acpCommand,
  },
  daemon: {
    usage: "daemon              the shared daemon behind `interpreter acp` (started by it; docs/daemon.md)",
    load: async () => (await import("./daemon-command.js")).daemonCommand,
  },
  "app-server": {
    usage:
      "app-server          Codex's app-server protocol on stdio (codex-acp, Codex IDE; docs/app-server.md)",
    load: async () => (await import("./app-server-command.js")).appServerCommand,
  },
  "mcp-server": {
    usage: "mcp-server          run as an MCP server on stdio: tools codex, codex-reply (docs/mcp-server.md)",
    load: async () => (await import("./mcp-server-command.js")).mcpServerCommand,
  },
  exec: {
    usage:
      'exec "<prompt>"     run one prompt, answer on stdout (read-only; --full-auto, --json, resume ID; docs/exec.md)',
    options: `  -C, --cd <dir>             work in this folder
      --mode <mode>          read-only (default) | workspace-write | auto | full-access
      --full-auto            run confined commands without asking (mode auto)
  -s, --sandbox <policy>     Codex names: read-only | workspace-write | danger-full-access
      --yolo                 full-access, no sandbox (also --dangerously-bypass-approvals-and-sandbox)
      --json                 Codex JSONL events on stdout (also --experimental-json)
  -o, --output-last-message <file>   write the final answer to a file
  -i, --image <file>         attach an image (repeatable)
      --output-schema <file> ask for an answer matching this JSON schema
      --add-dir <dir>        another folder the agent may write to (repeatable)
      --daemon               run the turn in the shared daemon (started if none runs)
      --in-process           run the agent in this process (the default)
  resume <ID> | resume --last        continue a stored session
  The prompt is read from stdin when it is "-" or missing and stdin is not a terminal.`,
    load: async () => (await import("./exec-command.js")).execCommand,
  },
  trust: {
    usage: "trust [path]        trust a project: use its .openinterpreter/config.toml",
    load: async () => (await import("./trust-command.js")).trustCommand,
  },
  sessions: {
    usage: "sessions [show|export|rm ID]  list stored sessions, or show, export (json|md) or delete one",
    options: `      --json                 machine-readable list
      --cwd <dir>            only sessions started in this folder
      --limit <n>            how many to list (default 20)
      --archived             list the archived sessions instead
      --format json|md       export format (default json, or md for an -o file ending .md)
  -o, --output <file>        export to a file instead of stdout
      --reasoning            show: include the model's reasoning`,
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
    options: `      --since <7d|24h|DATE>  only requests since then
      --by model|harness|session   how to group (default model)
      --json                 machine-readable report`,
    load: async () => (await import("./usage-command.js")).usageCommand,
  },
  doctor: {
    usage:
      "doctor              check Node, home, config, endpoint, harness, sandbox and MCP servers (--json)",
    options: `      --json                 machine-readable report
      --timeout <seconds>    bound for each network check and MCP start (default 10)`,
    load: async () => (await import("./doctor-command.js")).doctorCommand,
  },
};
