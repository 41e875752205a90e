import { hostListed } from "./address-policy.js";
import { SEARCH_BACKENDS } from "./search-backends.js";
import type { SearchHit, SearchOutcome, WebAccess } from "./types.js";

/** Search API answers are small; this is far above any page of results. */
const MAX_SEARCH_BYTES = 4 * 1024 * 1024;

export interface WebSearchOptions {
  web: WebAccess | undefined;
  query: string;
  signal: AbortSignal;
  allowedDomains?: string[];
  blockedDomains?: string[];
}

/**
 * One query to the configured search API (`[web_search]`). The API is the user's choice, so its
 * address is not held to the fetch tools' private-address rule (a SearXNG on localhost works);
 * only the query leaves the machine, with the key in the header the API expects. Results outside
 * `allowedDomains` or inside `blockedDomains` are dropped. Never throws.
 */
export async function webSearch(options: WebSearchOptions): Promise<SearchOutcome> {
  const { web } = options;
  const config = web?.search;
  if (!web || !config) return { type: "unconfigured", message: unconfiguredMessage(web?.configFile) };
  if (config === "disabled") {
    return {
      type: "unconfigured",
      message: `Web search is turned off (web_search = "disabled", from ${web.configFile} or a -c override). Answer from what you know or fetch a page whose address you know.`,
    };
  }
  const backend = SEARCH_BACKENDS[config.backend];
  if (backend.needsKey && !config.apiKey) {
    const where = config.keyEnv ? `set ${config.keyEnv}, or ` : "";
    return {
      type: "unconfigured",
      message: `Web search is not available: the ${config.backend} backend has no API key. To enable it, ${where}put api_key in the [web_search] table of ${web.configFile}.`,
    };
  }
  const allowed = (options.allowedDomains ?? []).map(domainOf).filter(Boolean);
  const blocked = (options.blockedDomains ?? []).map(domainOf).filter(Boolean);
  const request = backend.request(config, {
    query: options.query,
    count: config.maxResults,
    allowedDomains: allowed,
    blockedDomains: blocked,
  });
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(web.config.timeoutMs)]);
  try {
    const reply = await web.exchange({ ...request, signal, maxBytes: MAX_SEARCH_BYTES });
    if (reply.status < 200 || reply.status >= 300) {
      return {
        type: "failed",
        message: `the ${config.backend} API answered ${reply.status} ${reply.statusText}`.trim(),
      };
    }
    const hits = backend
      .hits(JSON.parse(reply.body.toString("utf8")))
      .filter((hit) => hit.url && keep(hit, allowed, blocked))
      .slice(0, config.maxResults);
    return { type: "results", hits };
  } catch (error) {
    if (options.signal.aborted) return { type: "failed", message: "aborted" };
    const message = error instanceof SyntaxError ? "the answer was not JSON" : (error as Error).message;
    return { type: "failed", message: `the ${config.backend} API could not be reached: ${message}` };
  }
}

/** `https://Docs.Python.org/3/` and `docs.python.org` both mean `docs.python.org`. */
function domainOf(entry: string): string {
  const trimmed = entry.trim().toLowerCase();
  try {
    return new URL(trimmed.includes("://") ? trimmed : `https://${trimmed}`).hostname;
  } catch {
    return trimmed;
  }
}

function keep(hit: SearchHit, allowed: string[], blocked: string[]): boolean {
  let host: string;
  try {
    host = new URL(hit.url).hostname.toLowerCase();
  } catch {
    return false;
  }
  const under = (domains: string[]) => hostListed([...domains, ...domains.map((d) => `*.${d}`)], host);
  return (allowed.length === 0 || under(allowed)) && !under(blocked);
}

/** What the search tools answer while no backend is configured. */
export function unconfiguredMessage(configFile = "~/.openinterpreter/config.toml"): string {
  return [
    `Web search is not configured. To enable it, add a [web_search] table to ${configFile}, e.g.:`,
    "",
    "[web_search]",
    'backend = "brave"          # or "tavily", "exa", "searxng"',
    'env_key = "BRAVE_API_KEY"  # the variable that holds the key (or api_key = "...")',
    "",
    'SearXNG takes base_url = "http://<your instance>" and no key. Until then, answer from what you know or fetch a page whose address you know.',
  ].join("\n");
}
