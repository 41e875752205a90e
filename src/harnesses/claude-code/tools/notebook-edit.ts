import path from "node:path";
import { z } from "zod";
import {
  cellIndexOf,
  fitCellType,
  hasCellIds,
  type Notebook,
  type NotebookCell,
  parseNotebook,
} from "../../../tools/notebook/notebook.js";
import type { Tool, ToolResult } from "../../../tools/types.js";
import { resolveModelPath } from "../../shared/claude-code-core/file-access.js";
import { toolUseError } from "../../shared/claude-code-core/format.js";
import { notebookEditSchema } from "../../shared/claude-code-core/tool-schemas.js";
import description from "./notebook-edit.md";

const Args = z.looseObject({
  notebook_path: z.string(),
  cell_id: z.string().optional(),
  new_source: z.string(),
  cell_type: z.enum(["code", "markdown"]).optional(),
  edit_mode: z.enum(["replace", "insert", "delete"]).optional(),
});
type Args = z.infer<typeof Args>;

/** Claude Code's id for an inserted cell: up to 13 characters of base 36. */
function randomCellId(): string {
  return Math.random().toString(36).substring(2, 15);
}

/**
 * Claude Code 2.1.44 `NotebookEdit`: its checks in its order (answered inside
 * `<tool_use_error>`), then the edit: insert after the named cell (first without one), a
 * replace one past the last cell becomes an insert, the source stored as one string, and the
 * notebook written back as `JSON.stringify(notebook, null, 1)`. Results name the resulting cell
 * id (`undefined` before nbformat 4.5, as upstream prints it). Unlike upstream, a cell whose type
 * changes gets the keys its new type requires, so the notebook stays valid nbformat.
 */
export function notebookEditTool(options: { newId?: () => string } = {}): Tool<Args> {
  const newId = options.newId ?? randomCellId;
  return {
    name: "NotebookEdit",
    description: description.trim(),
    kind: "edit",
    capability: "other",
    parameters: notebookEditSchema,
    schema: Args,
    async preview(args, ctx) {
      const file = resolveModelPath(args.notebook_path, ctx.cwd);
      return { title: `Edit notebook ${file}`, locations: [{ path: file }] };
    },
    access: (args, ctx) => ({ type: "write", paths: [resolveModelPath(args.notebook_path, ctx.cwd)] }),
    async execute(args, ctx) {
      const file = resolveModelPath(args.notebook_path, ctx.cwd);
      const mode = args.edit_mode ?? "replace";
      const refuse = (message: string): ToolResult => ({ output: toolUseError(message), isError: true });
      const stat = await ctx.fs.stat(file);
      if (!stat) return refuse("Notebook file does not exist.");
      if (path.extname(file) !== ".ipynb") {
        return refuse(
          "File must be a Jupyter notebook (.ipynb file). For editing other file types, use the FileEdit tool.",
        );
      }
      if (mode === "insert" && !args.cell_type)
        return refuse("Cell type is required when using edit_mode=insert.");
      const original = await ctx.fs.readText(file);
      let notebook: Notebook;
      try {
        notebook = parseNotebook(original);
      } catch {
        return refuse("Notebook is not valid JSON.");
      }
      let index = 0;
      if (!args.cell_id) {
        if (mode !== "insert") return refuse("Cell ID must be specified when not inserting a new cell.");
      } else {
        index = notebook.cells.findIndex((cell) => cell.id === args.cell_id);
        if (index === -1) {
          const byIndex = cellIndexOf(args.cell_id);
          if (byIndex === undefined) return refuse(`Cell with ID "${args.cell_id}" not found in notebook.`);
          if (!notebook.cells[byIndex])
            return refuse(`Cell with index ${byIndex} does not exist in notebook.`);
          index = byIndex;
        }
        if (mode === "insert") index += 1;
      }
      let applied = mode;
      let type = args.cell_type;
      if (applied === "replace" && index === notebook.cells.length) {
        applied = "insert";
        type ??= "code";
      }
      const id = !hasCellIds(notebook) ? undefined : applied === "insert" ? newId() : args.cell_id;
      if (applied === "delete") {
        notebook.cells.splice(index, 1);
      } else if (applied === "insert") {
        const cell: NotebookCell = { cell_type: type ?? "code", id, source: args.new_source, metadata: {} };
        fitCellType(cell, cell.cell_type);
        notebook.cells.splice(index, 0, cell);
      } else {
        const cell = notebook.cells[index] as NotebookCell;
        cell.source = args.new_source;
        if (cell.cell_type === "code") {
          cell.execution_count = null;
          cell.outputs = [];
        }
        if (type && type !== cell.cell_type) fitCellType(cell, type);
      }
      const updated = JSON.stringify(notebook, null, 1);
      try {
        await ctx.fs.writeText(file, updated);
      } catch (error) {
        return { output: error instanceof Error ? error.message : String(error), isError: true };
      }
      const shownId = id ?? "undefined";
      const output =
        applied === "replace"
          ? `Updated cell ${shownId} with ${args.new_source}`
          : applied === "insert"
            ? `Inserted cell ${shownId} with ${args.new_source}`
            : `Deleted cell ${shownId}`;
      return { output, display: [{ type: "diff", path: file, oldText: original, newText: updated }] };
    },
  };
}
