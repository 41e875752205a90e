import { DEFAULT_OPENAI_BASE_URL } from "./builtin-providers.js";
import type { Config } from "./types.js";

/** What the configuration lacks before any model request can succeed. */
export interface SetupProblem {
  /**
   * `unconfigured`: no model and the default provider with no key, i.e. a first run; `no_key`:
   * the default provider (hosted OpenAI) with no key; `key_unset`: a provider's `env_key` names
   * a variable that is not set.
   */
  kind: "unconfigured" | "no_model" | "no_key" | "key_unset";
  /** What is missing, one clause. */
  what: string;
  /** What to set and where. */
  fix: string;
}

/**
 * Checked before a turn sends anything, so a first run without config ends with one readable
 * message instead of retries against an endpoint that cannot answer; doctor words the same facts.
 */
export function setupProblem(config: Config, model: string | undefined): SetupProblem | undefined {
  const p = config.provider;
  const hostedWithoutKey = p.id === "openai" && p.baseUrl === DEFAULT_OPENAI_BASE_URL && !p.apiKey;
  if (!model && hostedWithoutKey) {
    return {
      kind: "unconfigured",
      what: "Nothing is configured yet: no model and no endpoint",
      fix: [
        "For a local server (Ollama, llama.cpp, LM Studio, vLLM) set `OPENAI_BASE_URL` (e.g. http://localhost:11434/v1) and pass `-m <model>`;",
        "for OpenAI set `OPENAI_API_KEY` and pass `-m <model>`;",
        `or write \`model\` and \`model_provider\` in ${config.file}.`,
        "In a terminal, `interpreter` walks you through it and `interpreter doctor` checks it.",
      ].join(" "),
    };
  }
  if (!model) {
    return {
      kind: "no_model",
      what: "No model configured",
      fix: `Set \`model\` in ${config.file}, pass -m <model>, or pick one in the model menu.`,
    };
  }
  if (hostedWithoutKey) {
    return {
      kind: "no_key",
      what: `No API key for OpenAI (${DEFAULT_OPENAI_BASE_URL})`,
      fix: `Set \`OPENAI_API_KEY\`, or point at your own server with \`OPENAI_BASE_URL\` (e.g. http://localhost:11434/v1 for Ollama) or \`model_provider\` in ${config.file}. \`interpreter doctor\` checks the endpoint.`,
    };
  }
  if (p.envKey && !p.apiKey && p.id !== "openai") {
    return {
      kind: "key_unset",
      what: `The ${p.name} provider reads its API key from \`${p.envKey}\`, which is not set`,
      fix: p.keysUrl
        ? `Get a key at ${p.keysUrl} and set it where this agent is started (for an editor, the \`env\` of its agent server entry); \`interpreter doctor\` checks it.`
        : `Set it where this agent is started (for an editor, the \`env\` of its agent server entry), or remove \`env_key\` under [model_providers.${p.id}] in ${config.file}.`,
    };
  }
  return undefined;
}

/** The problem as one message: what is missing, then what to do. */
export function setupMessage(problem: SetupProblem): string {
  return `${problem.what}. ${problem.fix}`;
}
