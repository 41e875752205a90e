/**
 * Python's `json.dumps(value, ensure_ascii=False)`: JSON with `", "` and `": "` between items,
 * the form 1.49.0's question tools answer in.
 */
export function pyJson(value: unknown): string {
  let out = "";
  let inString = false;
  let escaped = false;
  for (const char of JSON.stringify(value)) {
    out += char;
    if (inString) {
      if (escaped) escaped = false;
      else if (char === "\\") escaped = true;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "," || char === ":") out += " ";
  }
  return out;
}
