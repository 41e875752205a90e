import { providerPresets } from "./provider-presets.js";

/** A hosted service the first-run set-up can point config.toml at. */
export interface HostedProvider {
  /** The `model_providers` id written to config.toml (every one is a preset). */
  id: string;
  name: string;
  baseUrl: string;
  /** The one environment variable that holds the key (`env_key`). */
  envKey: string;
  /** Where a user gets the key. */
  keysUrl: string;
}

/**
 * The presets the set-up offers, in the presets' order: hosted Chat Completions services
 * (the set-up lists their models at `/models` with a bearer key) marked `setup`.
 */
export function hostedProviders(): HostedProvider[] {
  return providerPresets().flatMap((p) =>
    p.setup && p.envKey !== undefined && p.keysUrl !== undefined
      ? [{ id: p.id, name: p.name, baseUrl: p.baseUrl, envKey: p.envKey, keysUrl: p.keysUrl }]
      : [],
  );
}
