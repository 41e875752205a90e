import { type Dirent, readdirSync } from "node:fs";
import path from "node:path";

/** CodeWhale 0.8.44's bounds for the pack (`project_context.rs`). */
const MAX_ENTRIES = 220;
const MAX_SOURCE_FILES = 60;
const MAX_CONFIG_FILES = 60;
const MAX_DEPTH = 4;
/** Folders of generated or tool state CodeWhale leaves out of its workspace views. */
export const GENERATED_DIRS = new Set([
  ".git",
  "node_modules",
  ".venv",
  "venv",
  "__pycache__",
  "dist",
  "build",
  "target",
  ".idea",
  ".vscode",
  ".pytest_cache",
  ".DS_Store",
]);
const HIDDEN_DIRS = new Set([".github"]);
const HIDDEN_FILES = new Set([".editorconfig", ".gitattributes", ".gitignore"]);
const IGNORED_EXTENSIONS = new Set(
  "7z avif db gif gz ico jpeg jpg log mov mp3 mp4 pdf png sqlite tar tgz wav webp zip".split(" "),
);
const CONFIG_NAMES = new Set([
  "cargo.toml",
  "package.json",
  "tsconfig.json",
  "pyproject.toml",
  "requirements.txt",
  "go.mod",
  "config.toml",
  "deepseek.toml",
  "dockerfile",
  "compose.yaml",
  "compose.yml",
  "docker-compose.yaml",
  "docker-compose.yml",
  "makefile",
]);
const SOURCE_EXTENSIONS = new Set(
  "rs py js jsx ts tsx go java kt c cc cpp h hpp cs rb php swift sql sh bash".split(" "),
);

/** Level by level, each directory's entries sorted, directories with a trailing `/`, at most 220. */
function packEntries(root: string): string[] {
  const out: string[] = [];
  const queue: Array<[string, number]> = [[root, 0]];
  while (queue.length > 0 && out.length < MAX_ENTRIES) {
    const [dir, depth] = queue.shift() as [string, number];
    let children: Dirent[];
    try {
      children = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const child of children) {
      if (out.length >= MAX_ENTRIES) break;
      const rel = path.relative(root, path.join(dir, child.name)).split(path.sep).join("/");
      if (child.isDirectory()) {
        if (GENERATED_DIRS.has(child.name) || (child.name.startsWith(".") && !HIDDEN_DIRS.has(child.name)))
          continue;
        out.push(`${rel}/`);
        if (depth < MAX_DEPTH) queue.push([path.join(dir, child.name), depth + 1]);
      } else if (child.isFile() && !ignoredFile(child.name)) out.push(rel);
    }
  }
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function ignoredFile(name: string): boolean {
  if (name.startsWith(".") && !HIDDEN_FILES.has(name)) return true;
  if (name === ".DS_Store") return true;
  const dot = name.lastIndexOf(".");
  return dot >= 0 && IGNORED_EXTENSIONS.has(name.slice(dot + 1).toLowerCase());
}

function isConfig(entry: string): boolean {
  const lower = entry.toLowerCase();
  const name = lower.slice(lower.lastIndexOf("/") + 1);
  return CONFIG_NAMES.has(name) || /\.(config\.js|config\.ts|toml|yaml|yml)$/.test(lower);
}

function isSource(entry: string): boolean {
  const lower = entry.toLowerCase();
  return SOURCE_EXTENSIONS.has(lower.slice(lower.lastIndexOf(".") + 1));
}

/**
 * `## Project Context Pack` as CodeWhale 0.8.44 builds it (`generate_project_context_pack`): the
 * workspace's entries (generated and hidden folders left out), its config and source files,
 * and their counts, as indented JSON. `readme` is null: its excerpt would be file content read
 * outside the tools' file-system port (the README is named in `<turn_meta>` instead).
 */
export function projectContextPack(cwd: string): string {
  const entries = packEntries(cwd);
  const configFiles = entries.filter(isConfig).slice(0, MAX_CONFIG_FILES);
  const sourceFiles = entries.filter(isSource).slice(0, MAX_SOURCE_FILES);
  const pack = {
    project_name: path.basename(cwd) || "workspace",
    directory_structure: entries,
    readme: null,
    config_files: configFiles,
    key_source_files: sourceFiles,
    counts: {
      config_files: configFiles.length,
      directory_entries: entries.length,
      key_source_files: sourceFiles.length,
    },
  };
  return `## Project Context Pack\n\n<project_context_pack>\n${JSON.stringify(pack, null, 2)}\n</project_context_pack>`;
}
