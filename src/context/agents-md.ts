import * as nodeFs from "node:fs/promises";
import path from "node:path";

/**
 * AGENTS.md discovery, Codex's walk with three changes (research/standards.md §0.1): a
 * per-directory `CLAUDE.md` fallback, realpath de-duplication, and the byte budget given to the
 * deepest files first (as Kimi does), since the file nearest to `cwd` is the most specific.
 * Codex's rules otherwise (codex-rs `core/src/agents_md.rs`,
 * `codex-home/src/instructions/mod.rs`):
 *
 * - global: `<home>/AGENTS.override.md`, else `<home>/AGENTS.md`; trimmed; a blank file falls
 *   through to the next candidate; outside the byte budget;
 * - project: the nearest ancestor of `cwd` holding `.git` (file or directory) is the root, or `cwd`
 *   alone when there is none; from the root down to `cwd`, at most one file per directory,
 *   `AGENTS.override.md` before `AGENTS.md`; blank files are skipped;
 * - `maxBytes` (Codex's `project_doc_max_bytes`, 32 KiB) is shared by the project files,
 *   see `applyBudget`;
 * - `text` joins the project files with a blank line and puts `--- project-doc ---` between the
 *   global file and the first project file.
 */

/** The slice of `node:fs/promises` this needs; tests and remote workspaces may pass another. */
export interface AgentsMdFs {
  stat(path: string): Promise<{ isFile(): boolean }>;
  readFile(path: string): Promise<Uint8Array>;
}

export interface AgentsMdFile {
  path: string;
  /** The folder the file applies to (its own folder; the home folder for the global file). */
  directory: string;
  text: string;
}

export interface LoadedAgentsMd {
  /** Global file first, then project files from the root down to `cwd`. */
  files: AgentsMdFile[];
  /** What the model sees inside `<INSTRUCTIONS>`; empty when there are no files. */
  text: string;
}

export interface LoadAgentsMdOptions {
  cwd: string;
  /** Further workspace roots whose project files are appended (their own root→leaf walk). */
  additionalDirectories?: string[];
  /** Tried after `AGENTS.override.md` and `AGENTS.md` in each directory (default `CLAUDE.md`). */
  fallbackNames?: string[];
  /** Where the global file lives (`$INTERPRETER_HOME`). */
  home: string;
  fs?: AgentsMdFs;
  maxBytes?: number;
  /** Folders the walk up for the repository never enters (`gitCeilings`). */
  ceilings?: readonly string[];
}

const CANDIDATES = ["AGENTS.override.md", "AGENTS.md"];
const DEFAULT_FALLBACKS = ["CLAUDE.md"];
const PROJECT_DOC_SEPARATOR = "\n\n--- project-doc ---\n\n";

/** Rejects only on unexpected I/O errors; missing files and folders are simply absent. */
export async function loadAgentsMd(options: LoadAgentsMdOptions): Promise<LoadedAgentsMd> {
  const fs = options.fs ?? nodeFs;
  const names = [...CANDIDATES, ...(options.fallbackNames ?? DEFAULT_FALLBACKS)];
  const global = await loadGlobal(fs, path.resolve(options.home));
  const seen = new Set<string>(global ? [await realpathOf(global.path)] : []);
  const found: RawDoc[] = [];
  for (const cwd of [options.cwd, ...(options.additionalDirectories ?? [])].map((d) => path.resolve(d))) {
    for (const directory of await searchDirs(fs, cwd, new Set(options.ceilings ?? []))) {
      const file = await firstFile(fs, directory, names);
      if (!file) continue;
      // A CLAUDE.md -> AGENTS.md symlink, or a directory reached twice, loads once.
      const real = await realpathOf(file);
      if (seen.has(real)) continue;
      seen.add(real);
      const bytes = await readOrUndefined(fs, file);
      if (bytes) found.push({ path: file, directory, bytes });
    }
  }
  const project = applyBudget(found, options.maxBytes ?? 32 * 1024);

  const files = global ? [global, ...project] : project;
  const projectText = project.map((file) => file.text).join("\n\n");
  const text =
    global && project.length > 0
      ? global.text + PROJECT_DOC_SEPARATOR + projectText
      : global
        ? global.text
        : projectText;
  return { files, text };
}

interface RawDoc {
  path: string;
  directory: string;
  bytes: Uint8Array;
}

/**
 * The budget goes to the deepest files first (the walk's last entries), so the file nearest to
 * `cwd` is the last to be cut. A file larger than what is left is cut to it at a character
 * boundary; files above it get nothing. Output stays in root→leaf order; a blank file costs nothing.
 */
function applyBudget(docs: RawDoc[], maxBytes: number): AgentsMdFile[] {
  const kept: AgentsMdFile[] = [];
  let remaining = maxBytes;
  for (const doc of [...docs].reverse()) {
    if (remaining <= 0) break;
    const cut = doc.bytes.length > remaining;
    const text = Buffer.from(
      doc.bytes.subarray(0, cut ? charBoundary(doc.bytes, remaining) : undefined),
    ).toString("utf8");
    if (text.trim() === "") continue;
    kept.unshift({ path: doc.path, directory: doc.directory, text });
    remaining = cut ? 0 : remaining - doc.bytes.length;
  }
  return kept;
}

async function realpathOf(file: string): Promise<string> {
  return nodeFs.realpath(file).catch(() => path.resolve(file));
}

/** The largest index ≤ `limit` that does not split a UTF-8 sequence. */
function charBoundary(bytes: Uint8Array, limit: number): number {
  let end = limit;
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return end;
}

async function loadGlobal(fs: AgentsMdFs, home: string): Promise<AgentsMdFile | undefined> {
  for (const name of CANDIDATES) {
    const file = path.join(home, name);
    if (!(await isFile(fs, file))) continue;
    const bytes = await readOrUndefined(fs, file);
    const text = bytes ? Buffer.from(bytes).toString("utf8").trim() : "";
    if (text !== "") return { path: file, directory: home, text };
  }
  return undefined;
}

/**
 * From the project root down to `cwd`; only `cwd` when no ancestor below a ceiling holds a
 * repository (a `.git` file, or a `.git` folder with a `HEAD`, as `holdsRepository` decides).
 */
async function searchDirs(fs: AgentsMdFs, cwd: string, ceilings: ReadonlySet<string>): Promise<string[]> {
  const chain: string[] = [];
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    chain.push(dir);
    const marker = path.join(dir, ".git");
    if ((await isFile(fs, marker)) || (await exists(fs, path.join(marker, "HEAD")))) return chain.reverse();
    if (path.dirname(dir) === dir || ceilings.has(path.dirname(dir))) return [cwd];
  }
}

async function firstFile(fs: AgentsMdFs, directory: string, names: string[]): Promise<string | undefined> {
  for (const name of names) {
    const file = path.join(directory, name);
    if (await isFile(fs, file)) return file;
  }
  return undefined;
}

async function exists(fs: AgentsMdFs, file: string): Promise<boolean> {
  try {
    await fs.stat(file);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

async function isFile(fs: AgentsMdFs, file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isFile();
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

/** A file can vanish between the probe and the read; Codex skips it then. */
async function readOrUndefined(fs: AgentsMdFs, file: string): Promise<Uint8Array | undefined> {
  try {
    return await fs.readFile(file);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}
