import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { webSearch } from "../../../tools/web/web-search.js";
import { webSearchSchema } from "../git-web-schemas.js";
import { failed, forContext, invalidInput } from "../tool-result.js";
import description from "./web-search.md";

const Item = z.looseObject({
  q: z.unknown().optional(),
  query: z.unknown().optional(),
  max_results: z.number().optional(),
});
const Args = z.looseObject({
  query: z.unknown().optional(),
  q: z.unknown().optional(),
  search_query: z.array(Item).optional(),
  max_results: z.number().int().optional(),
  timeout_ms: z.number().int().optional(),
});
type Args = z.infer<typeof Args>;

/** CodeWhale's `extract_search_query`: `query`, `q`, then the list form; a non-string is refused. */
function queryOf(args: Args): { query: string } | { error: string } {
  for (const key of ["query", "q"] as const) {
    const value = args[key];
    if (value === undefined) continue;
    if (typeof value !== "string") return { error: `Field '${key}' must be a string` };
    if (value.trim()) return { query: value.trim() };
  }
  for (const item of args.search_query ?? [])
    for (const key of ["q", "query"] as const) {
      const value = item[key];
      if (value === undefined) continue;
      if (typeof value !== "string") return { error: `Field 'search_query[].${key}' must be a string` };
      if (value.trim()) return { query: value.trim() };
    }
  return { error: "missing" };
}

/**
 * CodeWhale `web_search` (0.8.44 `tools/web_search.rs`) over the configured search service (its
 * own scrapes DuckDuckGo and Bing): indented JSON `{query, source, count, message, results:
 * [{title, url, snippet}]}`, 5 results by default and 10 at most, `source` naming the service.
 */
export function webSearchTool(options: { model: string }): Tool<Args> {
  return {
    name: "web_search",
    description: description.trimEnd(),
    kind: "search",
    capability: "other",
    parameters: webSearchSchema,
    schema: Args,
    preview: async (args) => {
      const q = queryOf(args);
      return { title: "query" in q ? `web_search ${q.query}` : "web_search" };
    },
    // The configured search API is the user's choice: a query asks nothing.
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      const q = queryOf(args);
      if ("error" in q)
        return q.error === "missing"
          ? failed("Tool 'web_search' is missing required field 'query'")
          : invalidInput("web_search", q.error);
      const requested =
        args.max_results ?? args.search_query?.find((i) => i.max_results !== undefined)?.max_results;
      const max = Math.min(Math.max(requested ?? 5, 1), 10);
      const outcome = await webSearch({ web: ctx.web, query: q.query, signal: ctx.signal });
      if (outcome.type !== "results") return failed(outcome.message);
      const results = outcome.hits
        .slice(0, max)
        .map((h) => ({ title: h.title, url: h.url, snippet: h.snippet || null }));
      const source = ctx.web?.search && ctx.web.search !== "disabled" ? ctx.web.search.backend : "web";
      const response = {
        query: q.query,
        source,
        count: results.length,
        message: results.length === 0 ? "No results found" : `Found ${results.length} result(s)`,
        results,
      };
      return {
        output: forContext({
          model: options.model,
          tool: "web_search",
          output: JSON.stringify(response, null, 2),
        }),
      };
    },
  };
}
