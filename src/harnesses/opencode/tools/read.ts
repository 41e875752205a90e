import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { boundImage } from "../../../tools/image/bound-image.js";
import { noImageInput } from "../../../tools/image/no-image-input.js";
import { sniffImage } from "../../../tools/image/sniff-image.js";
import type { Tool } from "../../../tools/types.js";
import { BINARY_EXTENSIONS, looksBinary, READ_LIMIT, readDirectoryText, readFileText } from "../read-text.js";
import { readSchema } from "../tool-schemas.js";
import description from "./read.md";
import { resolvePath } from "./resolve-path.js";

const Args = z.looseObject({
  filePath: z.string(),
  offset: z.number().int().min(0).optional(),
  limit: z.number().int().min(0).optional(),
});
type Args = z.infer<typeof Args>;

/** The image types opencode attaches (`image/jpeg`, `png`, `gif`, `webp`). */
const ATTACHED = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

/**
 * opencode `read` (1.18.33 `tool/read.ts`): `<path>`, `<type>` and `<content>` with `N: ` line
 * numbers and its closing note, directories as `<entries>`, images as attachments; a missing
 * path suggests up to three similar names; binary files are refused.
 */
export function readTool(options: { images: boolean }): Tool<Args> {
  return {
    name: "read",
    description: description.trimEnd(),
    kind: "read",
    capability: "read",
    parameters: readSchema,
    schema: Args,
    preview: async (args, ctx) => ({
      title: `read ${args.filePath}`,
      locations: [{ path: resolvePath(args.filePath, ctx.cwd), line: args.offset || 1 }],
    }),
    access: (args, ctx) => ({ type: "read", paths: [resolvePath(args.filePath, ctx.cwd)] }),
    async execute(args, ctx) {
      const file = resolvePath(args.filePath, ctx.cwd);
      const offset = args.offset || 1;
      const limit = args.limit ?? READ_LIMIT;
      const fail = (output: string) => ({ output, isError: true });
      const info = await ctx.fs.stat(file);
      if (!info) return fail(await notFound(file));
      if (info.isDirectory) {
        const entries = await listEntries(file);
        return { output: readDirectoryText({ path: file, entries, offset, limit }) };
      }
      const bytes = await ctx.fs.readBytes(file);
      const sample = bytes.subarray(0, 4096);
      const image = sniffImage(sample);
      if (image && ATTACHED.has(image)) {
        if (!options.images) return fail(noImageInput(file));
        const part = await boundImage({
          type: "image",
          mimeType: image,
          data: Buffer.from(bytes).toString("base64"),
        });
        const text = "Image read successfully";
        return { output: text, parts: [{ type: "text", text }, part] };
      }
      if (BINARY_EXTENSIONS.has(path.extname(file).toLowerCase()) || looksBinary(sample))
        return fail(`Cannot read binary file: ${file}`);
      try {
        return { output: readFileText({ path: file, text: await ctx.fs.readText(file), offset, limit }) };
      } catch (error) {
        return fail(error instanceof Error ? error.message : String(error));
      }
    },
  };
}

/** Entries sorted as opencode sorts them (`localeCompare`), subdirectories (links to them too) with `/`. */
async function listEntries(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = await Promise.all(
    entries.map(async (entry) => {
      if (entry.isDirectory()) return `${entry.name}/`;
      if (!entry.isSymbolicLink()) return entry.name;
      const target = await stat(path.join(dir, entry.name)).catch(() => undefined);
      return target?.isDirectory() ? `${entry.name}/` : entry.name;
    }),
  );
  return names.sort((a, b) => a.localeCompare(b));
}

/** opencode's miss: up to three names in the parent that contain, or are contained in, the name asked for. */
async function notFound(file: string): Promise<string> {
  const dir = path.dirname(file);
  const base = path.basename(file).toLowerCase();
  const names = await readdir(dir).catch(() => [] as string[]);
  const similar = names
    .filter((name) => name.toLowerCase().includes(base) || base.includes(name.toLowerCase()))
    .map((name) => path.join(dir, name))
    .slice(0, 3);
  if (similar.length === 0) return `File not found: ${file}`;
  return `File not found: ${file}\n\nDid you mean one of these?\n${similar.join("\n")}`;
}
