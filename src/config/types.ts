/** The one validated configuration the rest of the daemon sees. */

export type WireApi = "chat" | "responses" | "messages";
/**
 * Chat: whether assistant reasoning goes back as `reasoning_content`. DeepSeek and Kimi thinking
 * models require it on later requests, strict servers (OpenAI, Mistral) reject the field;
 * `present` sends it where the request has reasoning (an empty part included).
 */
export type ReasoningBack = "present" | "never";
/** Messages: the key as Anthropic's `x-api-key` header or as a bearer token. */
export type AuthStyle = "x-api-key" | "bearer";

export interface ProviderConfig {
  id: string;
  name: string;
  baseUrl: string;
  /** Name of the environment variable that holds the key. */
  envKey?: string;
  /** The key itself, resolved from `envKey` (never logged, never stored). */
  apiKey?: string;
  wireApi: WireApi;
  /** Where to get a key, for messages about an unset `envKey` (presets only). */
  keysUrl?: string;
  /** Quirks, from the preset and `reasoning_back`, `extra_body`, `auth_style` (unset: the wire's default). */
  reasoningBack?: ReasoningBack;
  extraBody?: Record<string, unknown>;
  authStyle?: AuthStyle;
  httpHeaders: Record<string, string>;
  queryParams: Record<string, string>;
  requestMaxRetries: number;
  streamIdleTimeoutMs: number;
  /** `supports_images` (the preset's or the table's); unset means the models accept images. */
  supportsImages?: boolean;
}

export const REASONING_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh"] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];
export const REASONING_SUMMARIES = ["auto", "concise", "detailed", "none"] as const;
export type ReasoningSummary = (typeof REASONING_SUMMARIES)[number];

/** Prices per million tokens, from `[model_prices."<model>"]`. */
export interface ModelPrice {
  input: number;
  cachedInput: number;
  /** Tokens written to the prompt cache (Anthropic bills them above input). */
  cacheWrite: number;
  output: number;
  /** ISO 4217 code or another unit; default `USD`. */
  currency: string;
}

/**
 * `plan`: only read-only tools run (and writes to the session's plan file) until the user approves
 * a plan; the mode before it comes back then.
 */
export type Mode = "read-only" | "workspace-write" | "auto" | "full-access" | "plan";
export const MODES: readonly Mode[] = ["read-only", "workspace-write", "auto", "full-access", "plan"];

export interface Config {
  /** `$INTERPRETER_HOME`, default `~/.openinterpreter`. */
  home: string;
  /** Path of the config file that was read (it may not exist). */
  file: string;
  /** The selected model id, if any was configured. */
  model?: string;
  /** The selected provider (from `model_provider`, default `openai`). */
  provider: ProviderConfig;
  /** Every configured provider, built-ins included. */
  providers: Record<string, ProviderConfig>;
  /** Extra model ids to offer in the picker (config `models = [...]`). */
  models: string[];
  /** Explicit harness choice (`harness` key or `--harness`); unset means automatic. */
  harness?: string;
  /** Where `harness` was set, for messages: `--harness`, `-c harness`, or the file and key. */
  harnessSource?: string;
  /** Default permission mode for new sessions. */
  mode: Mode;
  /**
   * `model_context_window` as configured, for every model of the session; unset means each
   * model's window is what its server reports, else the built-in table (`contextWindowFor`).
   */
  modelContextWindow?: number;
  /**
   * Whether the session's models accept images: `model_supports_images`, else the provider's
   * `supports_images`, else true. A model that does not gets a text result instead of an image.
   */
  modelSupportsImages: boolean;
  /** `model_auto_compact_token_limit`: compact at this many tokens instead of the harness's rule. */
  autoCompactTokenLimit?: number;
  /** `model_reasoning_effort` and `model_reasoning_summary` (Codex's keys); a harness's knobs win. */
  reasoning?: { effort?: ReasoningEffort; summary?: ReasoningSummary };
  /** `model_thinking_budget`: extended-thinking tokens on the Messages wire. */
  thinkingBudget?: number;
  /** Upper bound of model requests in one turn. */
  maxTurnSteps: number;
  /** Per-session MCP servers from `[mcp_servers.*]`, kept verbatim for a later layer. */
  mcpServers: Record<string, unknown>;
  /** Prices by model id, for the token ledger's costs. */
  modelPrices: Record<string, ModelPrice>;
  /** `[web]`: what the fetch tools may reach and read. */
  web: WebConfig;
  /**
   * `[sandbox] per_session_helper`: sandboxed commands fork in one confined helper per sandbox
   * where a pids cgroup can be made (default), else each gets a sandbox of its own.
   */
  sandbox: { perSessionHelper: boolean };
  /** `[web_search]`: the search API; unset when none is configured, "disabled" when Codex's mode turned it off. */
  webSearch?: WebSearchConfig | "disabled";
  /** `[agents]`: the subagent limits. */
  agents: AgentsConfig;
  /** `[daemon]`: the shared daemon behind `interpreter acp`. */
  daemon: DaemonConfig;
}

