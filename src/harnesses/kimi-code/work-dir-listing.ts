import { readdirSync } from "node:fs";
import path from "node:path";

/** Kimi Code's caps for the listing in its system prompt (agent-core-v2 `agent/profile/context.ts`). */
export const ROOT_WIDTH = 30;
export const CHILD_WIDTH = 10;

interface Entry {
  name: string;
  isDir: boolean;
}

/**
 * Two-level tree of `dir` as Kimi Code draws it: directories first, then files, by name; 30
 * entries at the top, 10 inside each directory, `... and N more` for the rest; hidden
 * directories shown but not opened (in the working directory's listing). Synchronous because
 * it is rendered once per session into the system prompt.
 */
export function workDirListing(dir: string, options: { collapseHiddenDirs?: boolean } = {}): string {
  const top = entries(dir, ROOT_WIDTH);
  if (!top) return "[not readable]";
  const lines: string[] = [];
  const remaining = top.total - top.entries.length;
  top.entries.forEach((entry, i) => {
    const last = i === top.entries.length - 1 && remaining === 0;
    lines.push(`${last ? "└── " : "├── "}${entry.name}${entry.isDir ? "/" : ""}`);
    if (!entry.isDir || (options.collapseHiddenDirs && entry.name.startsWith("."))) return;
    const prefix = last ? "    " : "│   ";
    const children = entries(path.join(dir, entry.name), CHILD_WIDTH);
    if (!children) {
      lines.push(`${prefix}└── [not readable]`);
      return;
    }
    const more = children.total - children.entries.length;
    children.entries.forEach((child, j) => {
      const childLast = j === children.entries.length - 1 && more === 0;
      lines.push(`${prefix}${childLast ? "└── " : "├── "}${child.name}${child.isDir ? "/" : ""}`);
    });
    if (more > 0) lines.push(`${prefix}└── ... and ${more} more`);
  });
  if (remaining > 0) lines.push(`└── ... and ${remaining} more entries`);
  return lines.length > 0 ? lines.join("\n") : "(empty directory)";
}

function entries(dir: string, width: number): { entries: Entry[]; total: number } | undefined {
  let all: Entry[];
  try {
    all = readdirSync(dir, { withFileTypes: true }).map((d) => ({ name: d.name, isDir: d.isDirectory() }));
  } catch {
    return undefined;
  }
  all.sort((a, b) => (a.isDir === b.isDir ? a.name.localeCompare(b.name) : a.isDir ? -1 : 1));
  return { entries: all.slice(0, width), total: all.length };
}
