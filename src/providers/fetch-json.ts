import { endpointHeaders, readText, send } from "./http-client.js";
import type { ModelEndpoint } from "./types.js";

/** Model descriptions are small; Ollama's `/api/show` carries the license text, still far below this. */
const MAX_JSON_BYTES = 4 * 1024 * 1024;

export interface FetchJsonOptions {
  /** Whose key and headers go with the request: `url` must be on the endpoint's own origin. */
  endpoint: ModelEndpoint;
  url: URL;
  /** Sent as a JSON POST; without it the request is a GET. */
  body?: object;
  signal: AbortSignal;
}

/**
 * One small JSON request beside the chat wire (a server's own description of its models).
 * Resolves to the parsed body of a 2xx answer, else undefined: refused, not JSON, unreachable
 * or aborted are all "the server did not say". Never rejects.
 */
export async function fetchJson({ endpoint, url, body, signal }: FetchJsonOptions): Promise<unknown> {
  const type: Record<string, string> = body ? { "content-type": "application/json" } : {};
  try {
    const response = await send(url, {
      method: body ? "POST" : "GET",
      headers: endpointHeaders(endpoint, { accept: "application/json", ...type }),
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal,
    });
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      response.destroy();
      return undefined;
    }
    return JSON.parse(await readText(response, MAX_JSON_BYTES));
  } catch {
    return undefined;
  }
}
