import { DEFAULT_OPENAI_BASE_URL, nonEmpty } from "./builtin-providers.js";
import type { Config } from "./types.js";

export interface SetupFacts {
  config: Pick<Config, "model" | "provider">;
  /** Whether `config.file` exists (the caller looks; this function touches nothing). */
  configFileExists: boolean;
  env: Record<string, string | undefined>;
}

/**
 * True when the user has configured nothing at all: no config.toml, no model from any layer
 * (file, profile, `-c`, `--model`), and the default `openai` provider neither moved
 * (`OPENAI_BASE_URL`, `openai_base_url`) nor given a key. Such a daemon can only fail: it would
 * send an empty model id to api.openai.com without a key. Any one of those settings means the
 * user chose something, and the daemon reports what is missing instead of offering a set-up.
 */
export function needsSetup({ config, configFileExists, env }: SetupFacts): boolean {
  if (configFileExists || config.model !== undefined) return false;
  if (nonEmpty(env.OPENAI_BASE_URL) !== undefined || nonEmpty(env.OPENAI_API_KEY) !== undefined) return false;
  const { provider } = config;
  return provider.id === "openai" && provider.baseUrl === DEFAULT_OPENAI_BASE_URL && !provider.apiKey;
}
