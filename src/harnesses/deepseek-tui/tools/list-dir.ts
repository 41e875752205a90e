import { readdir } from "node:fs/promises";
import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { failed, forContext } from "../tool-result.js";
import { listDirSchema } from "../tool-schemas.js";
import description from "./list-dir.md";
import { ioText, resolvePath } from "./resolve-path.js";

const Args = z.looseObject({ path: z.string().optional() });
type Args = z.infer<typeof Args>;

/**
 * CodeWhale `list_dir` (0.8.44 `tools/file.rs`): one directory's entries as indented JSON
 * `{name, is_dir}` in the order the file system gives them (a link to a directory is not one).
 */
export function listDirTool(options: { model: string }): Tool<Args> {
  return {
    name: "list_dir",
    description: description.trimEnd(),
    kind: "read",
    capability: "read",
    parameters: listDirSchema,
    schema: Args,
    preview: async (args) => ({ title: `list_dir ${args.path ?? "."}` }),
    access: (args, ctx) => ({ type: "read", paths: [resolvePath(args.path ?? ".", ctx.cwd)] }),
    async execute(args, ctx) {
      const dir = resolvePath(args.path ?? ".", ctx.cwd);
      try {
        const entries = await readdir(dir, { withFileTypes: true });
        const json = entries.map((entry) => ({ name: entry.name, is_dir: entry.isDirectory() }));
        return {
          output: forContext({
            model: options.model,
            tool: "list_dir",
            output: JSON.stringify(json, null, 2),
          }),
        };
      } catch (error) {
        return failed(`Failed to read directory ${dir}: ${ioText(error)}`);
      }
    },
  };
}
