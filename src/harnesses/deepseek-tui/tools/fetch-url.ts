import { z } from "zod";
import type { Tool, ToolResult } from "../../../tools/types.js";
import { fetchAccess } from "../../../tools/web/fetch-access.js";
import { fetchPage } from "../../../tools/web/fetch-page.js";
import type { FetchFailure } from "../../../tools/web/types.js";
import { fetchUrlSchema } from "../git-web-schemas.js";
import { failed, forContext, invalidInput } from "../tool-result.js";
import description from "./fetch-url.md";
import { jsonPath } from "./json-path.js";

const Args = z.looseObject({
  url: z.string(),
  format: z.string().optional(),
  max_bytes: z.number().int().min(0).optional(),
  timeout_ms: z.number().int().min(0).optional(),
  fields: z.array(z.string()).optional(),
});
type Args = z.infer<typeof Args>;

const USER_AGENT = "Mozilla/5.0 (compatible; codewhale/0.5; +https://github.com/Hmbown/CodeWhale)";

/** CodeWhale's formats and their other names (`Format::parse`). */
function readFormat(value: string | undefined): "text" | "raw" | undefined {
  const v = (value ?? "markdown").trim().toLowerCase();
  if (["text", "txt", "plain", "markdown", "md"].includes(v)) return "text";
  if (["raw", "html", "bytes"].includes(v)) return "raw";
  return undefined;
}

/** CodeWhale's `html_to_text`: scripts and styles dropped, tags become spaces, a few entities decoded, whitespace collapsed. */
export function htmlToText(html: string): string {
  return html
    .replace(/<script[^>]*>[\s\S]*?<\/script>/gi, "")
    .replace(/<style[^>]*>[\s\S]*?<\/style>/gi, "")
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&amp;", "&")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&apos;", "'")
    .replaceAll("&nbsp;", " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** A fetch that produced no response, in CodeWhale's words (its SSRF refusals are permission errors). */
function failureResult(failure: FetchFailure): ToolResult {
  const denied = (message: string) =>
    failed(`Tool 'fetch_url' was denied: ${message}. Adjust approval mode or request permission.`);
  switch (failure.kind) {
    case "scheme":
      return invalidInput("fetch_url", "only http:// and https:// URLs are supported");
    case "invalid-url":
      return invalidInput("fetch_url", `invalid URL: ${failure.input}`);
    case "blocked-host":
      return denied("requests to localhost are not allowed");
    case "blocked-address":
      return denied(
        `${failure.literal ? "" : "resolved "}IP ${failure.address} is a restricted address (private/loopback/link-local)`,
      );
    case "timeout":
      return failed("request failed: operation timed out");
    case "aborted":
      return failed("request failed: the request was cancelled");
    case "too-large":
      return failed(`failed to read body: the response is larger than ${failure.limit} bytes`);
    case "too-many-redirects":
      return failed(`request failed: more than ${failure.limit} redirects`);
    default:
      return failed(
        `request failed: ${failure.kind === "dns" ? `${failure.host}: ${failure.message}` : failure.message}`,
      );
  }
}

/**
 * CodeWhale `fetch_url` (0.8.44 `tools/fetch_url.rs`): a GET under the daemon's network rules,
 * answered as indented JSON `{url, status, headers, content_type, content, truncated, fields?}`:
 * headers sorted, the body cut at `max_bytes`, HTML reduced to text unless `raw`; a 4xx or 5xx
 * answer is the same JSON marked as a failure.
 */
export function fetchUrlTool(options: { model: string }): Tool<Args> {
  return {
    name: "fetch_url",
    description: description.trimEnd(),
    kind: "fetch",
    capability: "other",
    parameters: fetchUrlSchema,
    schema: Args,
    preview: async (args) => ({ title: `fetch_url ${args.url}` }),
    access: (args, ctx) => {
      const url = URL.canParse(args.url.trim()) ? new URL(args.url.trim()) : undefined;
      return fetchAccess(url ? [url] : [], ctx.web);
    },
    async execute(args, ctx) {
      const raw = args.url.trim();
      if (!raw) return invalidInput("fetch_url", "`url` cannot be empty");
      if (!raw.startsWith("http://") && !raw.startsWith("https://"))
        return invalidInput("fetch_url", "only http:// and https:// URLs are supported");
      const format = readFormat(args.format);
      if (!format)
        return invalidInput(
          "fetch_url",
          `unknown format \`${args.format?.trim().toLowerCase()}\` (allowed: text, markdown, raw)`,
        );
      if (!URL.canParse(raw)) return invalidInput("fetch_url", `invalid URL: ${raw}`);
      if (!ctx.web) return failed("request failed: web access is not available in this session");
      const outcome = await fetchPage({
        web: ctx.web,
        url: new URL(raw),
        signal: ctx.signal,
        headers: {
          "user-agent": USER_AGENT,
          accept: "text/html,text/plain,application/json,*/*;q=0.5",
          "accept-language": "en-US,en;q=0.5",
        },
        redirects: "follow",
        timeoutMs: Math.min(args.timeout_ms ?? 15_000, 60_000),
      });
      if (outcome.type === "failed") return failureResult(outcome.failure);
      if (outcome.type === "redirect") return failed(`request failed: redirect to ${outcome.to.href}`);
      const { page } = outcome;
      const max = Math.min(args.max_bytes ?? 1_000_000, 10 * 1024 * 1024);
      const truncated = page.body.length > max;
      const text = page.body.subarray(0, max).toString("utf8");
      const contentType = page.headers["content-type"] ?? "application/octet-stream";
      const fields = (args.fields ?? []).map((f) => f.trim()).filter(Boolean);
      let projected: Record<string, unknown[]> | undefined;
      if (fields.length > 0) {
        if (!contentType.toLowerCase().includes("json"))
          return invalidInput("fetch_url", "`fields` can only be used with JSON responses");
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch (error) {
          return failed(`response body is not valid JSON for \`fields\`: ${(error as Error).message}`);
        }
        projected = {};
        for (const field of [...fields].sort()) {
          const matches = jsonPath(body, field);
          if (matches === undefined)
            return invalidInput("fetch_url", `invalid JSONPath \`${field}\` in \`fields\``);
          projected[field] = matches;
        }
      }
      const html = contentType.includes("text/html") || text.includes("<html");
      const headers = Object.fromEntries(
        Object.entries(page.headers)
          .map(([k, v]) => [k.toLowerCase(), v] as const)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      );
      const response = {
        url: page.url.href,
        status: page.status,
        headers,
        content_type: contentType,
        content: format === "text" && html ? htmlToText(text) : text,
        truncated,
        ...(projected ? { fields: projected } : {}),
      };
      const output = forContext({
        model: options.model,
        tool: "fetch_url",
        output: JSON.stringify(response, null, 2),
      });
      return page.status >= 200 && page.status < 300 ? { output } : { output, isError: true };
    },
  };
}
