import type { ProviderTable } from "./config-schema.js";

export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";

/**
 * The providers every install knows (ids reserved as in Codex). A user table with the same id
 * is merged over these field by field. `OPENAI_BASE_URL` (non-empty) moves the `openai`
 * provider, e.g. to a local proxy.
 */
export function builtinProviders(env: Record<string, string | undefined>): Record<string, ProviderTable> {
  return {
    openai: {
      name: "OpenAI",
      base_url: nonEmpty(env.OPENAI_BASE_URL) ?? DEFAULT_OPENAI_BASE_URL,
      env_key: "OPENAI_API_KEY",
      wire_api: "chat",
    },
    ollama: { name: "Ollama", base_url: "http://localhost:11434/v1", wire_api: "chat" },
    lmstudio: { name: "LM Studio", base_url: "http://localhost:1234/v1", wire_api: "chat" },
  };
}

/** The trimmed value, or undefined when unset or blank (a stray newline from `$(cat key)` is common). */
export function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}
