import os from "node:os";
import type { AgentLink } from "../acp/agent-link.js";
import { loadConfig } from "../config/load-config.js";
import type { CliOverrides, Config } from "../config/types.js";
import { daemonSocket } from "./daemon-target.js";
import { runtimeOrReport } from "./runtime.js";

/** The agent one of our own clients talks to, with the config it runs on. */
export interface AgentSource {
  link: AgentLink;
  config: Config;
  /** Ends the connection (the daemon's sessions go on per `on_client_gone`), or shuts the in-process runtime down. */
  close(): Promise<void>;
  /** Why the agent went away before `close()` (the daemon stopped), for the user instead of the SDK's error. */
  lost(): string | undefined;
}

/**
 * The agent for `exec` and the chat: the shared daemon's (`daemon`, started if none answers) or
 * one built in this process. A daemon that cannot be used falls back to this process, the
 * reason on stderr as the proxy gives it. Undefined when neither can run (a config error,
 * written to stderr).
 */
export async function openAgentSource(options: {
  overrides: CliOverrides;
  env: NodeJS.ProcessEnv;
  daemon: boolean;
}): Promise<AgentSource | undefined> {
  const { overrides, env } = options;
  if (options.daemon) {
    const say = (text: string) => void process.stderr.write(`interpreter: ${text}\n`);
    // Asked for on the command line: used even when `[daemon] enabled = false`, as `acp --daemon`.
    const reached = await daemonSocket({ overrides, env, force: true, say });
    if (reached) {
      const { socket, config } = reached;
      let closing = false;
      let dropped = false;
      // Listened for before the SDK's stream is: set by the time it rejects what was pending.
      for (const event of ["end", "error", "close"])
        socket.once(event, () => {
          if (!closing) dropped = true;
        });
      return {
        link: { socket },
        config,
        lost: () => (dropped ? DAEMON_LOST : undefined),
        close: () =>
          new Promise<void>((resolve) => {
            closing = true;
            if (socket.destroyed) return resolve();
            socket.once("close", () => resolve());
            socket.end();
            // A daemon that does not close its end cannot hold the command up.
            setTimeout(() => {
              socket.destroy();
              resolve();
            }, 1_000).unref();
          }),
      };
    }
  }
  const runtime = runtimeOrReport({ cli: overrides, env });
  if (!runtime) return undefined;
  return {
    link: { manager: runtime.manager, logger: runtime.logger },
    config: runtime.config,
    close: () => runtime.shutdown(),
    lost: () => undefined,
  };
}

const DAEMON_LOST =
  "the openinterpreter daemon stopped during this run; what the turn did until then is kept in the session (`interpreter exec resume` or a window can load it)";

/** The flags that choose: `--daemon`, or `--in-process` (the default of `exec` and the chat, said explicitly). */
export const AGENT_OPTIONS = { daemon: { type: "boolean" }, "in-process": { type: "boolean" } } as const;

/** Whether the flags ask for the daemon; a sentence for the usage error when they contradict each other. */
export function wantsDaemon(values: { daemon?: boolean; "in-process"?: boolean }): boolean | string {
  if (values.daemon && values["in-process"]) return "--daemon and --in-process exclude each other";
  return values.daemon === true;
}

/** The config alone (the chat's first-run check comes before any agent); a config error goes to stderr. */
export function configOrReport(overrides: CliOverrides, env: NodeJS.ProcessEnv): Config | undefined {
  try {
    return loadConfig({ env, cli: overrides, userHome: env.HOME ?? os.homedir() });
  } catch (error) {
    process.stderr.write(`interpreter: ${error instanceof Error ? error.message : String(error)}\n`);
    return undefined;
  }
}
