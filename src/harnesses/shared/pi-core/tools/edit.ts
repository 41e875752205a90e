import { z } from "zod";
import type { Tool, ToolContext } from "../../../../tools/types.js";
import { applyEdits, detectLineEnding, normalizeToLF, restoreLineEndings, stripBom } from "../apply-edits.js";
import { editDescription, editSchema } from "../tool-schemas.js";
import { resolvePath } from "./resolve-path.js";

const Edit = z.object({ oldText: z.string(), newText: z.string() });

/**
 * pi's `prepareArguments`: `edits` sent as a JSON string is parsed, and the older single-edit
 * shape (`oldText`/`newText` at the top level) is folded into `edits`.
 */
const Args = z.preprocess(
  (input) => {
    if (!input || typeof input !== "object") return input;
    const args = { ...(input as Record<string, unknown>) };
    if (typeof args.edits === "string") {
      try {
        const parsed: unknown = JSON.parse(args.edits);
        if (Array.isArray(parsed)) args.edits = parsed;
      } catch {}
    }
    if (typeof args.oldText === "string" && typeof args.newText === "string") {
      const edits = Array.isArray(args.edits) ? [...args.edits] : [];
      edits.push({ oldText: args.oldText, newText: args.newText });
      const { oldText: _old, newText: _new, ...rest } = args;
      return { ...rest, edits };
    }
    return args;
  },
  z.looseObject({ path: z.string(), edits: z.array(Edit) }),
);
type Args = z.infer<typeof Args>;

interface Planned {
  absolute: string;
  before: string;
  after: string;
}

/** Reads the file and applies the edits in memory; throws pi's error texts. */
async function plan(args: Args, ctx: ToolContext): Promise<Planned> {
  if (args.edits.length === 0) {
    throw new Error("Edit tool input is invalid. edits must contain at least one replacement.");
  }
  const absolute = resolvePath(args.path, ctx.cwd);
  let before: string;
  try {
    before = await ctx.fs.readText(absolute);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new Error(
      `Could not edit file: ${args.path}. ${code ? `Error code: ${String(code)}` : String(error)}.`,
    );
  }
  const { bom, text } = stripBom(before);
  const ending = detectLineEnding(text);
  const edited = applyEdits(normalizeToLF(text), args.edits, args.path);
  return { absolute, before, after: bom + restoreLineEndings(edited, ending) };
}

/** pi `edit`: one or more exact replacements in one file, matched against the original text. */
export function editTool(): Tool<Args> {
  return {
    name: "edit",
    description: editDescription,
    kind: "edit",
    capability: "edit",
    parameters: editSchema,
    schema: Args as z.ZodType<Args>,
    async preview(args, ctx) {
      const absolute = resolvePath(args.path, ctx.cwd);
      const planned = await plan(args, ctx).catch(() => undefined);
      return {
        title: `edit ${args.path}`,
        locations: [{ path: absolute }],
        display: planned
          ? [{ type: "diff", path: absolute, oldText: planned.before, newText: planned.after }]
          : [],
      };
    },
    access: (args, ctx) => ({ type: "write", paths: [resolvePath(args.path, ctx.cwd)] }),
    async execute(args, ctx) {
      let planned: Planned;
      try {
        planned = await plan(args, ctx);
        await ctx.fs.writeText(planned.absolute, planned.after);
      } catch (error) {
        return { output: error instanceof Error ? error.message : String(error), isError: true };
      }
      return {
        output: `Successfully replaced ${args.edits.length} block(s) in ${args.path}.`,
        display: [{ type: "diff", path: planned.absolute, oldText: planned.before, newText: planned.after }],
      };
    },
  };
}
