import { z } from "zod";
import type { Tool, ToolContext } from "../../../../tools/types.js";
import { privateHostAllowed } from "../../../../tools/web/address-policy.js";
import { failureText } from "../../../../tools/web/failure-text.js";
import { fetchAccess } from "../../../../tools/web/fetch-access.js";
import { bodyText, fetchPage } from "../../../../tools/web/fetch-page.js";
import { htmlToMarkdown } from "../../../../tools/web/html-text.js";
import { WEB_USER_AGENT } from "../../../../tools/web/user-agent.js";
import { CLAUDE_AGENT_IDENTITY } from "../identity.js";
import type { ToolSurface } from "./tool-surface.js";
import guidelines from "./web-fetch-guidelines.md";

/** Claude Code 2.1.44 cuts page content at this many characters before the small model reads it. */
export const MAX_CONTENT_CHARS = 100_000;
export const CONTENT_TRUNCATED = "\n\n[Content truncated due to length...]";
export const NO_RESPONSE = "No response from model";
/** Claude Code's side request: its usual `max_tokens` and temperature. */
const SIDE_KNOBS = { maxTokens: 32_000, temperature: 1 };

const Args = z.object({ url: z.url(), prompt: z.string() });
type Args = z.infer<typeof Args>;

/**
 * Claude Code `WebFetch` (2.1.44): the page as Markdown (Turndown) is read by a small model that
 * answers `prompt`, and that answer is the result; `http:` is upgraded to `https:` (not for a
 * server `[web] allow_private` names: local servers rarely speak TLS); a redirect to another
 * host is not followed but described; 2.1.44's `Invalid URL` and `Request failed with status
 * code N` texts. The small model is `[web] small_model`, else the session's.
 */
export function webFetchTool(surface: ToolSurface & { identity?: string }): Tool<Args> {
  return {
    name: "WebFetch",
    description: surface.description,
    kind: "fetch",
    capability: "other",
    parameters: surface.parameters,
    schema: Args,
    preview: async (args, ctx) => ({ title: `Fetch ${target(args.url, ctx)?.href ?? args.url}` }),
    access(args, ctx) {
      const url = target(args.url, ctx);
      return fetchAccess(url ? [url] : [], ctx.web);
    },
    async execute(args, ctx) {
      const url = target(args.url, ctx);
      if (!url) return { output: "Invalid URL", isError: true };
      if (!ctx.web || !ctx.model)
        return { output: "WebFetch is not available outside a session.", isError: true };
      const outcome = await fetchPage({
        web: ctx.web,
        url,
        signal: ctx.signal,
        headers: { accept: "text/markdown, text/html, */*", "user-agent": WEB_USER_AGENT },
        redirects: "same-host",
      });
      if (outcome.type === "failed") return { output: failureText(outcome.failure, url.href), isError: true };
      if (outcome.type === "redirect") {
        const status = `${outcome.status} ${outcome.statusText}`.trim();
        return { output: redirectText({ from: url.href, to: outcome.to.href, status, prompt: args.prompt }) };
      }
      const { page } = outcome;
      if (page.status >= 400)
        return { output: `Request failed with status code ${page.status}`, isError: true };
      const text = bodyText(page);
      const markdown = page.contentType === "text/html" ? await htmlToMarkdown(text) : text;
      const content =
        markdown.length > MAX_CONTENT_CHARS
          ? markdown.slice(0, MAX_CONTENT_CHARS) + CONTENT_TRUNCATED
          : markdown;
      const answer = await ctx.model.ask(
        {
          system: surface.identity ?? CLAUDE_AGENT_IDENTITY,
          prompt: sidePrompt(content, args.prompt),
          ...SIDE_KNOBS,
        },
        ctx.signal,
      );
      if ("error" in answer) return { output: answer.error, isError: true };
      return { output: answer.text || NO_RESPONSE };
    },
  };
}

/**
 * The URL as 2.1.44 fetches it: at most 2,000 characters, no credentials, a host of at least
 * two labels (so `localhost` is refused here), `http:` upgraded. Undefined when invalid.
 */
function target(input: string, ctx: ToolContext): URL | undefined {
  if (input.length > 2000) return undefined;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return undefined;
  }
  if (url.username || url.password || url.hostname.split(".").length < 2) return undefined;
  if (url.protocol === "http:" && !(ctx.web && privateHostAllowed(url, ctx.web.config)))
    url.protocol = "https:";
  return url;
}

/** 2.1.44's side request: the page between `---` lines, the model's prompt, then the guidelines. */
export function sidePrompt(content: string, prompt: string): string {
  return `\nWeb page content:\n---\n${content}\n---\n\n${prompt}\n\n${guidelines.trim()}\n`;
}

/** 2.1.44's answer to a redirect to another host (a result, not an error). */
function redirectText(o: { from: string; to: string; status: string; prompt: string }): string {
  return `REDIRECT DETECTED: The URL redirects to a different host.

Original URL: ${o.from}
Redirect URL: ${o.to}
Status: ${o.status}

To complete your request, I need to fetch content from the redirected URL. Please use WebFetch again with these parameters:
- url: "${o.to}"
- prompt: "${o.prompt}"`;
}
