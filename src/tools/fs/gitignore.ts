import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { gitCeilings } from "../../config/git-ceilings.js";
import { compileGlob } from "./glob-pattern.js";

/** One line of an ignore file. Rules are checked last to first; the first that matches decides. */
export interface IgnoreRule {
  /** Absolute directory holding the ignore file, with a trailing `/`. */
  base: string;
  negated: boolean;
  dirOnly: boolean;
  /** Tests the path relative to `base` (`/` separators). */
  test: (relPath: string) => boolean;
}

/**
 * Parses gitignore syntax: blank lines and `#` comments skipped, `\#` / `\!` escapes, `!`
 * negation, trailing `/` for directories only, a `/` at the start or in the middle anchors the
 * pattern to `dir` (otherwise it matches a name at any depth), `**` spans directories, trailing
 * spaces dropped unless escaped. A line git would reject (an unclosed `[`) is skipped, as git does.
 */
export function parseIgnoreFile(text: string, dir: string): IgnoreRule[] {
  const base = dir.endsWith("/") ? dir : `${dir}/`;
  const rules: IgnoreRule[] = [];
  for (const raw of text.split("\n")) {
    let line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    while (line.endsWith(" ") && !line.endsWith("\\ ")) line = line.slice(0, -1);
    if (line === "" || line.startsWith("#")) continue;
    const negated = line.startsWith("!");
    if (negated) line = line.slice(1);
    else if (line.startsWith("\\#") || line.startsWith("\\!")) line = line.slice(1);
    const dirOnly = line.endsWith("/");
    if (dirOnly) line = line.slice(0, -1);
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    if (line === "") continue;
    try {
      const test = compileGlob(line, { matchBase: !anchored });
      rules.push({ base, negated, dirOnly, test });
    } catch {
      // git ignores a pattern it cannot parse; so do we.
    }
  }
  return rules;
}

/** Whether the last rule matching `absPath` ignores it (a negated match re-includes). */
export function isIgnored(rules: readonly IgnoreRule[], absPath: string, isDir: boolean): boolean {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]!;
    if (rule.dirOnly && !isDir) continue;
    if (!absPath.startsWith(rule.base)) continue;
    if (rule.test(absPath.slice(rule.base.length))) return !rule.negated;
  }
  return false;
}

/**
 * The rules of one directory, in ripgrep's order of precedence (later wins): `.gitignore`
 * (only inside a git repository, as ripgrep requires), then `.ignore`, then `.rgignore`.
 * `present`, when the caller has listed the directory, saves reading files that do not exist.
 */
export async function readIgnoreRules(
  dir: string,
  inGitRepo: boolean,
  present: (name: string) => boolean = () => true,
): Promise<IgnoreRule[]> {
  const names = inGitRepo ? [".gitignore", ".ignore", ".rgignore"] : [".ignore", ".rgignore"];
  const rules: IgnoreRule[] = [];
  for (const name of names) {
    if (!present(name)) continue;
    const text = await readOptional(path.join(dir, name));
    if (text !== undefined) rules.push(...parseIgnoreFile(text, dir));
  }
  return rules;
}

/**
 * What a walk starting at `root` inherits: whether `root` is inside a git repository (a `.git`
 * in it or an ancestor), and the `.gitignore` rules of the directories from the repository root
 * down to `root`'s parent (the walk reads `root`'s own files itself).
 */
export async function inheritedIgnoreRules(
  root: string,
): Promise<{ inGitRepo: boolean; rules: IgnoreRule[] }> {
  const chain: string[] = [];
  let dir = path.resolve(root);
  // Like git, the walk up stops below the environment's GIT_CEILING_DIRECTORIES.
  const ceilings = new Set(gitCeilings(process.env));
  for (;;) {
    // A repository as git decides it: an empty `.git` folder (sandboxing tools leave them) is not one.
    const marker = path.join(dir, ".git");
    if ((await isFileAt(marker)) || (await exists(path.join(marker, "HEAD")))) {
      const rules: IgnoreRule[] = [];
      for (const ancestor of chain.reverse()) rules.push(...(await readIgnoreRules(ancestor, true)));
      return { inGitRepo: true, rules };
    }
    const parent = path.dirname(dir);
    if (parent === dir || ceilings.has(parent)) return { inGitRepo: false, rules: [] };
    dir = parent;
    chain.push(dir);
  }
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR" || code === "EACCES") return undefined;
    throw error;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

async function isFileAt(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
