import type { Style } from "./style.js";

/** Where a line sits: inside a fenced code block (its opening fence) or in ordinary text. */
export interface MarkdownState {
  fence?: { char: string; length: number };
}

export interface MarkdownViewOptions {
  style: Style;
  /** Terminal columns: a horizontal rule never reaches the edge (it would wrap). */
  width: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const BULLET = /^(\s*)[-*+][ \t]+(?:\[([ xX])\][ \t]+)?(.*)$/;
const NUMBERED = /^(\s*)(\d{1,9}[.)])[ \t]+(.*)$/;

/**
 * Renders one complete line of Markdown for a colour terminal and says what the next line is
 * in. Pure: the caller keeps the state between lines. Nothing is wrapped or cut (the terminal
 * wraps); only a rule is sized to the width.
 */
export function renderMarkdownLine(
  raw: string,
  state: MarkdownState,
  options: MarkdownViewOptions,
): { text: string; state: MarkdownState } {
  const { style } = options;
  const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  if (state.fence) {
    const close = FENCE_CLOSE.exec(line)?.[1];
    if (close?.[0] === state.fence.char && close.length >= state.fence.length)
      return { text: style.dim("└─"), state: {} };
    return { text: line ? `  ${style.cyan(line)}` : "", state };
  }
  const fence = FENCE.exec(line);
  if (fence?.[1]) {
    const marker = fence[1];
    const label = fence[2] ? `┌─ ${fence[2]}` : "┌─";
    return { text: style.dim(label), state: { fence: { char: marker[0] as string, length: marker.length } } };
  }
  return { text: renderBlock(line, options), state };
}

/** A line outside code blocks: headings, rules, quotes, lists, or a paragraph line. */
function renderBlock(line: string, options: MarkdownViewOptions): string {
  const { style } = options;
  const heading = HEADING.exec(line);
  if (heading) {
    // Inner markers are dropped but not styled: a nested reset would end the heading's own style.
    const text = renderInline(heading[2] ?? "", PLAIN);
    const styled = style.bold(style.magenta(text));
    return heading[1]?.length === 1 ? underline(styled, style) : styled;
  }
  if (RULE.test(line)) return style.dim("─".repeat(Math.max(3, Math.min(options.width - 1, 60))));
  const quote = QUOTE.exec(line);
  if (quote) return `${style.dim("│")} ${renderBlock(quote[1] ?? "", options)}`.trimEnd();
  const bullet = BULLET.exec(line);
  if (bullet) {
    const box = bullet[2] === undefined ? "•" : bullet[2] === " " ? "☐" : "☒";
    return `${bullet[1]}${box} ${renderInline(bullet[3] ?? "", style)}`;
  }
  const numbered = NUMBERED.exec(line);
  if (numbered) return `${numbered[1]}${numbered[2]} ${renderInline(numbered[3] ?? "", style)}`;
  return renderInline(line, style);
}

type InlineStyle = Pick<Style, "enabled" | "bold" | "dim" | "italic" | "cyan">;

const identity = (text: string) => text;
const PLAIN: InlineStyle = {
  enabled: false,
  bold: identity,
  dim: identity,
  italic: identity,
  cyan: identity,
};

function underline(text: string, style: Style): string {
  return style.enabled && text ? `\x1b[4m${text}\x1b[24m` : text;
}

