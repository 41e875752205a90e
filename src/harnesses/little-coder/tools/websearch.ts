import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { webSearch } from "../../../tools/web/web-search.js";
import { websearchDescription, websearchSchema } from "../tool-schemas.js";

const Args = z.looseObject({ query: z.string() });
type Args = z.infer<typeof Args>;

/** little-coder keeps the first eight results. */
const MAX_RESULTS = 8;

/**
 * little-coder `websearch` (`extra-tools`) on the configured search API instead of scraping
 * DuckDuckGo's HTML page: its layout (`**title**`, the link, the snippet; results apart by a
 * blank line), its `No results found`, and a failure as `Error: <message>`. Without a backend
 * it answers with how to configure one.
 */
export function websearchTool(): Tool<Args> {
  return {
    name: "websearch",
    description: websearchDescription,
    kind: "search",
    capability: "other",
    parameters: websearchSchema,
    schema: Args,
    preview: async (args) => ({ title: `websearch ${args.query}` }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      const outcome = await webSearch({ web: ctx.web, query: args.query, signal: ctx.signal });
      if (outcome.type === "unconfigured") return { output: `Error: ${outcome.message}`, isError: true };
      if (outcome.type === "failed") return { output: `Error: ${outcome.message}`, isError: true };
      const hits = outcome.hits.slice(0, MAX_RESULTS);
      if (hits.length === 0) return { output: "No results found" };
      return { output: hits.map((hit) => `**${hit.title}**\n${hit.url}\n${hit.snippet}`).join("\n\n") };
    },
  };
}
