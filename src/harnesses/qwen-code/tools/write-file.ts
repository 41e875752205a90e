import { z } from "zod";
import { readTextFile } from "../../../tools/fs/read-text-file.js";
import type { FsPort, Tool } from "../../../tools/types.js";
import { isFsError } from "../../shared/gemini-core/tool-paths.js";
import description from "../descriptions/write-file.md";
import type { ReadLedger } from "../read-ledger.js";
import { writeFileSchema } from "../tool-schemas.js";
import { failure, isAbsolute } from "./qwen-paths.js";

const Args = z.looseObject({ file_path: z.string(), content: z.string() });
type Args = z.infer<typeof Args>;

/**
 * Qwen Code `write_file` (QwenLM/qwen-code `packages/core/src/tools/write-file.ts`): absolute
 * path, an existing file must have been fully read first, one-line success message.
 */
export function writeFileTool(ledger: ReadLedger): Tool<Args> {
  return {
    name: "write_file",
    description: description.trimEnd(),
    kind: "edit",
    capability: "write",
    parameters: writeFileSchema(),
    schema: Args,
    async preview(args, ctx) {
      const old = isAbsolute(args.file_path)
        ? await existing(ctx.fs, args.file_path).catch(() => undefined)
        : undefined;
      return {
        title: `WriteFile Writing to ${args.file_path}`,
        locations: [{ path: args.file_path }],
        display: [
          { type: "diff", path: args.file_path, oldText: old?.content ?? null, newText: args.content },
        ],
      };
    },
    access: (args) => ({ type: "write", paths: [args.file_path] }),
    async execute(args, ctx) {
      const file = args.file_path.trim();
      if (!file) return failure('Missing or empty "file_path"');
      if (!isAbsolute(file)) return failure(`File path must be absolute: ${file}`);
      if ((await ctx.fs.stat(file))?.isDirectory) return failure(`Path is a directory, not a file: ${file}`);
      const old = await existing(ctx.fs, file);
      if (old) {
        const refusal = ledger.priorReadError(file, old.mtimeMs, "overwriting");
        if (refusal) return failure(refusal);
      }
      try {
        await ctx.fs.writeText(file, args.content);
      } catch (error) {
        return failure(`Error writing to file: ${error instanceof Error ? error.message : String(error)}`);
      }
      await ledger.recordWrite(ctx.fs, file);
      return {
        output: old
          ? `Successfully overwrote file: ${file}.`
          : `Successfully created and wrote to new file: ${file}.`,
        display: [{ type: "diff", path: file, oldText: old?.content ?? null, newText: args.content }],
      };
    },
  };
}

async function existing(fs: FsPort, file: string): Promise<{ content: string; mtimeMs: number } | undefined> {
  try {
    return await readTextFile({ fs, path: file });
  } catch (error) {
    if (isFsError(error, "not_found")) return undefined;
    // A file that cannot be shown as text was never fully read, so overwriting it is refused.
    if (isFsError(error, "binary", "too_large")) return { content: "", mtimeMs: 0 };
    throw error;
  }
}
