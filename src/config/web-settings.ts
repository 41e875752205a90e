import { isIP } from "node:net";
import type { ConfigLayer } from "./config-schema.js";
import { ConfigError, type PrivateAllowance, type WebConfig, type WebSearchConfig } from "./types.js";

/** Claude Code's and Kimi Code's body cap. */
export const DEFAULT_WEB_MAX_BYTES = 10 * 1024 * 1024;
/** Claude Code's fetch timeout. */
export const DEFAULT_WEB_TIMEOUT_MS = 60_000;
/** Kimi Code follows at most this many redirects. */
export const DEFAULT_WEB_MAX_REDIRECTS = 10;
export const DEFAULT_SEARCH_RESULTS = 10;

/** Each search API's root (`base_url` replaces it) and the variable its key is read from by default. */
export const SEARCH_DEFAULTS = {
  brave: { baseUrl: "https://api.search.brave.com/res/v1", envKey: "BRAVE_API_KEY" },
  tavily: { baseUrl: "https://api.tavily.com", envKey: "TAVILY_API_KEY" },
  exa: { baseUrl: "https://api.exa.ai", envKey: "EXA_API_KEY" },
  searxng: { baseUrl: undefined, envKey: undefined },
} as const;

/** `[web]` with its defaults; throws `ConfigError` naming the entry it cannot read. */
export function webSettings(layer: ConfigLayer["web"], file: string): WebConfig {
  const table = layer ?? {};
  const allowedHosts = (table.allowed_hosts ?? []).map((entry, index) => {
    const host = entry.trim().toLowerCase();
    if (!/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(host) && isIP(host) === 0) {
      throw new ConfigError(
        `${file}: web.allowed_hosts[${index}]: expected a host name such as "docs.python.org" or "*.python.org", got ${JSON.stringify(entry)}`,
        file,
        "web.allowed_hosts",
      );
    }
    return host;
  });
  const allowPrivate = (table.allow_private ?? []).map((entry, index) => {
    const parsed = parseAllowance(entry);
    if (!parsed) {
      throw new ConfigError(
        `${file}: web.allow_private[${index}]: expected a host name, an address or a CIDR range (host and address with an optional :port, e.g. "localhost:8080", "[::1]:3000", "10.0.0.0/8"), got ${JSON.stringify(entry)}`,
        file,
        "web.allow_private",
      );
    }
    return parsed;
  });
  return {
    allowedHosts,
    allowPrivate,
    maxBytes: table.max_bytes ?? DEFAULT_WEB_MAX_BYTES,
    timeoutMs: table.timeout_ms ?? DEFAULT_WEB_TIMEOUT_MS,
    maxRedirects: table.max_redirects ?? DEFAULT_WEB_MAX_REDIRECTS,
    ...(table.small_model ? { smallModel: table.small_model } : {}),
  };
}

/**
 * `[web_search]`, its key resolved (`api_key`, else the variable `env_key` names, else the
 * backend's usual variable). A missing key is not an error here: the search tools say what to set.
 * Codex's `web_search = "disabled"` turns search off whatever table a lower layer has.
 */
export function webSearchSettings(
  layer: ConfigLayer["web_search"],
  options: { file: string; env: Record<string, string | undefined> },
): WebSearchConfig | "disabled" | undefined {
  // "live" and "cached" never get here: a layer that sets them keeps the one below (load-config).
  if (!layer || typeof layer === "string") return layer === "disabled" ? layer : undefined;
  const defaults = SEARCH_DEFAULTS[layer.backend];
  const baseUrl = layer.base_url ?? defaults.baseUrl;
  if (!baseUrl) {
    throw new ConfigError(
      `${options.file}: web_search.base_url: the ${layer.backend} backend needs the URL of its instance (e.g. "http://localhost:8888")`,
      options.file,
      "web_search.base_url",
    );
  }
  const keyEnv = layer.env_key ?? defaults.envKey;
  const apiKey = layer.api_key ?? (keyEnv ? options.env[keyEnv]?.trim() || undefined : undefined);
  return {
    backend: layer.backend,
    ...(apiKey ? { apiKey } : {}),
    ...(layer.api_key === undefined && keyEnv ? { keyEnv } : {}),
    baseUrl: baseUrl.replace(/\/+$/, ""),
    maxResults: layer.max_results ?? DEFAULT_SEARCH_RESULTS,
  };
}

/** `10.0.0.0/8`, `127.0.0.1`, `127.0.0.1:8080`, `::1`, `[::1]:3000`, `localhost`, `intranet.lan:8443`. */
export function parseAllowance(entry: string): PrivateAllowance | undefined {
  const text = entry.trim().toLowerCase();
  const range = /^([0-9a-f:.]+)\/(\d{1,3})$/.exec(text);
  if (range) {
    const family = isIP(range[1] as string);
    const prefix = Number(range[2]);
    if (family === 0 || prefix > (family === 4 ? 32 : 128)) return undefined;
    return { kind: "range", address: range[1] as string, prefix, family: family as 4 | 6, text };
  }
  if (isIP(text) !== 0) return { kind: "address", address: text, family: isIP(text) as 4 | 6, text };
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/.exec(text);
  if (bracketed) {
    const port = portOf(bracketed[2]);
    if (isIP(bracketed[1] as string) !== 6 || port === null) return undefined;
    return { kind: "address", address: bracketed[1] as string, family: 6, ...port, text };
  }
  const hostPort = /^([a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(text);
  if (!hostPort) return undefined;
  const port = portOf(hostPort[2]);
  const host = hostPort[1] as string;
  if (port === null || host.startsWith(".") || host.endsWith(".") || host.includes("..")) return undefined;
  const family = isIP(host);
  if (family !== 0) return { kind: "address", address: host, family: family as 4 | 6, ...port, text };
  return { kind: "host", name: host, ...port, text };
}

/** `{}` without a port, `{ port }` with a valid one, null for a bad one. */
function portOf(text: string | undefined): { port?: number } | null {
  if (text === undefined) return {};
  const port = Number(text);
  return port >= 1 && port <= 65_535 ? { port } : null;
}
