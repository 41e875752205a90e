import type TurndownService from "turndown";

// HTML to Markdown (Claude Code converts pages with Turndown, as we do) and to plain text (what
// Kimi Code's and Gemini CLI's extractors give the model), both on Turndown's parser and its
// whitespace rules. Turndown is loaded on the first fetch only, like the model SDKs.

/**
 * HTML converted at most per page. Turndown runs on the daemon's event loop for a time that
 * grows with the page (docs/performance.md), so a page of many megabytes would stall every
 * session; the first half million characters usually hold more text than any original passes on.
 */
export const MAX_HTML_CHARS = 500_000;

/** Elements whose text is never page content. */
const DROPPED = ["head", "title", "script", "style", "noscript", "template", "iframe", "svg", "canvas"];

async function turndown(options: TurndownService.Options = {}): Promise<TurndownService> {
  const { default: Turndown } = await import("turndown");
  return new Turndown({ headingStyle: "setext", codeBlockStyle: "indented", ...options });
}

/**
 * Turndown's default Markdown (setext headings, `*   ` bullets, inline links), scripts and styles
 * left out; `options` for an original that sets Turndown's style its own way (opencode: atx, `-`).
 */
export async function htmlToMarkdown(html: string, options: TurndownService.Options = {}): Promise<string> {
  const service = await turndown(options);
  service.remove(DROPPED as TurndownService.Filter);
  return service.turndown(html.slice(0, MAX_HTML_CHARS));
}

const BLOCKS = new Set([
  "ADDRESS",
  "ARTICLE",
  "ASIDE",
  "BLOCKQUOTE",
  "DD",
  "DETAILS",
  "DIV",
  "DL",
  "DT",
  "FIELDSET",
  "FIGCAPTION",
  "FIGURE",
  "FOOTER",
  "FORM",
  "H1",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
  "HEADER",
  "HR",
  "LI",
  "MAIN",
  "NAV",
  "OL",
  "P",
  "PRE",
  "SECTION",
  "SUMMARY",
  "TABLE",
  "TR",
  "UL",
]);
const HEADINGS = new Set(["H1", "H2", "H3", "H4", "H5", "H6"]);

/**
 * The page's readable text: one paragraph per block element, line breaks kept, links as their
 * text, images dropped, nothing escaped. `uppercaseHeadings` writes `<h1>`–`<h6>` in capitals
 * (Gemini CLI's html-to-text does).
 */
export async function htmlToText(
  html: string,
  options: { uppercaseHeadings?: boolean } = {},
): Promise<string> {
  const service = await turndown();
  const dropped = new Set(DROPPED.map((name) => name.toUpperCase()));
  service.remove(DROPPED as TurndownService.Filter);
  service.addRule("plain-text", {
    filter: (node) => !dropped.has(node.nodeName),
    replacement(content, node) {
      const name = node.nodeName;
      if (name === "BR") return "\n";
      if (name === "IMG") return "";
      if (name === "TD" || name === "TH") return `${content} `;
      const text = options.uppercaseHeadings && HEADINGS.has(name) ? content.toUpperCase() : content;
      return BLOCKS.has(name) ? `\n\n${text}\n\n` : text;
    },
  });
  service.escape = (text) => text;
  return service.turndown(html.slice(0, MAX_HTML_CHARS)).trim();
}

/** The text of the page's `<title>`, entities decoded; "" when it has none. */
export async function htmlTitle(html: string): Promise<string> {
  const raw = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  if (!raw?.trim()) return "";
  const service = await turndown();
  service.escape = (text) => text;
  return service.turndown(`<p>${raw}</p>`).replace(/\s+/g, " ").trim();
}
