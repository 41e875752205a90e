import path from "node:path";
import { z } from "zod";
import { globFiles } from "../../../tools/fs/glob-files.js";
import { FsToolError } from "../../../tools/fs/types.js";
import type { WalkEntry } from "../../../tools/fs/walk-tree.js";
import type { Tool } from "../../../tools/types.js";
import { isSensitiveFile, isWithin, relativizeIfUnder, resolveSearchRoot } from "../path-access.js";
import { savedOutput } from "../saved-output.js";
import { globSchema } from "../tool-schemas.js";
import description from "./glob.md";
import { globPage, MAX_OUTPUT_BYTES } from "./glob-page.js";

export const DEFAULT_HEAD_LIMIT = 100;

const VCS_NAMES = new Set([".git", ".svn", ".hg", ".bzr", ".jj", ".sl"]);
const KEY_NAMES = ["id_rsa", "id_ed25519", "id_ecdsa"];
const KEY_VARIANTS = [
  ".bak",
  ".backup",
  ".copy",
  ".disabled",
  ".key",
  ".old",
  ".orig",
  ".pem",
  ".save",
  ".tmp",
];

const NOTHING = new Set<string>();

const Args = z.object({
  pattern: z.string(),
  head_limit: z.number().int().min(0).optional(),
  offset: z.number().int().min(0).optional(),
  path: z.string().optional(),
  include_ignored: z.boolean().optional(),
  include_dirs: z.boolean().optional(),
});
type Args = z.infer<typeof Args>;

/**
 * Kimi Code 2.1.0's `Glob` (kimi-code `agent/tools/os/glob/globTool.ts`): ripgrep `--glob`
 * semantics (a pattern without `/` matches at any depth), files only, newest first, secrets left
 * out, paged by `offset` and `head_limit` with upstream's notices (glob-page.ts); paths relative
 * to the search root when it lies in the working directory.
 */
export function globTool(options: { scratchDir: string }): Tool<Args> {
  return {
    name: "Glob",
    description,
    kind: "search",
    capability: "search",
    parameters: globSchema,
    schema: Args,
    preview: async (args) => ({ title: `Glob ${args.pattern}${args.path ? ` in ${args.path}` : ""}` }),
    access(args, ctx) {
      const resolved = resolveSearchRoot(args.path, ctx);
      return resolved.ok ? { type: "read", paths: [resolved.path] } : { type: "none" };
    },
    async execute(args, ctx) {
      const resolved = resolveSearchRoot(args.path, ctx);
      if (!resolved.ok) return { output: resolved.error, isError: true };
      const searchRoot = resolved.path;
      let files: string[];
      try {
        files = (
          await globFiles({
            pattern: args.pattern.includes("/") ? args.pattern : `**/${args.pattern}`,
            cwd: searchRoot,
            signal: ctx.signal,
            limit: Number.MAX_SAFE_INTEGER,
            respectGitignore: args.include_ignored !== true,
            skipNames: NOTHING,
            select: ripgrepSelect,
          })
        ).files;
      } catch (error) {
        if (ctx.signal.aborted) return { output: "Glob aborted", isError: true };
        return { output: globError(error, searchRoot), isError: true };
      }
      const collected = collect(files, searchRoot);
      const kept = collected.files.filter((file) => !isSensitiveFile(file));
      const relative = isWithin(searchRoot, ctx.cwd);
      const page = globPage({
        kept: kept.map((file) => (relative ? relativizeIfUnder(file, searchRoot) : file)),
        filteredSensitive: collected.files.length - kept.length,
        offset: args.offset ?? 0,
        headLimit: args.head_limit ?? DEFAULT_HEAD_LIMIT,
        outputTruncated: collected.truncated,
      });
      if (page.isError) return page;
      return {
        output:
          (await savedOutput({
            text: page.output,
            toolName: "Glob",
            callId: ctx.callId ?? "",
            scratchDir: options.scratchDir,
          })) ?? page.output,
      };
    },
  };
}

/** The newest paths whose lines (`./<path>\n`, as ripgrep prints them) fit its output capture. */
function collect(files: string[], searchRoot: string): { files: string[]; truncated: boolean } {
  let bytes = 0;
  for (const [i, file] of files.entries()) {
    bytes += Buffer.byteLength(`./${path.relative(searchRoot, file)}\n`);
    if (bytes > MAX_OUTPUT_BYTES) return { files: files.slice(0, i), truncated: true };
  }
  return { files, truncated: false };
}

/**
 * How 2.1.0's `rg --files --hidden --glob '!<vcs>'… --glob <pattern> --glob '!<secret>'…` picks
 * entries: the last glob that matches decides. Secrets are always out; a path the pattern
 * matches is in even where an ignore file or a version-control name would keep it out (so `*`
 * lists `.git` and ignored folders); any other directory is entered unless ignored, and any other
 * file is out.
 */
function ripgrepSelect(entry: WalkEntry, state: { matches: boolean; ignored: boolean }): boolean {
  if (isSecretPath(entry.abs)) return false;
  if (state.matches) return true;
  if (VCS_NAMES.has(entry.name)) return false;
  return entry.type === "directory" && !state.ignored;
}

/** 2.1.0's secret globs: `.env`, private keys (bare, with a `-`/`_` suffix or a backup-style extension), cloud credentials. */
function isSecretPath(file: string): boolean {
  const name = path.basename(file);
  if (name === ".env") return true;
  for (const key of KEY_NAMES) {
    if (!name.startsWith(key)) continue;
    const rest = name.slice(key.length);
    if (rest === "" || rest.startsWith("-") || rest.startsWith("_") || KEY_VARIANTS.includes(rest))
      return true;
  }
  return /\/\.(aws|gcp)\/credentials(\/|$)/.test(file);
}

function globError(error: unknown, searchRoot: string): string {
  if (error instanceof FsToolError) {
    if (error.code === "not_found") return `${searchRoot} does not exist`;
    if (error.code === "not_a_directory") return `${searchRoot} is not a directory`;
    return `Glob failed: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}
