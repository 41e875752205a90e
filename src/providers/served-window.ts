import { contextWindowFor } from "../config/context-windows.js";

/** The kinds of server whose window setting a message can name; `listed`: any other that lists it. */
export type WindowServer = "llama.cpp" | "ollama" | "vllm" | "sglang" | "lmstudio" | "listed";

/** A context window as the model's server states it. */
export interface ServedWindow {
  tokens: number;
  server: WindowServer;
  /** Where it was read, for messages: "llama.cpp /props n_ctx". */
  source: string;
  /**
   * The server did not state the window a request gets: this is its documented default or the
   * model's maximum, for a model not loaded yet. Worth a warning, not a refusal, and worth
   * asking again once the model is loaded.
   */
  assumed?: boolean;
  /** Ollama: the window comes from the model's own `num_ctx` (which wins over the server's setting). */
  modelfile?: boolean;
  /** llama.cpp: parallel slots, each with a window of `tokens` (`-c` is shared among them). */
  slots?: number;
}

/** The window a session uses for its model, and who said so. */
export interface SessionWindow {
  tokens: number;
  /** `config`: `model_context_window`; `server`: `served`; `table`: the built-in table by model id. */
  from: "config" | "server" | "table";
  served?: ServedWindow;
}

/** Config `model_context_window` wins; then what the server said; then the built-in table. */
export function chooseWindow(options: {
  model: string;
  configured?: number;
  served?: ServedWindow;
}): SessionWindow {
  const { configured, served } = options;
  if (configured !== undefined) return { tokens: configured, from: "config", ...(served ? { served } : {}) };
  if (served) return { tokens: served.tokens, from: "server", served };
  return { tokens: contextWindowFor(options.model), from: "table" };
}
