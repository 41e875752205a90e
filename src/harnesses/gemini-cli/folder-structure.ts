import { readdirSync } from "node:fs";
import path from "node:path";

/**
 * The capped folder tree Gemini CLI puts in its first user message (google-gemini/gemini-cli
 * `packages/core/src/utils/getFolderStructure.ts`): breadth-first, names sorted, files before
 * folders, at most `maxItems` entries; `node_modules`, `.git`, `dist` and `__pycache__` are shown
 * with `...` and not entered. Synchronous because the harness renders synchronously; it is built
 * once per session. Unlike Gemini CLI it does not consult .gitignore.
 */
export function folderStructure(directory: string, maxItems = 200): string {
  const root = path.resolve(directory);
  const tree = readTree(root, maxItems);
  if (!tree) return `Error: Could not read directory "${root}". Check path and permissions.`;
  const lines: string[] = [];
  format(tree, "", true, true, lines);
  let summary = `Showing up to ${maxItems} items (files + folders).`;
  if (truncated(tree)) {
    summary += ` Folders or files indicated with ... contain more items not shown, were ignored, or the display limit (${maxItems} items) was reached.`;
  }
  return `${summary}\n\n${root}${path.sep}\n${lines.join("\n")}`;
}

const IGNORED = new Set(["node_modules", ".git", "dist", "__pycache__"]);

interface Folder {
  name: string;
  files: string[];
  folders: Folder[];
  ignored?: boolean;
  moreFiles?: boolean;
  moreFolders?: boolean;
}

function readTree(root: string, maxItems: number): Folder | undefined {
  const top: Folder = { name: path.basename(root), files: [], folders: [] };
  const queue: Array<{ folder: Folder; dir: string }> = [{ folder: top, dir: root }];
  let count = 0;
  while (queue.length > 0) {
    const { folder, dir } = queue.shift()!;
    if (count >= maxItems) continue;
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    } catch {
      if (dir === root) return undefined;
      continue;
    }
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      if (count >= maxItems) {
        folder.moreFiles = true;
        break;
      }
      folder.files.push(entry.name);
      count++;
    }
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      if (count >= maxItems) {
        folder.moreFolders = true;
        break;
      }
      const child: Folder = { name: entry.name, files: [], folders: [] };
      folder.folders.push(child);
      count++;
      if (IGNORED.has(entry.name)) child.ignored = true;
      else queue.push({ folder: child, dir: path.join(dir, entry.name) });
    }
  }
  return top;
}

function format(node: Folder, indent: string, isLast: boolean, isRoot: boolean, out: string[]): void {
  const connector = isLast ? "└───" : "├───";
  if (!isRoot || node.ignored)
    out.push(`${indent}${connector}${node.name}${path.sep}${node.ignored ? "..." : ""}`);
  const childIndent = isRoot ? "" : indent + (isLast ? "    " : "│   ");
  node.files.forEach((file, i) => {
    const last = i === node.files.length - 1 && node.folders.length === 0 && !node.moreFolders;
    out.push(`${childIndent}${last ? "└───" : "├───"}${file}`);
  });
  if (node.moreFiles) {
    const last = node.folders.length === 0 && !node.moreFolders;
    out.push(`${childIndent}${last ? "└───" : "├───"}...`);
  }
  node.folders.forEach((folder, i) => {
    format(folder, childIndent, i === node.folders.length - 1 && !node.moreFolders, false, out);
  });
  if (node.moreFolders) out.push(`${childIndent}└───...`);
}

function truncated(node: Folder): boolean {
  return Boolean(node.moreFiles || node.moreFolders || node.ignored) || node.folders.some(truncated);
}
