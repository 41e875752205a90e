import { z } from "zod";
import { MODES, REASONING_EFFORTS, REASONING_SUMMARIES } from "./types.js";

/**
 * The keys we read from `config.toml`, a profile table, or the `-c` overrides. Every field is
 * optional and has no default here, so layers can be merged before defaults apply (see
 * load-config.ts). Every object is loose: the file is shared with upstream Open Interpreter and
 * Codex-style keys we do not know must survive. Error texts complete the sentence
 * "<key>: expected ..., got <value>".
 */

const nonEmptyString = z
  .string({ error: "expected a string" })
  .min(1, { error: "expected a non-empty string" });

function intBetween(min: number, max?: number) {
  const expected =
    max === undefined
      ? min === 1
        ? "expected a positive integer"
        : `expected an integer of at least ${min}`
      : `expected an integer between ${min} and ${max}`;
  const schema = z.number({ error: expected }).int({ error: expected }).min(min, { error: expected });
  return max === undefined ? schema : schema.max(max, { error: expected });
}

export function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

const httpUrl = z
  .string({ error: "expected an http(s) URL" })
  .refine(isHttpUrl, { error: "expected an http(s) URL" });

const stringTable = z.record(z.string(), z.string({ error: "expected a string" }), {
  error: "expected a table of strings",
});

const quoted = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(", ");

export const WIRE_APIS = ["chat", "responses", "messages"] as const;
export const REASONING_BACKS = ["present", "never"] as const;
export const AUTH_STYLES = ["x-api-key", "bearer"] as const;
/** Anthropic's smallest extended-thinking budget. */
export const MIN_THINKING_BUDGET = 1024;
/** Upstream (Codex) `sandbox_mode` values; `danger-full-access` is our `full-access`. */
export const SANDBOX_MODES = ["read-only", "workspace-write", "danger-full-access"] as const;

export const ProviderTable = z.looseObject(
  {
    name: nonEmptyString.optional(),
    base_url: httpUrl.optional(),
    env_key: nonEmptyString.optional(),
    wire_api: z.enum(WIRE_APIS, { error: `expected one of ${quoted(WIRE_APIS)}` }).optional(),
    /** Chat: send assistant reasoning back as `reasoning_content` or never. */
    reasoning_back: z
      .enum(REASONING_BACKS, { error: `expected one of ${quoted(REASONING_BACKS)}` })
      .optional(),
    /** Fields added to every request body (merged key by key over a preset's). */
    extra_body: z.record(z.string(), z.unknown(), { error: "expected a table" }).optional(),
    /** Messages: how the key is sent. */
    auth_style: z.enum(AUTH_STYLES, { error: `expected one of ${quoted(AUTH_STYLES)}` }).optional(),
    http_headers: stringTable.optional(),
    query_params: stringTable.optional(),
    request_max_retries: intBetween(0, 100).optional(),
    stream_idle_timeout_ms: intBetween(1).optional(),
    /** Whether the provider's models accept images (default true; false for text-only APIs). */
    supports_images: z.boolean({ error: "expected true or false" }).optional(),
  },
  { error: "expected a table" },
);
export type ProviderTable = z.infer<typeof ProviderTable>;

const pricePerMillion = z
  .number({ error: "expected a non-negative number (price per million tokens)" })
  .min(0, { error: "expected a non-negative number (price per million tokens)" });

/**
 * `[model_prices."<model>"]`: prices per million tokens; `cached_input` (cache reads) and
 * `cache_write` (Anthropic's cache writes) default to `input`.
 */
export const ModelPriceTable = z.looseObject(
  {
    input: pricePerMillion,
    output: pricePerMillion,
    cached_input: pricePerMillion.optional(),
    cache_write: pricePerMillion.optional(),
    currency: nonEmptyString.optional(),
  },
  { error: "expected a table with input and output prices per million tokens" },
);

export const SEARCH_BACKENDS = ["brave", "tavily", "exa", "searxng"] as const;

const stringList = z.array(nonEmptyString, { error: "expected an array of strings" });

/** `[web]`: what the fetch tools may reach and how much they read (web-settings.ts resolves it). */
export const WebTable = z.looseObject(
  {
    /** Hosts fetched without asking (`docs.python.org`, `*.rust-lang.org`). */
    allowed_hosts: stringList.optional(),
    /** Private, loopback or link-local hosts and addresses the fetch tools may reach anyway. */
    allow_private: stringList.optional(),
    max_bytes: intBetween(1).optional(),
    timeout_ms: intBetween(1).optional(),
    max_redirects: intBetween(0, 20).optional(),
    /** The model that answers a fetch tool's question about a page; unset: the session's model. */
    small_model: nonEmptyString.optional(),
  },
  { error: "expected a table" },
);

/** `[sandbox]`: how sandboxed commands are started (our key; read from the user's config only). */
export const SandboxTable = z.looseObject(
  {
    /** Fork sandboxed commands in one confined helper per sandbox (docs/security.md). Default true. */
    per_session_helper: z.boolean({ error: "expected true or false" }).optional(),
  },
  { error: "expected a table" },
);

