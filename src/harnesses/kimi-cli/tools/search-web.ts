import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { webSearch } from "../../../tools/web/web-search.js";
import { ResultBuilder } from "../result-builder.js";
import { searchWebSchema } from "../tool-schemas.js";
import description from "./search-web.md";

const Args = z.object({
  query: z.string(),
  limit: z.number().int().min(1).max(20).default(5),
  include_content: z.boolean().default(false),
});
type Args = z.infer<typeof Args>;

/**
 * Kimi CLI 1.49.0 `SearchWeb` (`tools/web/search.py`) over the configured search API
 * (`[web_search]`) instead of Moonshot's search service: each hit as its `Title:`, `Date:`,
 * `URL:`, `Summary:` block, hits parted by `---`, no per-line cut. Our backends give no date and
 * crawl no pages, so `Date:` stays empty and `include_content` adds nothing.
 */
export function searchWebTool(): Tool<Args> {
  return {
    name: "SearchWeb",
    description: description.trimEnd(),
    kind: "search",
    capability: "other",
    parameters: searchWebSchema,
    schema: Args,
    preview: async (args) => ({ title: `Search the web: ${args.query}` }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      const builder = new ResultBuilder(null);
      const outcome = await webSearch({ web: ctx.web, query: args.query, signal: ctx.signal });
      if (outcome.type === "unconfigured")
        return builder.error(
          "Search service is not configured. You may want to try other methods to search.",
        );
      if (outcome.type === "failed")
        return builder.error(
          `Search request failed: ${outcome.message}. The search service may be unavailable.`,
        );
      outcome.hits.slice(0, args.limit).forEach((hit, i) => {
        if (i > 0) builder.write("---\n\n");
        builder.write(`Title: ${hit.title}\nDate: \nURL: ${hit.url}\nSummary: ${hit.snippet}\n\n`);
      });
      return builder.ok();
    },
  };
}
