/**
 * CodeWhale's small glob matcher (`tools/search.rs` `matches_glob`): `**` splits a pattern into a
 * prefix the path starts with and a suffix it ends with (or a component matches); a `*...`
 * pattern without `/` and a plain name match the file name; a pattern with `/` the whole path.
 * `*` matches any run of characters, `/` included; `?` one character.
 */
export function matchesGlob(path: string, pattern: string): boolean {
  if (pattern.includes("**")) {
    const parts = pattern.split("**");
    if (parts.length === 2) {
      const prefix = (parts[0] as string).replace(/\/+$/, "");
      const suffix = (parts[1] as string).replace(/^\/+/, "");
      if (prefix && !path.startsWith(prefix)) return false;
      if (suffix) return path.endsWith(suffix) || path.split("/").some((part) => simple(part, suffix));
      return true;
    }
  }
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (pattern.includes("/")) return simple(path, pattern);
  return simple(name, pattern);
}

function simple(text: string, pattern: string): boolean {
  const source = [...pattern]
    .map((c) => (c === "*" ? "[\\s\\S]*" : c === "?" ? "[\\s\\S]" : c.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${source}$`, "u").test(text);
}
