import { readdirSync } from "node:fs";
import path from "node:path";

/**
 * The caps of the listing Kimi Code (agent-core-v2 `agent/profile/context.ts`) and Kimi CLI
 * (`utils/path.py` `list_directory`) put in their system prompts.
 */
export const ROOT_WIDTH = 30;
export const CHILD_WIDTH = 10;

interface Entry {
  name: string;
  isDir: boolean;
}

export interface ListingOptions {
  /** Kimi Code shows hidden directories in the working directory's listing without opening them. */
  collapseHiddenDirs?: boolean;
  /** Names sorted as Kimi Code sorts them (`localeCompare`, the default) or as Python does (code points, Kimi CLI). */
  order?: "locale" | "codepoint";
}

/**
 * Two-level tree of `dir` as both Kimi agents draw it: directories first, then files, by name;
 * 30 entries at the top, 10 inside each directory, `... and N more` for the rest. Synchronous
 * because it is rendered once per session into the system prompt.
 */
export function workDirListing(dir: string, options: ListingOptions = {}): string {
  const compare = options.order === "codepoint" ? byCodePoint : (a: string, b: string) => a.localeCompare(b);
  const top = entries(dir, ROOT_WIDTH, compare);
  if (!top) return "[not readable]";
  const lines: string[] = [];
  const remaining = top.total - top.entries.length;
  top.entries.forEach((entry, i) => {
    const last = i === top.entries.length - 1 && remaining === 0;
    lines.push(`${last ? "└── " : "├── "}${entry.name}${entry.isDir ? "/" : ""}`);
    if (!entry.isDir || (options.collapseHiddenDirs && entry.name.startsWith("."))) return;
    const prefix = last ? "    " : "│   ";
    const children = entries(path.join(dir, entry.name), CHILD_WIDTH, compare);
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

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function entries(
  dir: string,
  width: number,
  compare: (a: string, b: string) => number,
): { entries: Entry[]; total: number } | undefined {
  let all: Entry[];
  try {
    all = readdirSync(dir, { withFileTypes: true }).map((d) => ({ name: d.name, isDir: d.isDirectory() }));
  } catch {
    return undefined;
  }
  all.sort((a, b) => (a.isDir === b.isDir ? compare(a.name, b.name) : a.isDir ? -1 : 1));
  return { entries: all.slice(0, width), total: all.length };
}
