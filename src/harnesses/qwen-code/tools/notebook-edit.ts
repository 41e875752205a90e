import path from "node:path";
import { z } from "zod";
import {
  fitCellType,
  hasCellIds,
  type Notebook,
  type NotebookCell,
  parseNotebook,
  sourceLines,
} from "../../../tools/notebook/notebook.js";
import type { Tool } from "../../../tools/types.js";
import description from "../descriptions/notebook-edit.md";
import { cellDisplayId } from "../notebook-text.js";
import type { ReadLedger } from "../read-ledger.js";
import { notebookEditSchema } from "../tool-schemas.js";
import { failure, isAbsolute } from "./qwen-paths.js";

const Args = z.looseObject({
  notebook_path: z.string(),
  cell_id: z.string().nullish(),
  new_source: z.string().nullish(),
  cell_type: z.enum(["code", "markdown"]).nullish(),
  edit_mode: z.enum(["replace", "insert", "delete"]).nullish(),
});
type Args = z.infer<typeof Args>;

/**
 * Qwen Code 0.24.4 `notebook_edit` (`tools/notebook-edit.ts`, `utils/notebook.ts`): its checks
 * and texts, a prior full read_file of the notebook required (the session's read ledger), cells
 * named by the id read_file shows, new cells `qwen-cell-N` from nbformat 4.5 on, sources in the
 * notebook's own style (a list of lines or one string), a replaced code cell's outputs cleared,
 * and the file written back in its own indentation.
 */
export function notebookEditTool(ledger: ReadLedger): Tool<Args> {
  return {
    name: "notebook_edit",
    description: description.trim(),
    kind: "edit",
    capability: "other",
    parameters: notebookEditSchema(),
    schema: Args,
    preview: async (args) => ({
      title: `${args.edit_mode ?? "replace"} notebook cell ${args.cell_id ?? "beginning"} in ${args.notebook_path}`,
      locations: [{ path: args.notebook_path }],
    }),
    access: (args) => ({ type: "write", paths: [args.notebook_path.trim()] }),
    async execute(args, ctx) {
      const file = args.notebook_path.trim();
      const mode = args.edit_mode ?? "replace";
      if (!file) return failure("The 'notebook_path' parameter must be non-empty.");
      if (!isAbsolute(file)) return failure(`Notebook path must be absolute: ${file}`);
      if (path.extname(file).toLowerCase() !== ".ipynb")
        return failure("File must be a Jupyter notebook (.ipynb). Use the edit tool for other file types.");
      if (mode !== "insert" && !args.cell_id)
        return failure("cell_id is required for replace and delete operations.");
      if (mode !== "delete" && typeof args.new_source !== "string")
        return failure(`new_source is required when edit_mode is "${mode}".`);
      const stat = await ctx.fs.stat(file);
      if (!stat) return failure(`Notebook file not found: ${file}`);
      if (stat.isDirectory)
        return failure(`${file} is a directory. The NotebookEdit tool only operates on .ipynb files.`);
      const state = ledger.state(file, stat.mtimeMs);
      if (state === "changed")
        return failure(
          `Notebook ${file} has been modified since you last read it. Re-read it with the read_file tool before editing it.`,
        );
      if (state === "not_read")
        return failure(
          `Notebook ${file} has not been fully read in this session. Use the read_file tool first, without offset or limit, before editing cells.`,
        );
      const original = await ctx.fs.readText(file);
      let edited: { notebook: Notebook; cellId: string };
      try {
        edited = applyEdit(parseNotebook(original), {
          mode,
          cellId: args.cell_id ?? undefined,
          source: args.new_source ?? "",
          cellType: args.cell_type ?? undefined,
        });
      } catch (error) {
        return failure(error instanceof Error ? error.message : String(error));
      }
      const stableBefore = stableIds(parseNotebook(original));
      const updated = serialize(edited.notebook, original);
      try {
        await ctx.fs.writeText(file, updated);
      } catch (error) {
        return failure(`Error writing notebook: ${error instanceof Error ? error.message : String(error)}`);
      }
      // Inserting or deleting among cells without ids renumbers `cell-N`: the model must read again.
      if (mode !== "replace" && !(stableBefore && stableIds(edited.notebook))) ledger.forget(file);
      else await ledger.recordWrite(ctx.fs, file);
      const source = mode === "delete" ? "" : `\n\nUpdated source:\n\n---\n\n${args.new_source}`;
      return {
        output: `Notebook ${file} has been updated. ${mode} cell ${edited.cellId}.${source}`,
        display: [{ type: "diff", path: file, oldText: original, newText: updated }],
      };
    },
  };
}

