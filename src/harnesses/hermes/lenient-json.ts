export type JsonResult = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * `JSON.parse`, then one retry that repairs the two slips small models make most when they write
 * calls as text: raw newlines or tabs inside strings (a multi-line patch or script) and trailing
 * commas. The error reported is the one from the original text.
 */
export function parseLenientJson(text: string): JsonResult {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    try {
      return { ok: true, value: JSON.parse(repair(text)) };
    } catch {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }
}

function repair(text: string): string {
  let out = "";
  let inString = false;
  let escaped = false;
  for (const ch of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
      else if (ch === "\n") {
        out += "\\n";
        continue;
      } else if (ch === "\r") {
        out += "\\r";
        continue;
      } else if (ch === "\t") {
        out += "\\t";
        continue;
      }
      out += ch;
      continue;
    }
    if (ch === '"') inString = true;
    if (ch === "}" || ch === "]") out = dropTrailingComma(out);
    out += ch;
  }
  return out;
}

function dropTrailingComma(text: string): string {
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  return text[end - 1] === "," ? text.slice(0, end - 1) + text.slice(end) : text;
}
