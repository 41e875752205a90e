import type { ListedModel } from "./list-models.js";
import type { ServedWindow } from "./served-window.js";

// Readers of what each kind of server says about a model's window. Pure: they take the parsed
// answers (undefined when a route was not there) and never throw on odd shapes.

/**
 * Ollama's context when neither the model nor the request sets `num_ctx` and nothing is loaded:
 * 4096 up to 24 GiB of VRAM (more above), unless the server runs with `OLLAMA_CONTEXT_LENGTH`.
 */
export const OLLAMA_DEFAULT_CONTEXT = 4096;

/** vLLM and SGLang `max_model_len`; others `context_length` (OpenRouter), `context_window`, `max_context_length`. */
export function fromModelList(entries: ListedModel[], model: string): ServedWindow | undefined {
  const entry = entries.find((e) => e.id === model);
  if (!entry) return undefined;
  const maxModelLen = count(entry.max_model_len);
  if (maxModelLen) {
    const sglang = String(entry.owned_by ?? "").toLowerCase() === "sglang";
    return {
      tokens: maxModelLen,
      server: sglang ? "sglang" : "vllm",
      source: `${sglang ? "SGLang" : "vLLM"} max_model_len in /models`,
    };
  }
  for (const field of ["context_length", "context_window", "max_context_length"]) {
    const tokens = count(entry[field]);
    if (tokens) return { tokens, server: "listed", source: `${field} in the endpoint's /models` };
  }
  return undefined;
}

/** llama.cpp `GET /props`: the per-slot `default_generation_settings.n_ctx`, else `n_ctx`. */
export function fromLlamaCppProps(props: unknown): ServedWindow | undefined {
  const p = record(props);
  const perSlot = count(record(p?.default_generation_settings)?.n_ctx);
  const tokens = perSlot ?? count(p?.n_ctx);
  if (!tokens) return undefined;
  const slots = count(p?.total_slots);
  return {
    tokens,
    server: "llama.cpp",
    source: `llama.cpp /props ${perSlot ? "default_generation_settings.n_ctx" : "n_ctx"}`,
    ...(slots && slots > 1 ? { slots } : {}),
  };
}

/**
 * Ollama: the loaded model's context (`/api/ps`) is what requests get; else the model's
 * `num_ctx` (`/api/show` parameters); else Ollama's default, assumed. Never past the model's own
 * `context_length`, where Ollama caps it.
 */
export function fromOllama(o: { show: unknown; ps: unknown; model: string }): ServedWindow | undefined {
  const show = record(o.show);
  const info = record(show?.model_info);
  if (!show || (!info && typeof show.parameters !== "string")) return undefined;
  const native = Object.entries(info ?? {}).find(([key]) => key.endsWith(".context_length"))?.[1];
  const cap = (tokens: number) => Math.min(tokens, count(native) ?? tokens);
  const running = array(record(o.ps)?.models).map(record);
  const loaded = running.find((m) => sameOllamaModel(m?.name, o.model) || sameOllamaModel(m?.model, o.model));
  const live = count(loaded?.context_length);
  if (live)
    return { tokens: live, server: "ollama", source: "Ollama /api/ps context_length of the loaded model" };
  const numCtx = /^num_ctx\s+(\d+)/m.exec(typeof show.parameters === "string" ? show.parameters : "")?.[1];
  if (numCtx && Number(numCtx) > 0) {
    return {
      tokens: cap(Number(numCtx)),
      server: "ollama",
      source: "the model's num_ctx (Ollama /api/show)",
      modelfile: true,
    };
  }
  return {
    tokens: cap(OLLAMA_DEFAULT_CONTEXT),
    server: "ollama",
    source: "Ollama's default context, assumed: the model sets no num_ctx and is not loaded yet",
    assumed: true,
  };
}

/** LM Studio `GET /api/v0/models/<id>`: `loaded_context_length` once loaded, else the model's maximum. */
export function fromLmStudio(info: unknown): ServedWindow | undefined {
  const m = record(info);
  const loaded = count(m?.loaded_context_length);
  if (loaded && m?.state === "loaded") {
    return { tokens: loaded, server: "lmstudio", source: "LM Studio loaded_context_length" };
  }
  const max = count(m?.max_context_length);
  if (!max) return undefined;
  return {
    tokens: max,
    server: "lmstudio",
    source:
      "LM Studio max_context_length (the model is not loaded yet; it loads with the context length set in LM Studio)",
    assumed: true,
  };
}

/** `qwen3` and `qwen3:latest` are one Ollama model. */
function sameOllamaModel(name: unknown, model: string): boolean {
  if (typeof name !== "string") return false;
  const full = (id: string) => (id.includes(":") ? id : `${id}:latest`);
  return full(name) === full(model);
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function array(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
