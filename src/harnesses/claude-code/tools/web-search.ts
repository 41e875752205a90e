import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import type { SearchHit } from "../../../tools/web/types.js";
import { webSearch } from "../../../tools/web/web-search.js";
import { toolUseError } from "../../shared/claude-code-core/format.js";
import { webSearchSchema } from "../../shared/claude-code-core/tool-schemas.js";
import description from "./web-search.md";

export const SOURCES_REMINDER =
  "REMINDER: You MUST include the sources above in your response to the user using markdown hyperlinks.";

const Args = z.object({
  query: z.string().min(2),
  allowed_domains: z.array(z.string()).optional(),
  blocked_domains: z.array(z.string()).optional(),
});
type Args = z.infer<typeof Args>;

/**
 * Claude Code `WebSearch` (2.1.44) on the configured search API instead of Anthropic's server
 * tool: 2.1.44's result layout (the query line, `Links:` as JSON of titles and URLs, the text,
 * the sources reminder), where the text is the API's excerpts, one paragraph per result; its
 * `No links found.`, `Web search error: …` and both-lists error. Without a backend it answers
 * with how to configure one.
 */
export function webSearchTool(): Tool<Args> {
  return {
    name: "WebSearch",
    description,
    kind: "search",
    capability: "other",
    parameters: webSearchSchema,
    schema: Args,
    preview: async (args) => ({ title: `Search the web: ${args.query}` }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      const allowed = args.allowed_domains ?? [];
      const blocked = args.blocked_domains ?? [];
      if (allowed.length > 0 && blocked.length > 0) {
        return {
          output: toolUseError(
            "Error: Cannot specify both allowed_domains and blocked_domains in the same request",
          ),
          isError: true,
        };
      }
      const outcome = await webSearch({
        web: ctx.web,
        query: args.query,
        signal: ctx.signal,
        allowedDomains: allowed,
        blockedDomains: blocked,
      });
      if (outcome.type === "unconfigured") return { output: outcome.message, isError: true };
      const parts =
        outcome.type === "failed"
          ? [`Web search error: ${outcome.message}`]
          : [links(outcome.hits), excerpts(outcome.hits)].filter(Boolean);
      const body = [`Web search results for query: "${args.query}"`, ...parts]
        .map((p) => `${p}\n\n`)
        .join("");
      return { output: `${body}\n${SOURCES_REMINDER}`.trim() };
    },
  };
}

function links(hits: SearchHit[]): string {
  if (hits.length === 0) return "No links found.";
  return `Links: ${JSON.stringify(hits.map((hit) => ({ title: hit.title, url: hit.url })))}`;
}

function excerpts(hits: SearchHit[]): string {
  return hits
    .filter((hit) => hit.snippet.trim())
    .map((hit) => `${hit.title}\n${hit.snippet.trim()}`)
    .join("\n\n");
}
