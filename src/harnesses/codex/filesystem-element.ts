import type { Mode } from "../../config/types.js";
import { escapeXml } from "../shared/codex-core/context-blocks.js";

/**
 * Codex 0.171's `<filesystem>` element of `<environment_context>`: the workspace roots, then the
 * permission profile the sandbox enforces, as entries of `read`/`write` access to paths and to
 * Codex's special places (`:root` is the whole filesystem, `:slash_tmp` is `/tmp`). It states what
 * our sandbox does: everything readable, the roots and `/tmp` writable, each root's `.git`
 * read-only; with no sandbox in force the profile is `disabled`.
 */
export function filesystemElement(input: { mode: Mode; roots: string[]; sandboxed: boolean }): string {
  const roots = input.roots.map((root) => `<root>${escapeXml(root)}</root>`).join("");
  return `<filesystem><workspace_roots>${roots}</workspace_roots>${profile(input)}</filesystem>`;
}

function profile(input: { mode: Mode; roots: string[]; sandboxed: boolean }): string {
  if (!input.sandboxed || input.mode === "full-access")
    return '<permission_profile type="disabled"><file_system type="unrestricted" /></permission_profile>';
  const entries = [entry("read", special(":root"))];
  if (input.mode !== "read-only" && input.mode !== "plan") {
    entries.push(...input.roots.map((root) => entry("write", pathOf(root))));
    entries.push(entry("write", special(":slash_tmp")));
    entries.push(...input.roots.map((root) => entry("read", pathOf(`${root}/.git`))));
  }
  return `<permission_profile type="managed"><file_system type="restricted">${entries.join("")}</file_system></permission_profile>`;
}

function entry(access: "read" | "write", target: string): string {
  return `<entry access="${access}">${target}</entry>`;
}

const special = (name: string) => `<special>${name}</special>`;
const pathOf = (value: string) => `<path>${escapeXml(value)}</path>`;
