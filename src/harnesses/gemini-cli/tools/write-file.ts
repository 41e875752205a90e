import { z } from "zod";
import { readTextFile } from "../../../tools/fs/read-text-file.js";
import type { FsPort, Tool } from "../../../tools/types.js";
import { displayPath, isFsError, resolveToolPath } from "../../shared/gemini-core/tool-paths.js";
import gemini3Description from "../descriptions/write-file.gemini-3.md";
import legacyDescription from "../descriptions/write-file.md";
import { diffContextSnippet } from "../diff-snippet.js";
import { omissionPlaceholders } from "../omission-placeholders.js";
import type { ToolFamily } from "../tool-family.js";
import { writeFileSchema } from "../tool-schemas.js";

const Args = z.looseObject({ file_path: z.string(), content: z.string() });
type Args = z.infer<typeof Args>;

/**
 * Gemini CLI `write_file` (`packages/core/src/tools/write-file.ts`): creates or overwrites the file,
 * keeps CRLF line endings of an existing file, rejects omission placeholders, and answers with
 * the success line plus "Here is the updated code:" and the changed region.
 */
export function writeFileTool(family: ToolFamily): Tool<Args> {
  return {
    name: "write_file",
    description: (family === "gemini-3" ? gemini3Description : legacyDescription).trimEnd(),
    kind: "edit",
    capability: "write",
    parameters: writeFileSchema(family),
    schema: Args,
    async preview(args, ctx) {
      const file = resolveToolPath(ctx.cwd, args.file_path);
      const old = await currentText(ctx.fs, file);
      return {
        title: `WriteFile Writing to ${displayPath(ctx.cwd, file)}`,
        locations: [{ path: file }],
        display: [{ type: "diff", path: file, oldText: old ?? null, newText: args.content }],
      };
    },
    access: (args, ctx) => ({ type: "write", paths: [resolveToolPath(ctx.cwd, args.file_path)] }),
    async execute(args, ctx) {
      if (!args.file_path) return failure('Missing or empty "file_path"');
      const file = resolveToolPath(ctx.cwd, args.file_path);
      if ((await ctx.fs.stat(file))?.isDirectory) return failure(`Path is a directory, not a file: ${file}`);
      if (omissionPlaceholders(args.content).length > 0) {
        return failure(
          "`content` contains an omission placeholder (for example 'rest of methods ...'). Provide complete file content.",
        );
      }
      const old = await currentText(ctx.fs, file);
      const content = old?.includes("\r\n") ? args.content.replace(/\r?\n/g, "\r\n") : args.content;
      try {
        await ctx.fs.writeText(file, content);
      } catch (error) {
        return failure(`Error writing to file: ${error instanceof Error ? error.message : String(error)}`);
      }
      const status =
        old === undefined
          ? `Successfully created and wrote to new file: ${file}.`
          : `Successfully overwrote file: ${file}.`;
      return {
        output: `${status} Here is the updated code:\n${diffContextSnippet(old ?? "", content, 5)}`,
        display: [{ type: "diff", path: file, oldText: old ?? null, newText: content }],
      };
    },
  };
}

async function currentText(fs: FsPort, file: string): Promise<string | undefined> {
  try {
    return (await readTextFile({ fs, path: file })).content;
  } catch (error) {
    if (isFsError(error, "not_found", "is_directory")) return undefined;
    // An existing file we cannot show as text is still overwritten as an existing file.
    if (isFsError(error, "binary", "too_large")) return "";
    throw error;
  }
}

function failure(message: string) {
  return { output: message, isError: true };
}
