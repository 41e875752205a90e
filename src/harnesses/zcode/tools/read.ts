import path from "node:path";
import { z } from "zod";
import { readTextFile } from "../../../tools/fs/read-text-file.js";
import { FsToolError } from "../../../tools/fs/types.js";
import type { Tool } from "../../../tools/types.js";
import { resolveModelPath } from "../../shared/claude-code-core/file-access.js";
import { IMAGE_EXTENSIONS, readImage } from "../../shared/claude-code-core/read-media.js";
import { readSchema } from "../tool-schemas.js";
import type { ZCodeState } from "../zcode-state.js";
import description from "./read.md";

/** Upstream's answer to a whole-file Read of a file the model already has as it is. */
export const WASTED_CALL =
  "Wasted call — file unchanged since your last Read. Refer to that earlier tool_result instead.";
/** A ranged read above this many estimated tokens is refused. */
export const READ_MAX_TOKENS = 25_000;

const Args = z.looseObject({
  file_path: z.string().min(1),
  offset: z.number().int().nonnegative().nullish(),
  limit: z.number().int().positive().nullish(),
});
type Args = z.infer<typeof Args>;

/**
 * ZCode `Read` as upstream Open Interpreter 0.0.40 answers it: `N\tline` numbering (an `offset`
 * of 0 numbers the first line 0), the whole file unless `limit` is given, lines uncut; a
 * whole-file Read of a file whose state the model already has (its last Read, Write or Edit)
 * answers `Wasted call …`; a ranged read above 25,000 estimated tokens (three characters a
 * token, CJK counting double) gets upstream's budget error; a missing file its own line.
 * Images go to the model as Claude Code's Read sends them.
 */
export function readTool(options: { state: ZCodeState; images: boolean }): Tool<Args> {
  return {
    name: "Read",
    description,
    kind: "read",
    capability: "read",
    parameters: readSchema,
    schema: Args,
    async preview(args, ctx) {
      const file = resolveModelPath(args.file_path, ctx.cwd);
      return { title: `Read ${file}`, locations: [{ path: file, line: Math.max(1, args.offset ?? 1) }] };
    },
    access: (args, ctx) => ({ type: "read", paths: [resolveModelPath(args.file_path, ctx.cwd)] }),
    async execute(args, ctx) {
      const file = resolveModelPath(args.file_path, ctx.cwd);
      if (IMAGE_EXTENSIONS.has(path.extname(file).toLowerCase().slice(1)))
        return readImage(file, ctx, options.images);
      let text: string;
      try {
        ({ content: text } = await readTextFile({ fs: ctx.fs, path: file }));
      } catch (error) {
        if (error instanceof FsToolError && error.code === "not_found")
          return {
            output: `File does not exist. Note: your current working directory is ${ctx.cwd}.`,
            isError: true,
          };
        if (error instanceof FsToolError && error.code === "binary")
          return { output: "Read failed: file is not UTF-8 text", isError: true };
        return {
          output: `Read failed: ${error instanceof Error ? error.message : String(error)}`,
          isError: true,
        };
      }
      const ranged = args.offset != null || args.limit != null;
      if (!ranged && options.state.current(file, text)) return { output: WASTED_CALL };
      options.state.saw(file, text);
      const start = Math.max(1, args.offset ?? 1);
      const first = args.offset === 0 ? 0 : start;
      const lines =
        text === "" ? [] : text.split("\n").slice(start - 1, args.limit ? start - 1 + args.limit : undefined);
      if (ranged && estimateTokens(lines.join("\n")) > READ_MAX_TOKENS) {
        const tokens = estimateTokens(lines.join("\n"));
        return {
          output: `File content (${tokens} tokens) exceeds maximum allowed tokens (${READ_MAX_TOKENS}). Use offset and limit parameters to read specific portions of the file, or search for specific content instead of reading the whole file.`,
          isError: true,
        };
      }
      return { output: lines.map((line, i) => `${first + i}\t${line}`).join("\n") };
    },
  };
}

/** Upstream's estimate: characters over three, rounded up, a CJK ideograph counting two. */
export function estimateTokens(text: string): number {
  let weighted = 0;
  for (const ch of text) weighted += ch >= "\u4e00" && ch <= "\u9fff" ? 2 : 1;
  return Math.ceil(weighted / 3);
}