function applyEdit(
  notebook: Notebook,
  edit: { mode: "replace" | "insert" | "delete"; cellId?: string; source: string; cellType?: string },
): { notebook: Notebook; cellId: string } {
  const cells = notebook.cells;
  let index = -1;
  if (edit.cellId) {
    const matches = cells.flatMap((cell, i) => (cellDisplayId(cell, i) === edit.cellId ? [i] : []));
    if (matches.length > 1) {
      throw new Error(
        `Cell ID "${edit.cellId}" is ambiguous in the rendered notebook. Re-read the notebook and target a stable real cell ID before editing.`,
      );
    }
    if (matches.length === 0) throw new Error(`Cell with ID "${edit.cellId}" not found in notebook.`);
    index = matches[0] as number;
  }
  if (edit.mode === "insert") {
    const at = index + 1;
    const type = edit.cellType ?? "code";
    const cell: NotebookCell = {
      cell_type: type,
      metadata: {},
      source: asSource(edit.source, arrayStyleAt(notebook, at)),
    };
    const id = newCellId(notebook);
    if (id) cell.id = id;
    fitEdited(cell, type);
    cells.splice(at, 0, cell);
    return { notebook, cellId: cellDisplayId(cell, at) };
  }
  if (edit.mode === "delete") {
    const [removed] = cells.splice(index, 1);
    return { notebook, cellId: removed ? cellDisplayId(removed, index) : `cell-${index}` };
  }
  const target = cells[index] as NotebookCell;
  target.source = asSource(edit.source, Array.isArray(target.source));
  fitEdited(target, edit.cellType ?? target.cell_type);
  return { notebook, cellId: cellDisplayId(target, index) };
}

/** Qwen Code clears a code cell it edits (no count, no outputs) and strips them from the others. */
function fitEdited(cell: NotebookCell, type: string): void {
  if (type === "code") {
    cell.execution_count = null;
    cell.outputs = [];
  }
  fitCellType(cell, type);
}

function stableIds(notebook: Notebook): boolean {
  return notebook.cells.every((cell) => typeof cell.id === "string" && cell.id.length > 0);
}

/** The first `qwen-cell-N` no cell shows, for notebooks whose cells have ids. */
function newCellId(notebook: Notebook): string | undefined {
  if (!hasCellIds(notebook)) return undefined;
  const taken = new Set(notebook.cells.map(cellDisplayId));
  let n = 1;
  while (taken.has(`qwen-cell-${n}`)) n++;
  return `qwen-cell-${n}`;
}

/** An inserted cell's source follows its neighbour's style: the one before, else after, else the first. */
function arrayStyleAt(notebook: Notebook, at: number): boolean {
  const near = [notebook.cells[at - 1], notebook.cells[at], ...notebook.cells].find(
    (cell) => cell?.source !== undefined,
  );
  return near ? Array.isArray(near.source) : true;
}

function asSource(text: string, asLines: boolean): string | string[] {
  return asLines ? sourceLines(text) : text;
}

/** Written back as it was laid out: the same indentation, a final newline when it had one. */
function serialize(notebook: Notebook, original: string): string {
  const indent = /\n([ \t]+)"/.exec(original)?.[1];
  const space = indent === undefined ? undefined : /^ +$/.test(indent) ? indent.length : indent;
  const text = JSON.stringify(notebook, null, space);
  return original.endsWith("\n") ? `${text}\n` : text;
}
