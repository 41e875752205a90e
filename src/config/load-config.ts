import fs from "node:fs";
import path from "node:path";
import { parse, TomlError } from "smol-toml";
import { builtinProviders, nonEmpty } from "./builtin-providers.js";
import { parseCliOverrides } from "./cli-overrides.js";
import type { ConfigLayer } from "./config-schema.js";
import { resolveHome } from "./home.js";
import { findPreset } from "./provider-presets.js";
import { resolveProvider } from "./resolve-provider.js";
import { deepMerge, formatKeyPath, type Table, UNSAFE_KEYS, valueAt } from "./tables.js";
import {
  type Config,
  ConfigError,
  type LoadConfigOptions,
  type Mode,
  type ModelPrice,
  type ProviderConfig,
} from "./types.js";
import { scrubSecrets, secretsFromEnv, validateLayer } from "./validate-layer.js";
import { webSearchSettings, webSettings } from "./web-settings.js";

export const DEFAULT_MAX_TURN_STEPS = 100;
/** Codex's `agents.max_depth` and `agents.max_threads` defaults. */
export const DEFAULT_AGENT_MAX_DEPTH = 1;
export const DEFAULT_AGENT_MAX_THREADS = 6;
/** Five minutes: a window reopened soon after the last one closed finds its sessions still warm. */
export const DEFAULT_IDLE_EXIT_SECS = 300;

/**
 * Reads `$INTERPRETER_HOME/config.toml` and layers, lowest first: defaults (built-in providers),
 * the file, the selected profile (`--profile`, else `profile = ...`), the `-c` overrides, then
 * `--model`, `--harness` and `--chat-completions`. A missing file means defaults.
 * Throws `ConfigError` (never containing an API key) for anything it cannot use.
 */
export function loadConfig(options: LoadConfigOptions): Config {
  const { env } = options;
  const cli = options.cli ?? {};
  const home = resolveHome(env, options.userHome);
  const file = path.join(home, "config.toml");
  const secrets = secretsFromEnv(env);
  const fail = (message: string, key?: string) => new ConfigError(scrubSecrets(message, secrets), file, key);

  const fromFile = validateLayer(readToml(file, secrets), { file, label: file, secrets });
  const fromCli = validateLayer(parseCliOverrides(cli.overrides ?? [], file), { file, label: "-c", secrets });

  // `-c profiles.<name>.key=...` edits a profile before it is applied, as in Codex.
  const profiles: Table = deepMerge(fromFile.profiles ?? {}, fromCli.profiles ?? {});
  const profileName = cli.profile ?? fromCli.profile ?? fromFile.profile;
  let user = asLayer(fromFile);
  if (profileName !== undefined) {
    const raw = profiles[profileName];
    if (raw === undefined) {
      const known = Object.keys(profiles).sort();
      throw fail(
        `${file}: profile ${JSON.stringify(profileName)} is not defined; ${
          known.length > 0
            ? `known profiles: ${known.join(", ")}`
            : "the file has no [profiles.<name>] tables"
        }`,
        "profile",
      );
    }
    const prefix = ["profiles", profileName];
    user = deepMerge(user, asLayer(validateLayer(raw, { file, label: file, prefix, secrets })));
  }
  user = deepMerge(user, asLayer(fromCli));

  // Codex's `openai_base_url` key moves the built-in provider as OPENAI_BASE_URL does, and wins over it.
  const urlEnv = user.openai_base_url === undefined ? env : { ...env, OPENAI_BASE_URL: user.openai_base_url };
  const builtins = builtinProviders(urlEnv);
  const tables = deepMerge(builtins, user.model_providers ?? {});
  const openaiFromEnv =
    nonEmpty(urlEnv.OPENAI_BASE_URL) !== undefined && user.model_providers?.openai?.base_url === undefined;
  const providerId = user.model_provider ?? "openai";
  if (tables[providerId] === undefined) {
    throw fail(
      `${fromCli.model_provider === undefined ? file : "-c"}: model_provider = ${JSON.stringify(providerId)} names an unknown provider; known providers: ${Object.keys(tables).sort().join(", ")}`,
      "model_provider",
    );
  }

  const providers: Record<string, ProviderConfig> = {};
  for (const [id, table] of Object.entries(tables)) {
    const resolved = resolveProvider(id, table, { env, baseUrlFromEnv: id === "openai" && openaiFromEnv });
    if ("problem" in resolved) {
      // An unusable provider that is not selected is left out rather than failing the daemon:
      // upstream's config may carry tables that complete a catalog entry we do not ship.
      if (id === providerId) throw fail(`${file}: ${resolved.problem}`, resolved.key);
      continue;
    }
    if (id === providerId && cli.chatCompletions) resolved.wireApi = "chat";
    providers[id] = resolved;
  }
  const provider = providers[providerId] as ProviderConfig;
  if (cli.chatCompletions) {
    const preset = findPreset(providerId);
    // A messages-only service has no Chat Completions endpoint at its base URL to force.
    if (preset?.wire === "messages" && provider.baseUrl === preset.baseUrl) {
      throw fail(
        `--chat-completions: ${providerId} (${preset.baseUrl}) serves only the Anthropic Messages API; select a provider with a Chat Completions endpoint (docs/providers.md lists them) or drop --chat-completions`,
        "model_provider",
      );
    }
  }
  const model = cli.model ?? user.model;
  const web = webSettings(user.web, file);
  const webSearch = webSearchSettings(user.web_search, { file, env });
  const harness = cli.harness ?? user.harness;
  const harnessSource = settingSource({
    key: "harness",
    flag: cli.harness !== undefined ? "--harness" : undefined,
    file,
    layers: { file: fromFile, cli: fromCli },
    profile: profileName,
  });
  return {
    home,
    file,
    ...(model === undefined ? {} : { model }),
    provider,
    providers,
    models: user.models ?? [],
    ...(harness === undefined ? {} : { harness, harnessSource }),
    mode: user.mode ?? "workspace-write",
    modelContextWindow: user.model_context_window,
    modelSupportsImages: user.model_supports_images ?? provider.supportsImages ?? true,
    autoCompactTokenLimit: user.model_auto_compact_token_limit,
    ...reasoningSettings(user),
    maxTurnSteps: user.max_turn_steps ?? DEFAULT_MAX_TURN_STEPS,
    mcpServers: user.mcp_servers ?? {},
    modelPrices: modelPrices(user.model_prices ?? {}),
    web,
    sandbox: { perSessionHelper: user.sandbox?.per_session_helper ?? true },
    ...(webSearch ? { webSearch } : {}),
    agents: {
      maxDepth: user.agents?.max_depth ?? DEFAULT_AGENT_MAX_DEPTH,
      maxThreads: user.agents?.max_threads ?? DEFAULT_AGENT_MAX_THREADS,
    },
    daemon: {
      enabled: user.daemon?.enabled ?? true,
      idleExitMs: (user.daemon?.idle_exit_secs ?? DEFAULT_IDLE_EXIT_SECS) * 1000,
      onClientGone: user.daemon?.on_client_gone ?? "finish",
    },
  };
}

