/**
 * Gemini CLI refuses edits whose new text stands in for code with a placeholder line such as
 * `// rest of methods ...` (google-gemini/gemini-cli `packages/core/src/tools/omissionPlaceholderDetector.ts`).
 * Returns the placeholders found, normalized (`rest of methods ...`).
 */
const OMITTED_PREFIXES = new Set([
  "rest of",
  "rest of method",
  "rest of methods",
  "rest of code",
  "unchanged code",
  "unchanged method",
  "unchanged methods",
]);

export function omissionPlaceholders(text: string): string[] {
  const found: string[] = [];
  for (const line of text.replaceAll("\r\n", "\n").split("\n")) {
    const placeholder = normalize(line);
    if (placeholder) found.push(placeholder);
  }
  return found;
}

function normalize(line: string): string | undefined {
  let text = line.trim();
  if (!text) return undefined;
  if (text.startsWith("//")) text = text.slice(2).trim();
  if (text.startsWith("(") && text.endsWith(")")) text = text.slice(1, -1).trim();
  const ellipsis = text.indexOf("...");
  if (ellipsis < 0) return undefined;
  const prefix = text.slice(0, ellipsis).trim().toLowerCase().split(/\s+/).filter(Boolean).join(" ");
  const suffix = text.slice(ellipsis + 3).trim();
  if (!OMITTED_PREFIXES.has(prefix)) return undefined;
  if (suffix.length > 0 && !/^\.+$/.test(suffix)) return undefined;
  return `${prefix} ...`;
}
