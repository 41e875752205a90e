import { fetchJson } from "./fetch-json.js";
import { listModelEntries } from "./list-models.js";
import type { ServedWindow } from "./served-window.js";
import type { ModelEndpoint } from "./types.js";
import { fromLlamaCppProps, fromLmStudio, fromModelList, fromOllama } from "./window-readers.js";

export interface ProbeContextWindowOptions {
  /** The endpoint and the model (`endpoint.model`) to ask about. */
  endpoint: ModelEndpoint;
  /** Aborts every request of the probe; it then resolves undefined. */
  signal?: AbortSignal;
  /** Bound on the whole probe (default 5 s). */
  timeoutMs?: number;
}

/**
 * Asks the endpoint's server what context window requests for `endpoint.model` get: the
 * OpenAI model list (vLLM, SGLang, OpenRouter and others say it there), and, at the server's
 * root, the routes of the local servers that keep it elsewhere: llama.cpp `/props`, Ollama
 * `/api/show` with `/api/ps`, LM Studio `/api/v0/models/<id>`, in that order of trust. Only
 * one kind of server answers those; the others' 404s cost nothing but the parallel request.
 * Resolves undefined when no server said; never rejects.
 */
export async function probeContextWindow(
  options: ProbeContextWindowOptions,
): Promise<ServedWindow | undefined> {
  const { endpoint } = options;
  const model = endpoint.model;
  if (!model) return undefined;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const signal = AbortSignal.any([
    AbortSignal.timeout(timeoutMs),
    ...(options.signal ? [options.signal] : []),
  ]);
  const root = serverRoot(endpoint.baseUrl);
  if (!root) return undefined;
  const ask = (route: string, body?: object) =>
    fetchJson({ endpoint, url: new URL(route, root), ...(body ? { body } : {}), signal });
  const lmStudioId = model.split("/").map(encodeURIComponent).join("/");
  // All at once: a turn may be waiting, and one round trip is all a server's answer should cost.
  const [entries, props, show, ps, lmStudio] = await Promise.all([
    listModelEntries({ endpoint, signal, timeoutMs }).catch(() => []),
    ask("props"),
    ask("api/show", { model }),
    ask("api/ps"),
    ask(`api/v0/models/${lmStudioId}`),
  ]);
  return (
    fromModelList(entries, model) ??
    fromLlamaCppProps(props) ??
    fromOllama({ show, ps, model }) ??
    fromLmStudio(lmStudio)
  );
}

/**
 * The server's root for a base URL, which usually ends in `/v1` (`http://localhost:11434/v1`
 * -> `http://localhost:11434/`); a path before it stays (a reverse proxy's prefix). Undefined
 * for a base URL that is not a URL.
 */
export function serverRoot(baseUrl: string): URL | undefined {
  try {
    const url = new URL(baseUrl);
    url.pathname = `${url.pathname.replace(/\/+$/, "").replace(/\/v1$/, "")}/`;
    url.search = "";
    url.hash = "";
    return url;
  } catch {
    return undefined;
  }
}
