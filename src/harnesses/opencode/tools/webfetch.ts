import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { fetchAccess } from "../../../tools/web/fetch-access.js";
import { bodyText, fetchPage } from "../../../tools/web/fetch-page.js";
import { htmlToMarkdown, htmlToText } from "../../../tools/web/html-text.js";
import type { FetchFailure } from "../../../tools/web/types.js";
import { webfetchSchema } from "../tool-schemas.js";
import description from "./webfetch.md";

const Args = z.looseObject({
  url: z.string(),
  format: z.enum(["text", "markdown", "html"]).default("markdown"),
  timeout: z.number().optional(),
});
type Args = z.infer<typeof Args>;

/** opencode's limits (1.18.33 `tool/webfetch.ts`): 30 s unless asked, 120 s at most, 5 MB. */
const DEFAULT_SECONDS = 30;
const MAX_MS = 120_000;
const MAX_BYTES = 5 * 1024 * 1024;
const TOO_LARGE = "Response too large (exceeds 5MB limit)";
const IMAGES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
/** opencode's Accept header for each format. */
const ACCEPT: Record<Args["format"], string> = {
  markdown: "text/markdown;q=1.0, text/x-markdown;q=0.9, text/plain;q=0.8, text/html;q=0.7, */*;q=0.1",
  text: "text/plain;q=1.0, text/markdown;q=0.9, text/html;q=0.8, */*;q=0.1",
  html: "text/html;q=1.0, application/xhtml+xml;q=0.9, text/plain;q=0.8, text/markdown;q=0.7, */*;q=0.1",
};

/**
 * opencode `webfetch`: the body in the format asked for (an HTML page turned into Markdown with
 * atx headings and `-` bullets, or into text; anything else verbatim), an image as an
 * attachment, redirects followed. Refusals and failures as opencode's plain error messages.
 */
export function webfetchTool(options: { images: boolean }): Tool<Args> {
  return {
    name: "webfetch",
    description: description.trimEnd(),
    kind: "fetch",
    capability: "other",
    parameters: webfetchSchema,
    schema: Args,
    preview: async (args) => ({ title: `webfetch ${args.url}` }),
    access(args, ctx) {
      const url = parse(args.url);
      return fetchAccess(url ? [url] : [], ctx.web);
    },
    async execute(args, ctx) {
      const fail = (output: string) => ({ output, isError: true });
      const url = parse(args.url);
      if (!url) return fail("URL must start with http:// or https://");
      if (!ctx.web) return fail("Web access is not available outside a session.");
      const outcome = await fetchPage({
        web: ctx.web,
        url,
        signal: ctx.signal,
        headers: { accept: ACCEPT[args.format], "accept-language": "en-US,en;q=0.9" },
        redirects: "follow",
        timeoutMs: Math.min((args.timeout ?? DEFAULT_SECONDS) * 1000, MAX_MS),
      });
      if (outcome.type === "failed") return fail(failure(outcome.failure));
      if (outcome.type === "redirect") return fail(`Redirected to ${outcome.to.href}`);
      const { page } = outcome;
      if (page.status < 200 || page.status >= 300)
        return fail(`Request failed with status code: ${page.status}`);
      if (page.body.length > MAX_BYTES) return fail(TOO_LARGE);
      if (IMAGES.has(page.contentType)) {
        const text = "Image fetched successfully";
        if (!options.images) return { output: text };
        const data = page.body.toString("base64");
        return {
          output: text,
          parts: [
            { type: "text", text },
            { type: "image", mimeType: page.contentType, data },
          ],
        };
      }
      const body = bodyText(page);
      const html = (page.headers["content-type"] ?? "").includes("text/html");
      if (html && args.format === "markdown")
        return {
          output: await htmlToMarkdown(body, {
            headingStyle: "atx",
            hr: "---",
            bulletListMarker: "-",
            codeBlockStyle: "fenced",
            emDelimiter: "*",
          }),
        };
      if (html && args.format === "text") return { output: await htmlToText(body) };
      return { output: body };
    },
  };
}

function parse(input: string): URL | undefined {
  if (!input.startsWith("http://") && !input.startsWith("https://")) return undefined;
  try {
    return new URL(input);
  } catch {
    return undefined;
  }
}

function failure(f: FetchFailure): string {
  switch (f.kind) {
    case "timeout":
      return "Request timed out";
    case "too-large":
      return TOO_LARGE;
    case "aborted":
      return "The operation was aborted.";
    case "invalid-url":
    case "scheme":
      return "URL must start with http:// or https://";
    case "blocked-host":
      return `Refusing to fetch ${f.host}: it names this machine`;
    case "blocked-address":
      return `Refusing to fetch ${f.host}: it resolves to a private address (${f.address})`;
    case "dns":
      return `Cannot resolve ${f.host}: ${f.message}`;
    case "too-many-redirects":
      return `Too many redirects (more than ${f.limit})`;
    case "network":
      return f.message;
  }
}
