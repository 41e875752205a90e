/** Error bodies can be whole HTML pages; the message only needs the start. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

export interface ErrorBodyFetch {
  /** Pass to the SDK as its `fetch`. */
  fetch: typeof fetch;
  /** The raw body of an error response, looked up by the `headers` an SDK `APIError` carries. */
  bodyOf(headers: Headers | undefined): string | undefined;
}

/**
 * Keeps error bodies the SDK would otherwise reduce to `error.message`: vLLM answers
 * `{"message": ...}` and FastAPI `{"detail": ...}`, which the SDK drops. Keyed by the response's
 * `Headers` object because that is the one thing the SDK's error keeps from the response.
 */
export function createErrorBodyFetch(baseFetch: typeof fetch): ErrorBodyFetch {
  const bodies = new WeakMap<Headers, string>();
  const wrapped = async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    const response = await baseFetch(input, init);
    if (response.status < 400) return response;
    const text = await readBounded(response);
    const copy = new Response(text, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    bodies.set(copy.headers, text);
    return copy;
  };
  return { fetch: wrapped as typeof fetch, bodyOf: (headers) => (headers ? bodies.get(headers) : undefined) };
}

async function readBounded(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  try {
    while (bytes < MAX_ERROR_BODY_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      text += decoder.decode(value, { stream: true });
    }
    return text + decoder.decode();
  } catch {
    // A body cut off mid-way still tells us the status; keep what arrived.
    return text;
  } finally {
    reader.cancel().catch(() => {});
  }
}
