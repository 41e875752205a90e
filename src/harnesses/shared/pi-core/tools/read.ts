import { z } from "zod";
import { readTextFile } from "../../../../tools/fs/read-text-file.js";
import { FsToolError } from "../../../../tools/fs/types.js";
import type { Tool } from "../../../../tools/types.js";
import { readDescription, readSchema } from "../tool-schemas.js";
import { formatSize, PI_MAX_BYTES, truncateHead } from "../truncate.js";
import { resolvePath } from "./resolve-path.js";

const Args = z.looseObject({
  path: z.string(),
  offset: z.number().optional(),
  limit: z.number().optional(),
});
type Args = z.infer<typeof Args>;

/**
 * pi `read`: the raw text (no line numbers), head-truncated at 2000 lines / 50KB with a
 * bracketed note saying which `offset` continues (pi `core/tools/read.ts`).
 */
export function readTool(): Tool<Args> {
  return {
    name: "read",
    description: readDescription,
    kind: "read",
    capability: "read",
    parameters: readSchema,
    schema: Args,
    async preview(args, ctx) {
      return { title: `read ${args.path}`, locations: [{ path: resolvePath(args.path, ctx.cwd) }] };
    },
    access: (args, ctx) => ({ type: "read", paths: [resolvePath(args.path, ctx.cwd)] }),
    async execute(args, ctx) {
      const absolute = resolvePath(args.path, ctx.cwd);
      let text: string;
      try {
        text = (await readTextFile({ fs: ctx.fs, path: absolute })).content;
      } catch (error) {
        return { output: readError(error, absolute), isError: true };
      }
      return formatRead({ text, path: args.path, offset: args.offset, limit: args.limit });
    },
  };
}

/** pi surfaces Node's own errors; a missing file reads as the `access` call's ENOENT. */
function readError(error: unknown, absolute: string): string {
  if (error instanceof FsToolError && error.code === "not_found") {
    return `ENOENT: no such file or directory, access '${absolute}'`;
  }
  if (error instanceof FsToolError && error.code === "is_directory") {
    return `EISDIR: illegal operation on a directory, read`;
  }
  return error instanceof Error ? error.message : String(error);
}

export function formatRead(input: { text: string; path: string; offset?: number; limit?: number }): {
  output: string;
  isError?: boolean;
} {
  const { text, path, offset, limit } = input;
  const all = text.split("\n");
  const start = offset ? Math.max(0, offset - 1) : 0;
  if (start >= all.length) {
    return { output: `Offset ${offset} is beyond end of file (${all.length} lines total)`, isError: true };
  }
  const end = limit !== undefined ? Math.min(start + limit, all.length) : all.length;
  const t = truncateHead(all.slice(start, end).join("\n"));
  const first = start + 1;
  if (t.firstLineExceedsLimit) {
    const size = formatSize(Buffer.byteLength(all[start] ?? "", "utf8"));
    return {
      output: `[Line ${first} is ${size}, exceeds ${formatSize(PI_MAX_BYTES)} limit. Use bash: sed -n '${first}p' ${path} | head -c ${PI_MAX_BYTES}]`,
    };
  }
  if (t.truncated) {
    const last = first + t.outputLines - 1;
    const limitNote = t.truncatedBy === "lines" ? "" : ` (${formatSize(PI_MAX_BYTES)} limit)`;
    return {
      output: `${t.content}\n\n[Showing lines ${first}-${last} of ${all.length}${limitNote}. Use offset=${last + 1} to continue.]`,
    };
  }
  if (limit !== undefined && end < all.length) {
    return {
      output: `${t.content}\n\n[${all.length - end} more lines in file. Use offset=${end + 1} to continue.]`,
    };
  }
  return { output: t.content };
}
