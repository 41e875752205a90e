import type { EditorTheme, MarkdownTheme, SelectListTheme } from "@mariozechner/pi-tui";
import type { CodeHighlighter } from "./code-highlight.js";
import type { Style } from "./style.js";

/** pi-tui's themes from the chat's `Style`: with colours off every function is the identity. */
export function selectListTheme(style: Style): SelectListTheme {
  return {
    selectedPrefix: (text) => style.cyan(text),
    selectedText: (text) => style.bold(text),
    description: (text) => style.dim(text),
    scrollInfo: (text) => style.dim(text),
    noMatch: (text) => style.dim(text),
  };
}

export function editorTheme(style: Style): EditorTheme {
  return { borderColor: (text) => style.dim(text), selectList: selectListTheme(style) };
}

export function markdownTheme(style: Style, highlighter: CodeHighlighter): MarkdownTheme {
  return {
    heading: (text) => style.bold(style.magenta(text)),
    link: (text) => style.cyan(text),
    linkUrl: (text) => style.dim(text),
    code: (text) => style.cyan(text),
    codeBlock: (text) => text,
    codeBlockBorder: (text) => style.dim(text),
    quote: (text) => style.italic(text),
    quoteBorder: (text) => style.dim(text),
    hr: (text) => style.dim(text),
    // pi-tui writes "- " for a bullet; the chat has always shown "• ".
    listBullet: (text) => style.cyan(text === "- " ? "• " : text),
    bold: (text) => style.bold(text),
    italic: (text) => style.italic(text),
    strikethrough: (text) => (style.enabled ? `\x1b[9m${text}\x1b[29m` : text),
    underline: (text) => (style.enabled ? `\x1b[4m${text}\x1b[24m` : text),
    ...(style.enabled ? { highlightCode: (code, lang) => highlighter.lines(code, lang) } : {}),
  };
}