const ESCAPABLE = /[!-/:-@[-`{-~]/;

/**
 * Inline Markdown: `code`, **bold**, *italic* / _italic_, [text](url), <url>, backslash
 * escapes. Unmatched markers stay as written; nothing inside a code span is parsed.
 */
export function renderInline(text: string, style: InlineStyle): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === "\\" && ESCAPABLE.test(text[i + 1] ?? "")) {
      out += text[i + 1];
      i += 2;
      continue;
    }
    if (ch === "`") {
      const span = codeSpan(text, i);
      if (span) {
        out += style.cyan(span.code);
        i = span.end;
        continue;
      }
      const run = runLength(text, i, "`");
      out += text.slice(i, i + run);
      i += run;
      continue;
    }
    if (ch === "*" || ch === "_") {
      const emphasis = emphasisAt(text, i);
      if (emphasis) {
        const inner = renderInline(emphasis.content, style);
        // Bold and dim share one reset (SGR 22): bold is turned back on after a dim part inside it.
        out += !emphasis.strong
          ? style.italic(inner)
          : style.enabled
            ? style.bold(inner.replaceAll("\x1b[22m", "\x1b[22m\x1b[1m")).replaceAll("\x1b[1m\x1b[22m", "")
            : style.bold(inner);
        i = emphasis.end;
        continue;
      }
      const run = runLength(text, i, ch);
      out += text.slice(i, i + run);
      i += run;
      continue;
    }
    if (ch === "[" || (ch === "!" && text[i + 1] === "[")) {
      const link = linkAt(text, ch === "!" ? i + 1 : i);
      if (link) {
        const label = renderInline(link.label, style);
        out +=
          link.label === link.url || !link.label
            ? style.cyan(link.url)
            : `${label} ${style.dim(`(${link.url})`)}`;
        i = link.end;
        continue;
      }
    }
    if (ch === "<") {
      const auto = /^<((?:https?|mailto):[^\s<>]+)>/.exec(text.slice(i));
      if (auto?.[1]) {
        out += style.cyan(auto[1]);
        i += auto[0].length;
        continue;
      }
    }
    out += ch;
    i++;
  }
  return out;
}

function runLength(text: string, at: number, ch: string): number {
  let end = at;
  while (text[end] === ch) end++;
  return end - at;
}

/** A code span opened by a run of backticks closes at the next run of the same length. */
function codeSpan(text: string, at: number): { code: string; end: number } | undefined {
  const run = runLength(text, at, "`");
  let i = at + run;
  while (i < text.length) {
    const next = text.indexOf("`", i);
    if (next < 0) return undefined;
    const length = runLength(text, next, "`");
    if (length === run) {
      let code = text.slice(at + run, next);
      if (code.length > 2 && code.startsWith(" ") && code.endsWith(" ")) code = code.slice(1, -1);
      return { code, end: next + run };
    }
    i = next + length;
  }
  return undefined;
}

/**
 * `**x**` / `__x__` (strong) or `*x*` / `_x_` (emphasis). An opener is not followed by a space,
 * a closer not preceded by one; `_` never works inside a word (snake_case stays as written).
 */
function emphasisAt(text: string, at: number): { strong: boolean; content: string; end: number } | undefined {
  const ch = text[at] as string;
  const wordy = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
  if (ch === "_" && wordy(text[at - 1])) return undefined;
  const run = runLength(text, at, ch);
  for (const size of run >= 2 ? [2, 1] : [1]) {
    const start = at + size;
    if (!text[start] || /\s/.test(text[start] as string)) continue;
    let i = start;
    while (i < text.length) {
      const c = text[i] as string;
      if (c === "\\") {
        i += 2;
        continue;
      }
      if (c === "`") {
        i = codeSpan(text, i)?.end ?? i + runLength(text, i, "`");
        continue;
      }
      if (c !== ch) {
        i++;
        continue;
      }
      const length = runLength(text, i, ch);
      // In `***x***` the strong closer is the last two markers of the run.
      const close = i + length - size;
      const ok = length >= size && close > start && !/\s/.test(text[close - 1] as string);
      if (ok && !(ch === "_" && wordy(text[close + size]))) {
        return { strong: size === 2, content: text.slice(start, close), end: close + size };
      }
      i += length;
    }
  }
  return undefined;
}

/** `[label](url "title")` with balanced brackets and parentheses. */
function linkAt(text: string, at: number): { label: string; url: string; end: number } | undefined {
  let depth = 0;
  let i = at;
  for (; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "[") depth++;
    else if (text[i] === "]" && --depth === 0) break;
  }
  if (depth !== 0 || text[i + 1] !== "(") return undefined;
  const labelEnd = i;
  depth = 0;
  let j = i + 1;
  for (; j < text.length; j++) {
    if (text[j] === "(") depth++;
    else if (text[j] === ")" && --depth === 0) break;
    else if (text[j] === " " && depth === 1 && !/^ +"[^"]*" *\)/.test(text.slice(j))) return undefined;
  }
  if (depth !== 0) return undefined;
  const url = text
    .slice(i + 2, j)
    .replace(/ +"[^"]*" *$/, "")
    .replace(/^<(.*)>$/, "$1");
  if (!url) return undefined;
  return { label: text.slice(at + 1, labelEnd), url, end: j + 1 };
}
