import { z } from "zod";
import type { DisplayContent } from "../../../store/events.js";
import type { Tool, ToolContext } from "../../../tools/types.js";
import { failed, forContext, invalidInput } from "../tool-result.js";
import { applyPatchSchema } from "../tool-schemas.js";
import {
  applyHunks,
  type FilePatch,
  normalizeDiffPath,
  PatchInputError,
  parseFilePatches,
  parseHunks,
  patchShape,
  textLines,
} from "../unified-patch.js";
import description from "./apply-patch.md";
import { ioText, resolvePath } from "./resolve-path.js";

const Args = z.looseObject({
  path: z.string().optional(),
  patch: z.string().optional(),
  changes: z.array(z.looseObject({ path: z.string(), content: z.string() })).optional(),
  fuzz: z.number().int().min(0).optional(),
  create_if_missing: z.boolean().optional(),
});
type Args = z.infer<typeof Args>;

const MAX_FUZZ = 50;
const FILE_LIST_LIMIT = 6;

interface Write {
  file: string;
  label: string;
  before: string | null;
  after: string | null;
  hunks: number;
  fuzz: number[];
}

/**
 * CodeWhale `apply_patch` (0.8.44 `tools/apply_patch.rs`): a unified diff (one file under
 * `path`, or many under their headers) or whole-file `changes`, all checked before anything is
 * written; the answer is its `PatchResult` as indented JSON. Hunks are searched up to 50 lines
 * away unless `fuzz` says less (the code's bound, not the description's 3).
 */
export function applyPatchTool(options: { model: string }): Tool<Args> {
  return {
    name: "apply_patch",
    description: description.trimEnd(),
    kind: "edit",
    capability: "edit",
    parameters: applyPatchSchema,
    schema: Args,
    preview: async (args, ctx) => ({
      title: "apply_patch",
      locations: targets(args).map((p) => ({ path: resolvePath(p, ctx.cwd) })),
    }),
    access: (args, ctx) => ({ type: "write", paths: targets(args).map((p) => resolvePath(p, ctx.cwd)) }),
    async execute(args, ctx) {
      if (!args.changes && args.patch === undefined)
        return failed("Tool 'apply_patch' is missing required field 'patch'");
      let writes: Write[];
      let note: string | undefined;
      try {
        if (args.changes) writes = await fromChanges(args.changes, ctx);
        else {
          const planned = await fromPatch({ ...args, patch: args.patch ?? "" }, ctx);
          if ("error" in planned) return failed(planned.error);
          writes = planned.writes;
          note = planned.note;
        }
      } catch (error) {
        if (error instanceof PatchInputError) return invalidInput("apply_patch", error.message);
        throw error;
      }
      for (const w of writes) {
        try {
          if (w.after === null) await ctx.fs.remove(w.file);
          else await ctx.fs.writeText(w.file, w.after);
        } catch (error) {
          return failed(`Failed to write ${w.file}: ${ioText(error)}`);
        }
      }
      const display: DisplayContent[] = writes.map((w) => ({
        type: "diff",
        path: w.file,
        oldText: w.before,
        newText: w.after ?? "",
      }));
      return {
        output: forContext({ model: options.model, tool: "apply_patch", output: result(writes, note) }),
        display,
      };
    },
  };
}

function targets(args: Args): string[] {
  if (args.changes) return args.changes.map((c) => c.path);
  if (args.path) return [args.path];
  return patchShape(args.patch ?? "").files;
}

async function read(file: string, ctx: ToolContext): Promise<string | null> {
  if (!(await ctx.fs.stat(file))) return null;
  try {
    return await ctx.fs.readText(file);
  } catch (error) {
    throw new PatchInputError(`Failed to read ${file}: ${ioText(error)}`);
  }
}

async function fromChanges(
  changes: Array<{ path: string; content: string }>,
  ctx: ToolContext,
): Promise<Write[]> {
  if (changes.length === 0) throw new PatchInputError("`changes` cannot be empty");
  const out: Write[] = [];
  for (const change of changes) {
    const file = resolvePath(change.path, ctx.cwd);
    out.push({
      file,
      label: change.path,
      before: await read(file, ctx),
      after: change.content,
      hunks: 0,
      fuzz: [],
    });
  }
  return out;
}

