/**
 * The `fetch` model requests go through. Node's own, with its keep-alive pool, unless a proxy
 * variable is set: then undici 7's `fetch` behind `EnvHttpProxyAgent` (HTTPS_PROXY, HTTP_PROXY,
 * NO_PROXY, as the originals honour them). undici is loaded only then: a daemon without a proxy
 * never needs its load time and memory (docs/performance.md). Its fetch goes with its own
 * dispatcher because Node's built-in fetch is another undici version.
 */
export async function endpointFetch(env: NodeJS.ProcessEnv = process.env): Promise<typeof fetch> {
  if (!PROXY_VARIABLES.some((name) => env[name])) return globalThis.fetch;
  const undici = await import("undici");
  const dispatcher = new undici.EnvHttpProxyAgent();
  // undici's fetch types differ from the DOM's in name only.
  const undiciFetch = undici.fetch as unknown as (url: unknown, init: unknown) => Promise<Response>;
  return (url, init) => undiciFetch(url, { ...init, dispatcher });
}

const PROXY_VARIABLES = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"];
