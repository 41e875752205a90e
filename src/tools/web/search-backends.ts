import type { SearchBackend, WebSearchConfig } from "../../config/types.js";
import type { SearchHit, WebRequest } from "./types.js";

export interface SearchQuery {
  query: string;
  count: number;
  /** Only results from these domains (where the API can filter; the results are filtered again after). */
  allowedDomains: string[];
  blockedDomains: string[];
}

/** How one search API is asked and read. */
interface BackendAdapter {
  /** Whether the API refuses requests without a key. */
  needsKey: boolean;
  request(
    config: WebSearchConfig,
    query: SearchQuery,
  ): Pick<WebRequest, "url" | "method" | "headers" | "body">;
  hits(body: unknown): SearchHit[];
}

const JSON_HEADERS = { accept: "application/json", "content-type": "application/json" };

const text = (value: unknown): string => (typeof value === "string" ? value : "");
const list = (value: unknown): Array<Record<string, unknown>> =>
  Array.isArray(value)
    ? value.filter((v): v is Record<string, unknown> => typeof v === "object" && v !== null)
    : [];

/** Brave's `site:` operator narrows to one domain; more than one is filtered after. */
function siteFilter(query: SearchQuery): string {
  const [only] = query.allowedDomains;
  const blocked = query.blockedDomains.map((domain) => ` -site:${domain}`).join("");
  return `${query.query}${query.allowedDomains.length === 1 ? ` site:${only}` : ""}${blocked}`;
}

/** Each API's request and result fields (their public REST documentation). */
export const SEARCH_BACKENDS: Record<SearchBackend, BackendAdapter> = {
  brave: {
    needsKey: true,
    request(config, query) {
      const url = new URL(`${config.baseUrl}/web/search`);
      url.searchParams.set("q", siteFilter(query));
      url.searchParams.set("count", String(Math.min(query.count, 20)));
      return {
        url,
        method: "GET",
        headers: { accept: "application/json", "x-subscription-token": config.apiKey ?? "" },
      };
    },
    hits: (body) =>
      list((body as { web?: { results?: unknown } }).web?.results).map((r) => ({
        title: text(r.title),
        url: text(r.url),
        snippet: text(r.description),
      })),
  },
  tavily: {
    needsKey: true,
    request(config, query) {
      return {
        url: new URL(`${config.baseUrl}/search`),
        method: "POST",
        headers: { ...JSON_HEADERS, authorization: `Bearer ${config.apiKey ?? ""}` },
        body: JSON.stringify({
          query: query.query,
          max_results: Math.min(query.count, 20),
          ...(query.allowedDomains.length > 0 ? { include_domains: query.allowedDomains } : {}),
          ...(query.blockedDomains.length > 0 ? { exclude_domains: query.blockedDomains } : {}),
        }),
      };
    },
    hits: (body) =>
      list((body as { results?: unknown }).results).map((r) => ({
        title: text(r.title),
        url: text(r.url),
        snippet: text(r.content),
      })),
  },
  exa: {
    needsKey: true,
    request(config, query) {
      return {
        url: new URL(`${config.baseUrl}/search`),
        method: "POST",
        headers: { ...JSON_HEADERS, "x-api-key": config.apiKey ?? "" },
        body: JSON.stringify({
          query: query.query,
          numResults: query.count,
          ...(query.allowedDomains.length > 0 ? { includeDomains: query.allowedDomains } : {}),
          ...(query.blockedDomains.length > 0 ? { excludeDomains: query.blockedDomains } : {}),
          contents: { highlights: true },
        }),
      };
    },
    hits: (body) =>
      list((body as { results?: unknown }).results).map((r) => ({
        title: text(r.title),
        url: text(r.url),
        snippet: Array.isArray(r.highlights)
          ? r.highlights.map(text).join(" … ")
          : text(r.summary) || text(r.text),
      })),
  },
  searxng: {
    needsKey: false,
    request(config, query) {
      const url = new URL(`${config.baseUrl}/search`);
      url.searchParams.set("q", siteFilter(query));
      url.searchParams.set("format", "json");
      return {
        url,
        method: "GET",
        headers: {
          accept: "application/json",
          ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
        },
      };
    },
    hits: (body) =>
      list((body as { results?: unknown }).results).map((r) => ({
        title: text(r.title),
        url: text(r.url),
        snippet: text(r.content),
      })),
  },
};
