import { FsToolError } from "./types.js";

export interface GlobMatchOptions {
  /** Default true. */
  caseSensitive?: boolean;
  /**
   * gitignore / ripgrep `-g` semantics: a pattern without a `/` matches the last path component
   * at any depth (`*.ts` matches `a/b/c.ts`). Off: the pattern must match the whole path.
   */
  matchBase?: boolean;
}

/**
 * Compiles a glob into a predicate over relative `/`-separated paths. Syntax: `*` and `?` stay
 * inside one path segment, `**` as a whole segment spans any number of directories (including
 * none), `[abc]` / `[a-z]` / `[!x]` / `[^x]` classes, `{a,b}` alternatives (nestable), `\x`
 * escapes. `*` matches dot files too, as in ripgrep's globs. Throws FsToolError
 * `invalid_pattern` for an unclosed `{` or `[`, as ripgrep does.
 */
export function compileGlob(pattern: string, options: GlobMatchOptions = {}): (relPath: string) => boolean {
  const source = globToRegExpSource(pattern);
  const regex = new RegExp(`^${source}$`, options.caseSensitive === false ? "i" : "");
  if (options.matchBase && !pattern.includes("/")) {
    return (relPath) => regex.test(relPath.slice(relPath.lastIndexOf("/") + 1));
  }
  return (relPath) => regex.test(relPath);
}

/** True when a path segment holds glob syntax (so it cannot be used as a literal directory). */
export function hasGlobMagic(segment: string): boolean {
  return /[*?[{\\]/.test(segment);
}

/** The regular-expression source (unanchored) equivalent to a glob. */
export function globToRegExpSource(pattern: string): string {
  let out = "";
  let depth = 0;
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i]!;
    if (char === "\\") {
      out += escapeRegExp(pattern[i + 1] ?? "\\");
      i += 2;
    } else if (char === "*") {
      let end = i;
      while (pattern[end] === "*") end++;
      const atStart = i === 0 || "/{,".includes(pattern[i - 1]!);
      const next = pattern[end];
      if (end - i >= 2 && atStart && next === "/") {
        out += "(?:[^/]+/)*";
        i = end + 1;
      } else if (end - i >= 2 && atStart && (next === undefined || (depth > 0 && "},".includes(next)))) {
        out += ".*";
        i = end;
      } else {
        out += "[^/]*";
        i = end;
      }
    } else if (char === "?") {
      out += "[^/]";
      i++;
    } else if (char === "[") {
      const close = classEnd(pattern, i);
      if (close < 0) throw invalid(pattern, "unclosed character class; missing ']'");
      out += translateClass(pattern.slice(i + 1, close));
      i = close + 1;
    } else if (char === "{") {
      depth++;
      out += "(?:";
      i++;
    } else if (char === "}" && depth > 0) {
      depth--;
      out += ")";
      i++;
    } else if (char === "," && depth > 0) {
      out += "|";
      i++;
    } else {
      out += escapeRegExp(char);
      i++;
    }
  }
  if (depth > 0) throw invalid(pattern, "unclosed alternate group; missing '}'");
  return out;
}

/** Index of the `]` closing the class opened at `open`, or -1. A `]` right after `[`, `[!` or `[^` is literal. */
function classEnd(pattern: string, open: number): number {
  let i = open + 1;
  if (pattern[i] === "!" || pattern[i] === "^") i++;
  if (pattern[i] === "]") i++;
  for (; i < pattern.length; i++) {
    if (pattern[i] === "\\") i++;
    else if (pattern[i] === "]") return i;
  }
  return -1;
}

function translateClass(body: string): string {
  let negate = false;
  let rest = body;
  if (rest.startsWith("!") || rest.startsWith("^")) {
    negate = true;
    rest = rest.slice(1);
  }
  let inner = "";
  for (let i = 0; i < rest.length; i++) {
    const char = rest[i]!;
    if (char === "\\" && i + 1 < rest.length) {
      const escaped = rest[++i]!;
      inner += /[A-Za-z0-9]/.test(escaped) ? escaped : `\\${escaped}`;
    } else if (char === "-" && i > 0 && i < rest.length - 1) {
      inner += "-";
    } else {
      inner += /[\\\]^[-]/.test(char) ? `\\${char}` : char;
    }
  }
  // A negated class never crosses a path separator, like `*` and `?`.
  return negate ? `[^/${inner}]` : `[${inner}]`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

function invalid(pattern: string, reason: string): FsToolError {
  return new FsToolError("invalid_pattern", `Invalid glob '${pattern}': ${reason}`);
}
