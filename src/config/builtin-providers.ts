import type { ProviderTable } from "./config-schema.js";
import { DEFAULT_OPENAI_BASE_URL, type ProviderPreset, providerPresets } from "./provider-presets.js";

export { DEFAULT_OPENAI_BASE_URL };

/**
 * The presets as `model_providers` tables (ids reserved as in Codex). A user table with the same
 * id is merged over these field by field. `OPENAI_BASE_URL` (non-empty) moves the `openai`
 * provider, e.g. to a local proxy or server; OpenAI's own quirks then no longer apply.
 */
export function builtinProviders(env: Record<string, string | undefined>): Record<string, ProviderTable> {
  const tables: Record<string, ProviderTable> = {};
  for (const preset of providerPresets()) tables[preset.id] = presetTable(preset);
  const moved = nonEmpty(env.OPENAI_BASE_URL);
  if (moved !== undefined && tables.openai) {
    const { reasoning_back: _openaiOnly, ...openai } = tables.openai;
    tables.openai = { ...openai, base_url: moved };
  }
  return tables;
}

function presetTable(preset: ProviderPreset): ProviderTable {
  return {
    name: preset.name,
    base_url: preset.baseUrl,
    ...(preset.envKey === undefined ? {} : { env_key: preset.envKey }),
    wire_api: preset.wire,
    ...(preset.reasoningBack === undefined ? {} : { reasoning_back: preset.reasoningBack }),
    ...(preset.extraBody === undefined ? {} : { extra_body: { ...preset.extraBody } }),
    ...(preset.authStyle === undefined ? {} : { auth_style: preset.authStyle }),
    ...(preset.images === undefined ? {} : { supports_images: preset.images }),
  };
}

/** The trimmed value, or undefined when unset or blank (a stray newline from `$(cat key)` is common). */
export function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}
