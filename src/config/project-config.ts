import { readFileSync } from "node:fs";
import path from "node:path";
import { parse, TomlError } from "smol-toml";
import type { ConfigLayer } from "./config-schema.js";
import { ConfigError, type Mode } from "./types.js";
import { validateLayer } from "./validate-layer.js";

/** Where a repository keeps its own config, relative to the project root. */
export const PROJECT_CONFIG = ".openinterpreter/config.toml";

/** What a trusted project may set for its sessions. */
export interface ProjectConfig {
  file: string;
  model?: string;
  harness?: string;
  mode?: Mode;
  mcpServers: Record<string, unknown>;
  /** Keys the file sets that a project may not (providers, credentials), ignored. */
  ignored: string[];
}

/**
 * Keys a repository must never control: they decide where the prompt and the keys go, what
 * the fetch tools may reach and how commands are confined.
 */
const FORBIDDEN = [
  "model_provider",
  "model_providers",
  "profile",
  "profiles",
  "web",
  "web_search",
  "sandbox",
];

/**
 * Reads `<root>/.openinterpreter/config.toml` if there is one (undefined otherwise). Throws a
 * `ConfigError` naming the file and key for a malformed file. Callers decide about trust
 * before calling: reading it is harmless, applying it is not.
 */
export function readProjectConfig(projectRoot: string): ProjectConfig | undefined {
  const file = path.join(projectRoot, PROJECT_CONFIG);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return undefined;
    throw new ConfigError(`${file}: cannot be read: ${(error as Error).message}`, file);
  }
  let raw: Record<string, unknown>;
  try {
    raw = parse(text) as Record<string, unknown>;
  } catch (error) {
    const first = error instanceof TomlError ? error.message.split("\n")[0] : String(error);
    throw new ConfigError(`${file}: invalid TOML: ${first}`, file);
  }
  const layer: ConfigLayer = validateLayer(raw, { file, label: file, secrets: [] });
  return {
    file,
    model: layer.model,
    harness: layer.harness,
    mode: layer.mode ?? (layer.sandbox_mode === "danger-full-access" ? "full-access" : layer.sandbox_mode),
    mcpServers: (layer.mcp_servers ?? {}) as Record<string, unknown>,
    ignored: FORBIDDEN.filter((key) => key in raw),
  };
}
