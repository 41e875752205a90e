import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { fetchAccess } from "../../../tools/web/fetch-access.js";
import { bodyText, fetchPage } from "../../../tools/web/fetch-page.js";
import { htmlTitle, htmlToText } from "../../../tools/web/html-text.js";
import type { FetchFailure } from "../../../tools/web/types.js";
import { WEB_USER_AGENT } from "../../../tools/web/user-agent.js";
import { savedOutput } from "../saved-output.js";
import { fetchUrlSchema } from "../tool-schemas.js";
import description from "./fetch-url.md";

/** Kimi Code 2.1.0's one-line notes ahead of the content, by how it was obtained. */
export const EXTRACTED_NOTE =
  "The returned content is the main text extracted from the page. If you use it in your answer, cite this page as a markdown link, e.g. [title](url).";
export const VERBATIM_NOTE =
  "The returned content is the full response body, returned verbatim. If you use it in your answer, cite this page as a markdown link, e.g. [title](url).";
export const EMPTY_BODY = "The response body is empty.";
const NO_CONTENT =
  "Failed to extract meaningful content from the page. The page may require JavaScript to render.";

const Args = z.object({ url: z.string() });
type Args = z.infer<typeof Args>;

/**
 * Kimi Code `FetchURL` (2.1.0): an HTML page as its title (`# …`) and plain text, `text/plain`
 * and `text/markdown` verbatim, each behind 2.1.0's note; anything else (JSON, binary, an empty
 * page) cannot be extracted. Redirects are followed, every hop checked; 2.1.0's refusal and
 * error texts; output over 50,000 characters saved to a file with a preview.
 */
export function fetchUrlTool(options: { scratchDir: string }): Tool<Args> {
  return {
    name: "FetchURL",
    description,
    kind: "fetch",
    capability: "other",
    parameters: fetchUrlSchema,
    schema: Args,
    preview: async (args) => ({ title: `Fetch ${args.url}` }),
    access(args, ctx) {
      const url = parse(args.url);
      return fetchAccess(url && /^https?:$/.test(url.protocol) ? [url] : [], ctx.web);
    },
    async execute(args, ctx) {
      const fail = (reason: string) => ({
        output: `Failed to fetch URL due to network error: ${args.url}. ${reason}`,
        isError: true,
      });
      const url = parse(args.url);
      if (!url) return fail(`Invalid URL: ${JSON.stringify(args.url)}`);
      if (!ctx.web) return fail("Web access is not available outside a session.");
      const outcome = await fetchPage({
        web: ctx.web,
        url,
        signal: ctx.signal,
        headers: { "user-agent": WEB_USER_AGENT },
        redirects: "follow",
      });
      if (outcome.type === "failed") return fail(reason(outcome.failure));
      if (outcome.type === "redirect") return fail(`Redirected to ${outcome.to.href}`);
      const { page } = outcome;
      if (page.status >= 400) {
        const status = `${page.status} ${page.statusText}`.trim();
        return { output: `Failed to fetch URL. Status: ${page.status}. HTTP ${status}`, isError: true };
      }
      const text = bodyText(page);
      if (page.contentType === "text/plain" || page.contentType === "text/markdown") {
        if (text === "") return { output: EMPTY_BODY };
        return { output: await spill(`${VERBATIM_NOTE}\n\n${text}`, options.scratchDir, ctx.callId) };
      }
      if (page.contentType !== "text/html") return fail(NO_CONTENT);
      const main = await htmlToText(text);
      if (!main) return fail(NO_CONTENT);
      const title = await htmlTitle(text);
      const content = title ? `# ${title}\n\n${main}` : main;
      return { output: await spill(`${EXTRACTED_NOTE}\n\n${content}`, options.scratchDir, ctx.callId) };
    },
  };
}

function parse(input: string): URL | undefined {
  try {
    return new URL(input);
  } catch {
    return undefined;
  }
}

async function spill(text: string, scratchDir: string, callId = ""): Promise<string> {
  return (await savedOutput({ text, toolName: "FetchURL", callId, scratchDir })) ?? text;
}

/** 2.1.0's wording of why the fetch did not happen. */
function reason(failure: FetchFailure): string {
  switch (failure.kind) {
    case "invalid-url":
      return `Invalid URL: ${JSON.stringify(failure.input)}`;
    case "scheme":
      return `Unsupported URL scheme "${failure.protocol}" — only http(s) allowed.`;
    case "blocked-host":
      return `Refusing to fetch private host: "${failure.host}"`;
    case "blocked-address":
      return failure.literal
        ? `Refusing to fetch private address: "${failure.address}"`
        : `Refusing to fetch host "${failure.host}": resolves to private address "${failure.address}".`;
    case "dns":
      return `Cannot resolve host "${failure.host}" for the fetch safety check: ${failure.message}`;
    case "too-large":
      return `Response body too large: ${failure.bytes ?? `more than ${failure.limit}`} bytes exceeds maxBytes (${failure.limit}).`;
    case "too-many-redirects":
      return `Too many redirects (more than ${failure.limit}).`;
    case "timeout":
      return `The request timed out after ${failure.ms} ms.`;
    case "aborted":
      return "The request was aborted.";
    case "network":
      return failure.message;
  }
}
