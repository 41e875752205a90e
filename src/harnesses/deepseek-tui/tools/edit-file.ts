import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { failed, forContext, invalidInput } from "../tool-result.js";
import { editFileSchema } from "../tool-schemas.js";
import { unifiedDiff } from "../unified-diff.js";
import description from "./edit-file.md";
import { fuzzyRanges } from "./fuzzy-search.js";
import { ioText, resolvePath } from "./resolve-path.js";

const Args = z.looseObject({
  path: z.string(),
  search: z.string(),
  replace: z.string(),
  fuzz: z.boolean().optional(),
});
type Args = z.infer<typeof Args>;

/**
 * CodeWhale `edit_file` (0.8.44 `tools/file.rs`): every exact occurrence of `search` replaced
 * (a warning when more than one was); with `fuzz`, a single match that differs only in leading
 * indentation, then only in typographic punctuation. The answer is the unified diff and a summary.
 */
export function editFileTool(options: { model: string }): Tool<Args> {
  return {
    name: "edit_file",
    description: description.trimEnd(),
    kind: "edit",
    capability: "edit",
    parameters: editFileSchema,
    schema: Args,
    preview: async (args, ctx) => ({
      title: `edit_file ${args.path}`,
      locations: [{ path: resolvePath(args.path, ctx.cwd) }],
    }),
    access: (args, ctx) => ({ type: "write", paths: [resolvePath(args.path, ctx.cwd)] }),
    async execute(args, ctx) {
      if (args.search === args.replace)
        return invalidInput("edit_file", "search and replace are identical, no change intended");
      const file = resolvePath(args.path, ctx.cwd);
      let before: string;
      try {
        before = await ctx.fs.readText(file);
      } catch (error) {
        return failed(`Failed to read ${file}: ${ioText(error)}`);
      }
      const count = args.search === "" ? 0 : before.split(args.search).length - 1;
      let after: string;
      let note = "";
      if (count > 0) after = before.split(args.search).join(args.replace);
      else if (!args.fuzz) return failed(`Search string not found in ${file}`);
      else {
        const fuzzy = fuzzyRanges(before, args.search);
        if (fuzzy.ranges.length === 0) return failed(`Search string not found in ${file}`);
        if (fuzzy.ranges.length > 1)
          return failed(
            fuzzy.kind === "indentation"
              ? `Fuzzy search matched ${fuzzy.ranges.length} locations in ${file}; refine search text`
              : `Fuzzy punctuation search matched ${fuzzy.ranges.length} locations in ${file}; refine search text`,
          );
        const [start, end] = fuzzy.ranges[0] as [number, number];
        after = before.slice(0, start) + args.replace + before.slice(end);
        note =
          fuzzy.kind === "indentation"
            ? " (fuzzy indentation match)"
            : " (fuzzy punctuation match — typographic quotes/dashes normalized)";
      }
      try {
        await ctx.fs.writeText(file, after);
      } catch (error) {
        return failed(`Failed to write ${file}: ${ioText(error)}`);
      }
      const summary =
        count > 1
          ? `Replaced ${count} occurrence(s) in ${file}\nWarning: multiple matches were replaced with the same substitution. Verify the result with read_file before proceeding.`
          : `Replaced 1 occurrence in ${file}${note}`;
      const diff = unifiedDiff(file, before, after);
      const body = diff ? `${diff}\n${summary}` : `${summary}\n(no textual changes)`;
      return {
        output: forContext({ model: options.model, tool: "edit_file", output: body }),
        display: [{ type: "diff", path: file, oldText: before, newText: after }],
      };
    },
  };
}
