import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import type { SearchHit } from "../../../tools/web/types.js";
import { webSearch } from "../../../tools/web/web-search.js";
import description from "../descriptions/google-web-search.md";
import type { ToolFamily } from "../tool-family.js";
import { googleWebSearchSchema } from "../tool-schemas.js";

const Args = z.object({ query: z.string() });
type Args = z.infer<typeof Args>;

/**
 * Gemini CLI `google_web_search` (0.61) on the configured search API instead of Gemini's
 * `googleSearch` grounding: 0.61's layout (`Web search results for "…":`, the text with `[n]`
 * citation markers, `Sources:` as `[n] title (url)`), where the text is each result's excerpt
 * followed by its marker; 0.61's empty-query, no-result and failure texts. Without a backend it
 * answers with how to configure one.
 */
export function googleWebSearchTool(options: { family: ToolFamily }): Tool<Args> {
  return {
    name: "google_web_search",
    description: description.trimEnd(),
    kind: "search",
    capability: "other",
    parameters: googleWebSearchSchema(options.family),
    schema: Args,
    preview: async (args) => ({ title: `Searching the web for: "${args.query}"` }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      if (!args.query.trim()) return { output: "The 'query' parameter cannot be empty.", isError: true };
      const outcome = await webSearch({ web: ctx.web, query: args.query, signal: ctx.signal });
      if (outcome.type === "unconfigured") return { output: outcome.message, isError: true };
      if (outcome.type === "failed") {
        return {
          output: `Error during web search for query "${args.query}": ${outcome.message}`,
          isError: true,
        };
      }
      if (outcome.hits.length === 0)
        return { output: `No search results or information found for query: "${args.query}"` };
      return {
        output: `Web search results for "${args.query}":\n\n${cited(outcome.hits)}\n\nSources:\n${sources(outcome.hits)}`,
      };
    },
  };
}

function cited(hits: SearchHit[]): string {
  return hits
    .map((hit, i) => `${(hit.snippet.trim() || hit.title || hit.url).trim()}[${i + 1}]`)
    .join("\n\n");
}

function sources(hits: SearchHit[]): string {
  return hits.map((hit, i) => `[${i + 1}] ${hit.title || "Untitled"} (${hit.url || "No URI"})`).join("\n");
}
