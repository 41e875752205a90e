import path from "node:path";
import { z } from "zod";
import { listDirectory } from "../../../tools/fs/list-directory.js";
import { FsToolError } from "../../../tools/fs/types.js";
import type { Tool } from "../../../tools/types.js";
import { resolveModelPath } from "../../shared/claude-code-core/file-access.js";
import { toolUseError } from "../../shared/claude-code-core/format.js";
import { lsSchema } from "../../shared/claude-code-core/tool-schemas.js";
import description from "./ls.md";

/** Claude Code lists at most this many entries, recursively, breadth first. */
export const LS_MAX_ENTRIES = 1000;
/** Upstream's lead-in when the listing was cut (LSTool `TRUNCATED_MESSAGE`). */
export const LS_TRUNCATED = `There are more than ${LS_MAX_ENTRIES} files in the repository. Use the LS tool (passing a specific path), Bash tool, and other tools to explore nested directories. The first ${LS_MAX_ENTRIES} files and directories are included below:\n\n`;
/** Upstream closes every listing with a safety note; the wording here is ours. */
export const LS_NOTE = "\nNOTE: if any of the files above look malicious, refuse to keep working on them.";

const Args = z.looseObject({ path: z.string().min(1), ignore: z.array(z.string()).nullish() });
type Args = z.infer<typeof Args>;

/**
 * Claude Code `LS`: the whole tree under `path` (hidden entries and `__pycache__` skipped) as a
 * `- name` outline indented two spaces per level, directories with a trailing `/`, under a first
 * line with the absolute path.
 */
export function lsTool(): Tool<Args> {
  return {
    name: "LS",
    description,
    kind: "search",
    capability: "list",
    parameters: lsSchema,
    schema: Args,
    preview: async (args) => ({ title: `List the \`${args.path}\` directory's contents` }),
    access: (args, ctx) => ({ type: "read", paths: [resolveModelPath(args.path, ctx.cwd)] }),
    async execute(args, ctx) {
      const dir = resolveModelPath(args.path, ctx.cwd);
      let listing: Awaited<ReturnType<typeof listDirectory>>;
      try {
        listing = await listDirectory({
          path: dir,
          // Hidden entries and __pycache__ are not entered at all, as upstream's `skip()`.
          ignore: [".*", "__pycache__", ...(args.ignore ?? [])],
          depth: 64,
          limit: LS_MAX_ENTRIES + 1,
          respectGitignore: false,
        });
      } catch (error) {
        if (error instanceof FsToolError) return { output: toolUseError(error.message), isError: true };
        throw error;
      }
      const paths = listing.entries
        .filter(
          (entry) => !entry.path.split("/").some((part) => part.startsWith(".") || part === "__pycache__"),
        )
        .map((entry) => (entry.type === "directory" ? `${entry.path}/` : entry.path))
        .sort();
      const truncated = paths.length > LS_MAX_ENTRIES || listing.truncated;
      const tree = printTree(dir, paths.slice(0, LS_MAX_ENTRIES));
      return { output: `${truncated ? LS_TRUNCATED : ""}${tree}${LS_NOTE}` };
    },
  };
}

interface TreeNode {
  name: string;
  children: TreeNode[];
  directory: boolean;
}

function printTree(root: string, sortedPaths: string[]): string {
  const top: TreeNode[] = [];
  for (const entry of sortedPaths) {
    const parts = entry.split("/").filter(Boolean);
    let level = top;
    for (const [i, part] of parts.entries()) {
      const directory = i < parts.length - 1 || entry.endsWith("/");
      let node = level.find((n) => n.name === part);
      if (!node) {
        node = { name: part, children: [], directory };
        level.push(node);
      }
      level = node.children;
    }
  }
  const lines = [`- ${root.endsWith(path.sep) ? root : root + path.sep}`];
  const walk = (nodes: TreeNode[], indent: string) => {
    for (const node of nodes) {
      lines.push(`${indent}- ${node.name}${node.directory ? "/" : ""}`);
      walk(node.children, `${indent}  `);
    }
  };
  walk(top, "  ");
  return `${lines.join("\n")}\n`;
}
