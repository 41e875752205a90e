import { linkSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stringify } from "smol-toml";
import { ConfigError } from "./types.js";

/** What the first-run setup chose, in config.toml's (upstream-compatible) terms. */
export interface NewConfig {
  model: string;
  /** `model_provider`; left out of the file when it is the default, `openai`. */
  providerId: string;
  /** The `[model_providers.<id>]` table, for a provider that is not built in. */
  provider?: { name: string; baseUrl: string; envKey?: string };
}

/** The TOML text of a new config.toml: the model and provider first, then the provider's table. */
export function newConfigText(config: NewConfig): string {
  const table: Record<string, unknown> = { model: config.model };
  if (config.providerId !== "openai") table.model_provider = config.providerId;
  if (config.provider) {
    const { name, baseUrl, envKey } = config.provider;
    table.model_providers = {
      [config.providerId]: {
        name,
        base_url: baseUrl,
        ...(envKey === undefined ? {} : { env_key: envKey }),
        wire_api: "chat",
      },
    };
  }
  return stringify(table);
}

/**
 * Creates `file` with `text`, its folder too. Never replaces a file: one that exists (even one
 * written a moment ago by another process) is a `ConfigError` and stays as it was. The text
 * goes to a temporary file first and is linked into place, so the config is either whole or
 * absent, never a half-written file that would count as configured.
 */
export function writeNewConfig(options: { file: string; text: string }): void {
  const { file, text } = options;
  const temp = `${file}.${process.pid}.tmp`;
  const cannot = (error: unknown) =>
    new ConfigError(`${file}: cannot write the config file: ${(error as Error).message}`, file);
  try {
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(temp, text, { mode: 0o600 });
    } catch (error) {
      throw cannot(error);
    }
    try {
      linkSync(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw cannot(error);
      throw new ConfigError(`${file} already exists; it was left as it is`, file);
    }
  } finally {
    rmSync(temp, { force: true });
  }
}
