import { z } from "zod";
import type { Tool, ToolContext } from "../../../tools/types.js";
import { failureText } from "../../../tools/web/failure-text.js";
import { fetchAccess } from "../../../tools/web/fetch-access.js";
import { bodyText, fetchPage } from "../../../tools/web/fetch-page.js";
import { htmlToText } from "../../../tools/web/html-text.js";
import { WEB_USER_AGENT } from "../../../tools/web/user-agent.js";
import description from "../descriptions/web-fetch.md";
import type { ToolFamily } from "../tool-family.js";
import { webFetchSchema } from "../tool-schemas.js";
import { untrustedContext } from "../untrusted-context.js";

/** Gemini CLI 0.61's fallback fetch: a 10 s limit per URL and 250,000 characters across all pages. */
export const FETCH_TIMEOUT_MS = 10_000;
export const CONTENT_BUDGET = 250_000;
/** URLs of one prompt that are fetched, as 0.61's description promises. */
export const MAX_URLS = 20;
/** Its side request's sampling: deterministic. */
const SIDE_KNOBS = { temperature: 0, topP: 1 };

const LEAD = "Carry out the user's instructions below on the web page content that follows them.";
const FETCHED =
  "Each page named in the instructions has been fetched for you; its text is below. Answer from this content only and do not try to open the URLs again.";

const Args = z.object({ prompt: z.string() });
type Args = z.infer<typeof Args>;

/**
 * Gemini CLI `web_fetch` (0.61) as it runs for models other than Gemini's own: 0.61 first asks
 * Gemini with its `urlContext` server tool, which no other endpoint has, and otherwise fetches
 * each URL of the prompt itself and asks the model again with the pages' text. We take that
 * second path: blocked hosts are skipped as `[Blocked Host]`, the pages (HTML as text) go to a
 * side request with the session's system prompt, and the answer comes back in
 * `<untrusted_context>`. 0.61's error texts.
 */
export function webFetchTool(options: { family: ToolFamily; system(): string }): Tool<Args> {
  return {
    name: "web_fetch",
    description: description.trimEnd(),
    kind: "fetch",
    capability: "other",
    parameters: webFetchSchema(options.family),
    schema: Args,
    preview: async (args) => ({
      title: `Fetch: ${args.prompt.length > 80 ? `${args.prompt.slice(0, 77)}...` : args.prompt}`,
    }),
    access: (args, ctx) => fetchAccess(promptUrls(args.prompt).valid, ctx.web),
    async execute(args, ctx) {
      if (!args.prompt.trim())
        return error("The 'prompt' parameter cannot be empty and must contain URL(s) and instructions.");
      const { valid, problems } = promptUrls(args.prompt);
      if (problems.length > 0)
        return error(`Error(s) in prompt URLs:\n${problems.map((p) => `- ${p}`).join("\n")}`);
      if (valid.length === 0)
        return error("The 'prompt' must contain at least one valid URL (starting with http:// or https://).");
      if (!ctx.web || !ctx.model) return error("web_fetch is not available outside a session.");
      const skipped: string[] = [];
      const failed: Array<{ url: string; message: string }> = [];
      const sources: Array<{ url: string; text: string }> = [];
      let budget = CONTENT_BUDGET;
      for (const url of valid) {
        const page = await fetchText(url, ctx);
        if (page.type === "skipped") skipped.push(`[Blocked Host] ${url.href}`);
        else if (page.type === "failed") failed.push({ url: url.href, message: page.message });
        else {
          sources.push({ url: url.href, text: page.text.slice(0, Math.max(0, budget)) });
          budget -= page.text.length;
        }
        if (ctx.signal.aborted) return error("aborted");
      }
      if (skipped.length === valid.length)
        return error(`All requested URLs were skipped: ${skipped.join(", ")}`);
      if (sources.length === 0)
        return error(
          `All fallback fetch attempts failed: ${failed.map((f) => `${f.url}: ${f.message}`).join("; ")}`,
        );
      const answer = await ctx.model.ask(
        { system: options.system(), prompt: sidePrompt(args.prompt, sources, failed), ...SIDE_KNOBS },
        ctx.signal,
      );
      if ("error" in answer)
        return error(`Error during fallback fetch for ${valid[0]?.href}: ${answer.error}`);
      const warning =
        skipped.length > 0 ? `[Warning] The following URLs were skipped:\n${skipped.join("\n")}\n\n` : "";
      return { output: untrustedContext(`${warning}${answer.text}`) };
    },
  };
}

const error = (output: string) => ({ output, isError: true });

/** The prompt's words that contain `://`, as 0.61 finds URLs, split into fetchable ones and problems. */
function promptUrls(prompt: string): { valid: URL[]; problems: string[] } {
  const valid: URL[] = [];
  const problems: string[] = [];
  for (const token of prompt
    .split(/\s+/)
    .filter((word) => word.includes("://"))
    .slice(0, MAX_URLS)) {
    let url: URL;
    try {
      url = new URL(token);
    } catch {
      problems.push(`Malformed URL detected: "${token}".`);
      continue;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      problems.push(`Unsupported protocol in URL: "${token}". Only http and https are supported.`);
    else valid.push(url);
  }
  return { valid, problems };
}

type PageText = { type: "text"; text: string } | { type: "skipped" } | { type: "failed"; message: string };

async function fetchText(url: URL, ctx: ToolContext): Promise<PageText> {
  if (!ctx.web) return { type: "failed", message: "no web access" };
  const outcome = await fetchPage({
    web: ctx.web,
    url,
    signal: ctx.signal,
    headers: { accept: "*/*", "user-agent": WEB_USER_AGENT },
    redirects: "follow",
    timeoutMs: FETCH_TIMEOUT_MS,
  });
  if (outcome.type === "failed") {
    const { failure } = outcome;
    const blocked =
      failure.kind === "blocked-host" || failure.kind === "blocked-address" || failure.kind === "dns";
    return blocked ? { type: "skipped" } : { type: "failed", message: failureText(failure, url.href) };
  }
  if (outcome.type === "redirect") return { type: "failed", message: `redirected to ${outcome.to.href}` };
  const { page } = outcome;
  if (page.status >= 400)
    return {
      type: "failed",
      message: `Request failed with status code ${page.status} ${page.statusText}`.trim(),
    };
  const text = bodyText(page);
  return {
    type: "text",
    text: page.contentType === "text/html" ? await htmlToText(text, { uppercaseHeadings: true }) : text,
  };
}

/** 0.61's fallback request: the instructions in `<user_instructions>`, each page in a `<source>` of `<content>`. */
function sidePrompt(
  prompt: string,
  sources: Array<{ url: string; text: string }>,
  failed: Array<{ url: string; message: string }>,
): string {
  const pages = [
    ...sources.map((s) => `<source url="${escapeXml(s.url)}">\n${s.text}\n</source>`),
    ...failed.map((f) => `<source url="${escapeXml(f.url)}">\nError: ${f.message}\n</source>`),
  ];
  return `${LEAD}\n\n<user_instructions>\n${escapeXml(prompt)}\n</user_instructions>\n\n${FETCHED}\n\n<content>\n${pages.join("\n")}\n</content>\n`;
}

function escapeXml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;");
}
