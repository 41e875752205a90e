import type { IncomingMessage } from "node:http";
import {
  endpointHeaders,
  endpointUrl,
  MAX_ERROR_BODY_BYTES,
  networkDetail,
  readText,
  send,
  toHeaders,
} from "./http-client.js";
import { describeFailure, type Failure, ProviderRequestError } from "./provider-error.js";
import type { ModelEndpoint } from "./types.js";

export interface ListModelsOptions {
  endpoint: ModelEndpoint;
  /** The caller's signal; when it aborts, the listing rejects with its reason. */
  signal: AbortSignal;
  timeoutMs: number;
}

/** OpenRouter lists hundreds of models; anything far beyond that is not a model list. */
const MAX_LIST_BYTES = 16 * 1024 * 1024;
const MAX_REDIRECTS = 3;

/** One entry of the model list as the server sent it: an id, plus whatever else it says. */
export type ListedModel = Record<string, unknown> & { id: string };

/**
 * `GET <baseUrl>/models`. Resolves to the listed ids; rejects with a `ProviderRequestError`
 * naming the endpoint (never the key), or with the caller's abort reason.
 */
export async function listModels(options: ListModelsOptions): Promise<string[]> {
  return (await listModelEntries(options)).map((model) => model.id);
}

/**
 * The model list's entries with an id, as sent: some servers say more about each model there
 * (vLLM and SGLang `max_model_len`, OpenRouter `context_length`). Fails as `listModels` does.
 */
export async function listModelEntries({
  endpoint,
  signal,
  timeoutMs,
}: ListModelsOptions): Promise<ListedModel[]> {
  const fail = (failure: Failure) => new ProviderRequestError(describeFailure({ failure, endpoint }));
  const timeout = AbortSignal.timeout(timeoutMs);
  const both = AbortSignal.any([signal, timeout]);
  const headers = endpointHeaders(endpoint, { accept: "application/json" });
  let response: IncomingMessage;
  let body: string;
  try {
    let url = endpointUrl(endpoint, "models");
    for (let hops = 0; ; hops++) {
      response = await send(url, { method: "GET", headers, signal: both });
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status < 300 || status >= 400 || !location || hops >= MAX_REDIRECTS) break;
      response.destroy();
      const next = new URL(location, url);
      // The key goes to the endpoint's own origin only, as fetch does.
      if (next.origin !== url.origin) break;
      url = next;
    }
    const status = response.statusCode ?? 0;
    body = await readText(response, status >= 300 ? MAX_ERROR_BODY_BYTES : MAX_LIST_BYTES);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (timeout.aborted) throw fail({ kind: "timeout", idleMs: timeoutMs });
    const detail = networkDetail(error) ?? `connection failed (${(error as Error)?.message ?? error})`;
    throw fail({ kind: "network", detail });
  }
  if (signal.aborted) throw signal.reason;
  const status = response.statusCode ?? 0;
  if (status >= 300) {
    throw fail({ kind: "http", status, body, headers: toHeaders(response.headers) });
  }
  let page: unknown;
  try {
    page = JSON.parse(body);
  } catch {
    throw fail({ kind: "protocol", detail: "the model list is not JSON" });
  }
  const data = (page as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw fail({ kind: "protocol", detail: "the model list has no `data` array" });
  return data.filter(
    (model): model is ListedModel => typeof (model as { id?: unknown } | null)?.id === "string",
  );
}