function reasoningSettings(user: ConfigLayer): Pick<Config, "reasoning" | "thinkingBudget"> {
  const effort = user.model_reasoning_effort;
  const summary = user.model_reasoning_summary;
  const budget = user.model_thinking_budget;
  return {
    ...(effort === undefined && summary === undefined
      ? {}
      : {
          reasoning: {
            ...(effort === undefined ? {} : { effort }),
            ...(summary === undefined ? {} : { summary }),
          },
        }),
    ...(budget === undefined ? {} : { thinkingBudget: budget }),
  };
}

/**
 * Where a top-level setting came from, for messages that name the bad value's origin: the flag,
 * `-c <key>`, the profile's key, or the file's key (highest layer first, as they are applied).
 */
function settingSource(options: {
  key: string;
  flag: string | undefined;
  file: string;
  layers: { file: ConfigLayer; cli: ConfigLayer };
  profile: string | undefined;
}): string {
  const { key, file, layers, profile } = options;
  if (options.flag) return options.flag;
  if (valueAt(layers.cli, [key]) !== undefined) return `-c ${key}`;
  if (profile !== undefined) {
    const path = ["profiles", profile, key];
    if (valueAt(layers.cli, path) !== undefined) return `-c ${formatKeyPath(path)}`;
    if (valueAt(layers.file, path) !== undefined) return `${file}: ${formatKeyPath(path)}`;
  }
  return `${file}: ${key}`;
}

function modelPrices(tables: NonNullable<ConfigLayer["model_prices"]>): Record<string, ModelPrice> {
  const prices: Record<string, ModelPrice> = {};
  for (const [model, t] of Object.entries(tables)) {
    if (UNSAFE_KEYS.has(model)) continue;
    prices[model] = {
      input: t.input,
      cachedInput: t.cached_input ?? t.input,
      cacheWrite: t.cache_write ?? t.input,
      output: t.output,
      currency: t.currency ?? "USD",
    };
  }
  return prices;
}

function readToml(file: string, secrets: readonly string[]): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new ConfigError(`${file}: cannot read the config file: ${(error as Error).message}`, file);
  }
  try {
    return parse(text);
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    // The first line only: smol-toml appends an excerpt of the file, which may hold a secret.
    const reason = (error.message.split("\n")[0] ?? "").replace(/^Invalid TOML document:\s*/, "");
    throw new ConfigError(
      scrubSecrets(`${file}:${error.line}:${error.column}: TOML syntax error: ${reason}`, secrets),
      file,
    );
  }
}

const SANDBOX_TO_MODE: Record<string, Mode> = {
  "read-only": "read-only",
  "workspace-write": "workspace-write",
  "danger-full-access": "full-access",
};

/**
 * A validated layer ready to merge: upstream's `sandbox_mode` becomes `mode` within the same
 * layer (so a profile's `sandbox_mode` beats the file's `mode`), and the profile keys go,
 * since profiles are applied, not merged.
 */
function asLayer(layer: ConfigLayer): ConfigLayer {
  const { profiles: _profiles, profile: _profile, ...rest } = layer;
  if (rest.mode === undefined && rest.sandbox_mode !== undefined)
    rest.mode = SANDBOX_TO_MODE[rest.sandbox_mode];
  // Codex's "live" and "cached" ask for search as configured: a lower layer's table stays.
  if (rest.web_search === "live" || rest.web_search === "cached") delete rest.web_search;
  return rest;
}
