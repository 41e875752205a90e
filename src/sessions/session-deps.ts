import type { Skill } from "../context/skills/parse-skill.js";
import type { HarnessContext, HarnessEntry } from "../harnesses/types.js";
import type { SessionWindow } from "../providers/served-window.js";
import type { Provider } from "../providers/types.js";
import type { Store } from "../store/types.js";
import type { McpManager } from "../tools/mcp/mcp-manager.js";
import type { SandboxedExec } from "../tools/sandbox/sandboxed-exec.js";
import type { FsPort } from "../tools/types.js";
import type { EconomyOptions, turnEconomy } from "./output-economy.js";

/** The session's MCP servers: started in the background; `ready` settles when all are up or failed. */
export interface McpSetup {
  manager: McpManager;
  ready: Promise<void>;
  /** Config or editor entries that could not be used, for `/mcp`. */
  problems: string[];
}

export interface SessionDeps {
  mcp: McpSetup;
  store: Store;
  harnesses: HarnessEntry[];
  provider(model: string): Provider;
  /** Models to offer in the picker (config + discovered). */
  models(): string[];
  sandbox: SandboxedExec;
  fs: FsPort;
  /**
   * The context window for `model`: config `model_context_window`, else what the server says
   * (probed once per runtime, awaited only by a turn), else the built-in table. Never rejects.
   */
  window(model: string): Promise<SessionWindow>;
  /** `model_auto_compact_token_limit` from config: wins over the harness's compaction rule. */
  autoCompactTokenLimit?: number;
  maxTurnSteps: number;
  /** Instruction files for the session, loaded once in the background. */
  instructions: Promise<HarnessContext["instructions"]>;
  /** The skills catalog, loaded once in the background. */
  skills: Promise<Skill[]>;
  projectRoot: string;
  shell: string;
  /** The user's IANA time zone (local-time-zone.ts). */
  timezone: string;
  now(): Date;
  newId(): string;
  /** Explicit harness from config/CLI, used when the session has none of its own. */
  defaultHarness?: string;
  /** The config file, named where a message tells the user what to set. */
  configFile: string;
  /** What the configuration lacks for a request with `model` to succeed (setup-problem.ts). */
  setupProblem(model: string | undefined): string | undefined;
  /** The session's folder for spilled tool output. */
  scratchDir: string;
  /** A turn's token-ledger fields and tool-output economizer (output-economy.ts). */
  economy(options: EconomyOptions): ReturnType<typeof turnEconomy>;
}