/** The shared daemon's lifetime and what a window's departure does (docs/daemon.md). */
export interface DaemonConfig {
  /** Whether `interpreter acp` is a proxy to the shared daemon (default) or its own agent. */
  enabled: boolean;
  /** How long the daemon waits with no window and no running turn before it exits. */
  idleExitMs: number;
  /** A running turn whose window went away runs to its end (`finish`) or is cancelled. */
  onClientGone: "finish" | "cancel";
}

/** How far and how wide subagents may go (Codex's `[agents]` keys and defaults). */
export interface AgentsConfig {
  /** Subagent levels below a session the editor opened; 0 turns subagents off. */
  maxDepth: number;
  /** Subagents running at the same time in one daemon. */
  maxThreads: number;
}

/**
 * One `allow_private` entry: a CIDR range, an address, or a host name (each but a range with an
 * optional port) whose private, loopback or link-local addresses the fetch tools may reach.
 */
export type PrivateAllowance =
  | { kind: "range"; address: string; prefix: number; family: 4 | 6; text: string }
  | { kind: "address"; address: string; family: 4 | 6; port?: number; text: string }
  | { kind: "host"; name: string; port?: number; text: string };

export interface WebConfig {
  /** Host patterns fetched without asking (`example.com`, `*.example.com`), lower case. */
  allowedHosts: string[];
  allowPrivate: PrivateAllowance[];
  /** Body bytes read at most per response. */
  maxBytes: number;
  /** Upper bound of one fetch, redirects included. */
  timeoutMs: number;
  maxRedirects: number;
  /** The model that answers a fetch tool's question about a page; unset: the session's model. */
  smallModel?: string;
}

export type SearchBackend = "brave" | "tavily" | "exa" | "searxng";

export interface WebSearchConfig {
  backend: SearchBackend;
  /** Resolved from `api_key` or `env_key` (never logged, never sent to a model). */
  apiKey?: string;
  /** The variable the key is read from, for the message when it is unset. */
  keyEnv?: string;
  baseUrl: string;
  maxResults: number;
}

export interface CliOverrides {
  model?: string;
  harness?: string;
  profile?: string;
  /** `-c key=value` pairs; the value is parsed as TOML, falling back to a plain string. */
  overrides?: string[];
  /** `--chat-completions`: force `wire_api = "chat"` for the selected provider. */
  chatCompletions?: boolean;
}

export interface LoadConfigOptions {
  env: Record<string, string | undefined>;
  cli?: CliOverrides;
  /** Home directory of the user (for the `~/.openinterpreter` default). */
  userHome: string;
}

/** A config problem: names the file, the key and what was expected. */
export class ConfigError extends Error {
  readonly code = "config_invalid";
  constructor(
    message: string,
    readonly file: string,
    readonly key?: string,
  ) {
    super(message);
    this.name = "ConfigError";
  }
}
