import type { Config } from "../config/types.js";
import type { Skill } from "../context/skills/parse-skill.js";
import type { HarnessContext, HarnessEntry } from "../harnesses/types.js";
import type { Wire } from "../providers/model-request.js";
import type { SessionWindow } from "../providers/served-window.js";
import type { Provider } from "../providers/types.js";
import type { Store } from "../store/types.js";
import type { SandboxedExec } from "../tools/sandbox/sandboxed-exec.js";
import type { FsPort } from "../tools/types.js";
import type { WebAccess } from "../tools/web/types.js";
import type { EconomyOptions, turnEconomy } from "./output-economy.js";
import type { SessionMcp } from "./session-mcp.js";
import type { SubagentHost } from "./session-subagents.js";

/** The model endpoint as a session sees it, for whichever model the session has now. */
export interface SessionEndpoint {
  provider(model: string): Provider;
  /** Models to offer in the picker (config + discovered). */
  models(): string[];
  /**
   * The context window for `model`: config `model_context_window`, else what the server says
   * (probed once per runtime, awaited only by a turn), else the built-in table. Never rejects.
   */
  window(model: string): Promise<SessionWindow>;
  /** What the configuration lacks for a request with `model` to succeed (setup-problem.ts). */
  setupProblem(model: string | undefined): string | undefined;
  /** The wire the endpoint speaks: harnesses lay some requests out per wire. */
  wire: Wire;
  /** The config file, named where a message tells the user what to set. */
  configFile: string;
  /** `model_auto_compact_token_limit` from config: wins over the harness's compaction rule. */
  autoCompactTokenLimit?: number;
  /** Upper bound of model requests in one turn. */
  maxTurnSteps: number;
  /** Whether the models accept images (config `model_supports_images`, the provider's default). */
  images: boolean;
  /** `[web] small_model`: answers the fetch tools' questions about a page; unset: the session's model. */
  smallModel?: string;
}

/** Where the session works and how it touches it. */
export interface SessionWorkspace {
  /** Runs commands, confined by bubblewrap in the sandboxed modes. */
  sandbox: SandboxedExec;
  fs: FsPort;
  projectRoot: string;
  /** The session's folder for spilled tool output. */
  scratchDir: string;
}

/** What harnesses are told about the session beyond its record (harness-context.ts). */
export interface SessionContext {
  /** Instruction files for the session, loaded once in the background. */
  instructions: Promise<HarnessContext["instructions"]>;
  /** The skills catalog, loaded once in the background. */
  skills: Promise<Skill[]>;
  /** The repository's state at session start, read once in the background. */
  git?: Promise<HarnessContext["git"]>;
  shell: string;
  /** The user's IANA time zone (local-time-zone.ts). */
  timezone: string;
}

/** What a session is built from; the session manager makes one per session. */
export interface SessionDeps {
  store: Store;
  /** Injected so that transcripts are stable in tests. */
  clock: { now(): Date; newId(): string };
  /** Every harness, and the explicit choice of config or CLI for sessions without their own. */
  harnesses: { list: HarnessEntry[]; explicit?: string };
  endpoint: SessionEndpoint;
  workspace: SessionWorkspace;
  context: SessionContext;
  mcp: SessionMcp;
  /** A turn's token-ledger fields and tool-output economizer (output-economy.ts). */
  economy(options: EconomyOptions): ReturnType<typeof turnEconomy>;
  /** What the web tools fetch and search with. */
  web: WebAccess;
  /** Where the session's subagents are started, and their limits. */
  agents: SubagentHost;
  /** Set for a subagent's session: the harness opens its original's profile of this type. */
  subagent?: { type: string };
}

/** What a session's endpoint takes straight from config. */
export function configuredEndpoint(
  config: Config,
): Pick<
  SessionEndpoint,
  "configFile" | "wire" | "autoCompactTokenLimit" | "maxTurnSteps" | "images" | "smallModel"
> {
  return {
    configFile: config.file,
    wire: config.provider.wireApi,
    autoCompactTokenLimit: config.autoCompactTokenLimit,
    maxTurnSteps: config.maxTurnSteps,
    images: config.modelSupportsImages,
    ...(config.web.smallModel ? { smallModel: config.web.smallModel } : {}),
  };
}