async function fromPatch(
  args: Args & { patch: string },
  ctx: ToolContext,
): Promise<{ writes: Write[]; note?: string } | { error: string }> {
  const shape = patchShape(args.patch);
  if (!shape.hasHunks)
    throw new PatchInputError(
      "Patch must include at least one hunk header (`@@ -start,count +start,count @@`).",
    );
  if (args.path !== undefined && shape.files.length > 1)
    throw new PatchInputError(
      `Patch references multiple files (${fileList(shape.files)}) but \`path\` was provided. Remove \`path\` to apply a multi-file patch, or provide a single-file patch.`,
    );
  if (args.path === undefined && shape.files.length === 0)
    throw new PatchInputError(
      "Patch contains hunks but no file headers (`---`/`+++`). Provide `path` or add headers.",
    );
  let note: string | undefined;
  let patches: FilePatch[];
  if (args.path !== undefined) {
    const override = normalizeDiffPath(args.path) ?? args.path;
    if (shape.files.length === 1 && shape.files[0] !== override)
      note = `Note: patch headers reference \`${shape.files[0]}\` but \`path\` overrides to \`${override}\`.`;
    patches = [
      {
        path: args.path,
        hunks: parseHunks(args.patch),
        deleteAfter: false,
        createIfMissing: args.create_if_missing ?? false,
      },
    ];
  } else patches = parseFilePatches(args.patch, args.create_if_missing ?? false);
  const fuzz = Math.min(args.fuzz ?? MAX_FUZZ, MAX_FUZZ);
  const writes: Write[] = [];
  for (const p of patches) {
    if (p.hunks.length === 0)
      throw new PatchInputError(`Patch section for \`${p.path}\` has no hunks (\`@@ ... @@\`).`);
    const file = resolvePath(p.path, ctx.cwd);
    const before = await read(file, ctx);
    if (before === null && !p.createIfMissing)
      return {
        error: `File \`${p.path}\` does not exist at \`${file}\`. Set create_if_missing=true for new files or include headers for file creation.`,
      };
    if (p.deleteAfter && before === null)
      return { error: `File \`${p.path}\` does not exist at \`${file}\` to delete.` };
    const lines = before ? textLines(before) : [];
    const applied = applyHunks(lines, p.hunks, { fuzz, label: p.path });
    if ("error" in applied) return { error: applied.error };
    // The original joins the lines without a final newline; we keep the file's (a new file gets one).
    const after = p.deleteAfter
      ? null
      : `${lines.join("\n")}${before === null || before.endsWith("\n") ? "\n" : ""}`;
    writes.push({ file, label: p.path, before, after, hunks: p.hunks.length, fuzz: applied.fuzz });
  }
  return { writes, ...(note ? { note } : {}) };
}

/** `PatchResult` with the original's field order and summary message. */
function result(writes: Write[], note?: string): string {
  const sum = (f: (w: Write) => number) => writes.reduce((n, w) => n + f(w), 0);
  const hunksTotal = sum((w) => w.hunks);
  const fuzzUsed = sum((w) => w.fuzz.reduce((a, b) => a + b, 0));
  const withFuzz = sum((w) => w.fuzz.filter((f) => f > 0).length);
  const touched = [...new Set(writes.map((w) => w.label))];
  const parts = [
    hunksTotal > 0
      ? `Applied ${hunksTotal}/${hunksTotal} hunks across ${writes.length} file(s).`
      : `Applied ${writes.length} file change(s).`,
  ];
  if (touched.length > 0) parts.push(`Files: ${fileList(touched)}.`);
  if (fuzzUsed > 0) parts.push(`Fuzz used on ${withFuzz} hunk(s) (total fuzz: ${fuzzUsed}).`);
  if (note) parts.push(note);
  return JSON.stringify(
    {
      success: true,
      files_applied: writes.length,
      files_total: writes.length,
      hunks_applied: hunksTotal,
      hunks_total: hunksTotal,
      fuzz_used: fuzzUsed,
      hunks_with_fuzz: withFuzz,
      ...(touched.length > 0 ? { touched_files: touched } : {}),
      file_summaries: writes.map((w) => ({
        path: w.label,
        hunks: w.hunks,
        hunks_applied: w.hunks,
        fuzz_used: w.fuzz.reduce((a, b) => a + b, 0),
        hunks_with_fuzz: w.fuzz.filter((f) => f > 0).length,
        created: w.before === null && w.after !== null,
        deleted: w.after === null,
      })),
      message: parts.join(" "),
    },
    null,
    2,
  );
}

function fileList(files: string[]): string {
  if (files.length === 0) return "<none>";
  const shown = files.slice(0, FILE_LIST_LIMIT);
  if (files.length > shown.length) shown.push(`... (+${files.length - shown.length} more)`);
  return shown.join(", ");
}