/** `[agents]`: Codex's keys for how far and how wide subagents may go. */
export const AgentsTable = z.looseObject(
  {
    /** How many subagents deep a subagent may be started (1: the session's own agent may start them, they may not). */
    max_depth: intBetween(0, 8).optional(),
    /** Subagents running at the same time across the daemon. */
    max_threads: intBetween(1, 64).optional(),
  },
  { error: "expected a table" },
);

/** `[daemon]`: the shared daemon behind `interpreter acp` (docs/daemon.md). */
export const CLIENT_GONE = ["finish", "cancel"] as const;
export const DaemonTable = z.looseObject(
  {
    /** false: every `interpreter acp` runs its own agent in-process, as `--in-process` does. */
    enabled: z.boolean({ error: "expected true or false" }).optional(),
    /** Seconds the daemon stays with no window connected and no turn running; 0 exits at once. */
    idle_exit_secs: intBetween(0, 86_400).optional(),
    /** What a running turn does when its window goes away. */
    on_client_gone: z.enum(CLIENT_GONE, { error: `expected one of ${quoted(CLIENT_GONE)}` }).optional(),
  },
  { error: "expected a table" },
);

/** Codex's own `web_search` key takes a mode; the Codex SDK sets it with `-c web_search="…"`. */
export const CODEX_WEB_SEARCH_MODES = ["disabled", "cached", "live"] as const;

const webSearchExpected = `expected a table with a backend, or one of ${quoted(CODEX_WEB_SEARCH_MODES)}`;

/** `[web_search]`: the search API the search tools call. */
export const WebSearchTable = z.looseObject(
  {
    backend: z.enum(SEARCH_BACKENDS, { error: `expected one of ${quoted(SEARCH_BACKENDS)}` }),
    api_key: nonEmptyString.optional(),
    env_key: nonEmptyString.optional(),
    base_url: httpUrl.optional(),
    max_results: intBetween(1, 50).optional(),
  },
  { error: webSearchExpected },
);

/** The table, or Codex's mode: "disabled" turns the search tools' backend off, the others leave it as configured. */
export const WebSearchSetting = z.union([
  z.enum(CODEX_WEB_SEARCH_MODES, { error: webSearchExpected }),
  WebSearchTable,
]);

const thinkingBudgetExpected = `expected a number of tokens, an integer of at least ${MIN_THINKING_BUDGET}`;

/** One layer: the file's top level, a selected profile, or the `-c` overrides. */
export const ConfigLayer = z.looseObject(
  {
    model: nonEmptyString.optional(),
    model_provider: nonEmptyString.optional(),
    models: z
      .array(z.string({ error: "expected a string" }), { error: "expected an array of strings" })
      .optional(),
    harness: nonEmptyString.optional(),
    mode: z.enum(MODES, { error: `expected one of ${quoted(MODES)}` }).optional(),
    sandbox_mode: z.enum(SANDBOX_MODES, { error: `expected one of ${quoted(SANDBOX_MODES)}` }).optional(),
    model_context_window: intBetween(1).optional(),
    /** Whether the session's model accepts images; wins over the provider's `supports_images`. */
    model_supports_images: z.boolean({ error: "expected true or false" }).optional(),
    model_auto_compact_token_limit: intBetween(1).optional(),
    max_turn_steps: intBetween(1).optional(),
    model_reasoning_effort: z
      .enum(REASONING_EFFORTS, { error: `expected one of ${quoted(REASONING_EFFORTS)}` })
      .optional(),
    model_reasoning_summary: z
      .enum(REASONING_SUMMARIES, { error: `expected one of ${quoted(REASONING_SUMMARIES)}` })
      .optional(),
    model_thinking_budget: z
      .number({ error: thinkingBudgetExpected })
      .int({ error: thinkingBudgetExpected })
      .min(MIN_THINKING_BUDGET, { error: thinkingBudgetExpected })
      .optional(),
    model_providers: z.record(z.string(), ProviderTable, { error: "expected a table" }).optional(),
    mcp_servers: z.record(z.string(), z.unknown(), { error: "expected a table" }).optional(),
    model_prices: z.record(z.string(), ModelPriceTable, { error: "expected a table" }).optional(),
    web: WebTable.optional(),
    sandbox: SandboxTable.optional(),
    agents: AgentsTable.optional(),
    daemon: DaemonTable.optional(),
    web_search: WebSearchSetting.optional(),
    /** Codex's key for the built-in `openai` provider's URL (the Codex SDK passes its `baseUrl` so). */
    openai_base_url: httpUrl.optional(),
    profile: nonEmptyString.optional(),
    // Only the selected profile is validated in full (load-config.ts): the file is shared with
    // upstream, and a profile we never apply should not stop the daemon.
    profiles: z
      .record(z.string(), z.looseObject({}, { error: "expected a table" }), { error: "expected a table" })
      .optional(),
  },
  { error: "expected a table" },
);
export type ConfigLayer = z.infer<typeof ConfigLayer>;
