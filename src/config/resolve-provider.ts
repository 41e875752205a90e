import { nonEmpty } from "./builtin-providers.js";
import { isHttpUrl, type ProviderTable } from "./config-schema.js";
import { findPreset } from "./provider-presets.js";
import { formatKeyPath } from "./tables.js";
import type { ProviderConfig } from "./types.js";

export const DEFAULT_REQUEST_MAX_RETRIES = 4;
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 300_000;

export interface ResolveProviderOptions {
  env: Record<string, string | undefined>;
  /** The base URL is `OPENAI_BASE_URL` (no layer set one): `OPENAI_API_KEY` is the fallback key. */
  baseUrlFromEnv: boolean;
}

/**
 * A merged provider table with defaults applied and its key read from the environment, or the
 * reason it cannot be used (the caller decides whether that is an error: it is only for the
 * selected provider). The reason never contains the key.
 */
export function resolveProvider(
  id: string,
  table: ProviderTable,
  options: ResolveProviderOptions,
): ProviderConfig | { problem: string; key: string } {
  if (table.base_url === undefined) {
    const key = formatKeyPath(["model_providers", id, "base_url"]);
    return { problem: `${key} is required for a provider that is not built in`, key };
  }
  if (!isHttpUrl(table.base_url)) {
    // Only OPENAI_BASE_URL can get here: every base_url from a layer was validated.
    return {
      problem: `OPENAI_BASE_URL must be an http(s) URL, got ${JSON.stringify(table.base_url)}`,
      key: "OPENAI_BASE_URL",
    };
  }
  const envKey = table.env_key;
  let apiKey = envKey === undefined ? undefined : nonEmpty(options.env[envKey]);
  if (apiKey === undefined && options.baseUrlFromEnv) apiKey = nonEmpty(options.env.OPENAI_API_KEY);
  const preset = findPreset(id);
  const keysUrl = preset?.envKey !== undefined && preset.envKey === envKey ? preset.keysUrl : undefined;
  return {
    id,
    name: table.name ?? id,
    baseUrl: table.base_url.replace(/\/+$/, ""),
    ...(envKey === undefined ? {} : { envKey }),
    ...(apiKey === undefined ? {} : { apiKey }),
    wireApi: table.wire_api ?? "chat",
    ...(keysUrl === undefined ? {} : { keysUrl }),
    ...(table.reasoning_back === undefined ? {} : { reasoningBack: table.reasoning_back }),
    ...(table.extra_body === undefined ? {} : { extraBody: { ...table.extra_body } }),
    ...(table.auth_style === undefined ? {} : { authStyle: table.auth_style }),
    httpHeaders: { ...table.http_headers },
    queryParams: { ...table.query_params },
    requestMaxRetries: table.request_max_retries ?? DEFAULT_REQUEST_MAX_RETRIES,
    streamIdleTimeoutMs: table.stream_idle_timeout_ms ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
    ...(table.supports_images === undefined ? {} : { supportsImages: table.supports_images }),
  };
}
