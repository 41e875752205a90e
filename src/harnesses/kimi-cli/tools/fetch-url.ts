import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { fetchAccess } from "../../../tools/web/fetch-access.js";
import { bodyText, fetchPage } from "../../../tools/web/fetch-page.js";
import { htmlToText } from "../../../tools/web/html-text.js";
import type { FetchFailure } from "../../../tools/web/types.js";
import { ResultBuilder } from "../result-builder.js";
import { fetchUrlSchema } from "../tool-schemas.js";
import description from "./fetch-url.md";

/** The browser 1.49.0's plain GET says it is. */
const USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/91.0.4472.124 Safari/537.36";

const Args = z.object({ url: z.string() });
type Args = z.infer<typeof Args>;

/**
 * Kimi CLI 1.49.0 `FetchURL` without Moonshot's fetch service (`tools/web/fetch.py`
 * `fetch_with_http_get`): `text/plain` and `text/markdown` whole, other pages reduced to their
 * main text (our extractor in place of trafilatura), its status and error messages; redirects
 * followed, every hop held to the session's address rules.
 */
export function fetchUrlTool(): Tool<Args> {
  return {
    name: "FetchURL",
    description: description.trimEnd(),
    kind: "fetch",
    capability: "other",
    parameters: fetchUrlSchema,
    schema: Args,
    preview: async (args) => ({ title: `Fetch ${args.url}` }),
    access(args, ctx) {
      const url = URL.canParse(args.url) ? new URL(args.url) : undefined;
      return fetchAccess(url && /^https?:$/.test(url.protocol) ? [url] : [], ctx.web);
    },
    async execute(args, ctx) {
      const builder = new ResultBuilder(null);
      const network = (reason: string) =>
        builder.error(
          `Failed to fetch URL due to network error: ${reason}. This may indicate the URL is invalid or the server is unreachable.`,
        );
      if (!URL.canParse(args.url)) return network(`Invalid URL '${args.url}'`);
      if (!ctx.web) return network("web access is not available outside a session");
      const outcome = await fetchPage({
        web: ctx.web,
        url: new URL(args.url),
        signal: ctx.signal,
        headers: { "user-agent": USER_AGENT },
        redirects: "follow",
      });
      if (outcome.type === "failed") {
        if (outcome.failure.kind === "timeout")
          return builder.error(
            "Failed to fetch URL: request timed out. The server may be slow or unreachable.",
          );
        return network(reason(outcome.failure));
      }
      if (outcome.type === "redirect") return network(`redirected to ${outcome.to.href}`);
      const { page } = outcome;
      if (page.status >= 400)
        return builder.error(
          `Failed to fetch URL. Status: ${page.status}. This may indicate the page is not accessible or the server is down.`,
        );
      const text = bodyText(page);
      if (page.contentType === "text/plain" || page.contentType === "text/markdown") {
        builder.write(text);
        return builder.ok("The returned content is the full content of the page.");
      }
      if (!text) return builder.ok("The response body is empty.");
      const main = page.contentType === "text/html" ? await htmlToText(text) : "";
      if (!main)
        return builder.error(
          "Failed to extract meaningful content from the page. This may indicate the page content is not suitable for text extraction, or the page requires JavaScript to render its content.",
        );
      builder.write(main);
      return builder.ok("The returned content is the main text content extracted from the page.");
    },
  };
}

function reason(failure: FetchFailure): string {
  switch (failure.kind) {
    case "invalid-url":
      return `Invalid URL '${failure.input}'`;
    case "scheme":
      return `unsupported scheme ${failure.protocol}`;
    case "blocked-host":
      return `refusing to fetch the private host ${failure.host}`;
    case "blocked-address":
      return `refusing to fetch ${failure.host}: it is the private address ${failure.address}`;
    case "dns":
      return `cannot resolve ${failure.host}: ${failure.message}`;
    case "too-large":
      return `response body larger than ${failure.limit} bytes`;
    case "too-many-redirects":
      return `more than ${failure.limit} redirects`;
    case "timeout":
      return `timed out after ${failure.ms} ms`;
    case "aborted":
      return "the request was aborted";
    case "network":
      return failure.message;
  }
}
