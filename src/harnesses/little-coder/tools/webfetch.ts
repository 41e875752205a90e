import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { failureText } from "../../../tools/web/failure-text.js";
import { fetchAccess } from "../../../tools/web/fetch-access.js";
import { bodyText, fetchPage } from "../../../tools/web/fetch-page.js";
import { webfetchDescription, webfetchSchema } from "../tool-schemas.js";

const Args = z.looseObject({ url: z.string(), prompt: z.string().optional() });
type Args = z.infer<typeof Args>;

/** little-coder's limits: 30 s per fetch, 25 000 characters of text. */
const TIMEOUT_MS = 30_000;
const MAX_CHARS = 25_000;

/**
 * little-coder `webfetch` (`extra-tools`): redirects followed, a non-2xx answer as
 * `Error: HTTP <status> <text>`, an HTML page with scripts, styles and tags removed and
 * whitespace collapsed, anything else verbatim, cut at 25 000 characters; `prompt` is unused.
 */
export function webfetchTool(): Tool<Args> {
  return {
    name: "webfetch",
    description: webfetchDescription,
    kind: "fetch",
    capability: "other",
    parameters: webfetchSchema,
    schema: Args,
    preview: async (args) => ({ title: `webfetch ${args.url}` }),
    access(args, ctx) {
      const url = URL.canParse(args.url) ? new URL(args.url) : undefined;
      return fetchAccess(url ? [url] : [], ctx.web);
    },
    async execute(args, ctx) {
      const fail = (message: string) => ({ output: `Error: ${message}`, isError: true });
      if (!URL.canParse(args.url)) return fail(`Failed to parse URL from ${args.url}`);
      if (!ctx.web) return fail("web access is not available outside a session");
      const outcome = await fetchPage({
        web: ctx.web,
        url: new URL(args.url),
        signal: ctx.signal,
        // The original names itself in the User-Agent.
        headers: { "user-agent": "little-coder/0.1" },
        redirects: "follow",
        timeoutMs: TIMEOUT_MS,
      });
      if (outcome.type === "failed") return fail(failureText(outcome.failure, args.url));
      if (outcome.type === "redirect") return fail(`redirected to ${outcome.to.href}`);
      const { page } = outcome;
      if (page.status < 200 || page.status >= 300) return fail(`HTTP ${page.status} ${page.statusText}`);
      let text = bodyText(page);
      if ((page.headers["content-type"] ?? "").includes("html")) text = stripHtml(text);
      return { output: text.slice(0, MAX_CHARS) };
    },
  };
}

/** The original's crude cleanup, kept as is: the model reads what the original's model read. */
function stripHtml(html: string): string {
  return html
    .replace(/<script[^>]*>[\s\S]*?<\/script>/gi, "")
    .replace(/<style[^>]*>[\s\S]*?<\/style>/gi, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}
