/**
 * Jupyter notebooks (nbformat 4) as JSON: just enough structure to read cells and edit them
 * while keeping every key the tools do not touch. The edit semantics are each original's own
 * (claude-code and qwen-code tools); this file holds what they share.
 */

export interface NotebookCell {
  cell_type: string;
  id?: string;
  source: string | string[];
  metadata?: Record<string, unknown>;
  execution_count?: number | null;
  outputs?: NotebookOutput[];
  [key: string]: unknown;
}

export interface NotebookOutput {
  output_type: string;
  text?: string | string[];
  data?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
  traceback?: string[];
  [key: string]: unknown;
}

export interface Notebook {
  cells: NotebookCell[];
  metadata?: { language_info?: { name?: string }; kernelspec?: { language?: string } } & Record<
    string,
    unknown
  >;
  nbformat?: number;
  nbformat_minor?: number;
  [key: string]: unknown;
}

/** The notebook in `text`; throws with a reason when it is not JSON or has no cell list. */
export function parseNotebook(text: string): Notebook {
  const parsed: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new Error("Invalid notebook: expected a JSON object");
  const notebook = parsed as Notebook;
  if (!Array.isArray(notebook.cells)) throw new Error("Invalid notebook: missing cells array");
  for (const [index, cell] of notebook.cells.entries()) {
    if (!cell || typeof cell !== "object" || Array.isArray(cell))
      throw new Error(`Invalid notebook: cell at index ${index} is not an object`);
  }
  return notebook;
}

/** A cell's source as one string (nbformat allows a list of lines). */
export function sourceText(source: string | string[] | undefined): string {
  return Array.isArray(source) ? source.join("") : (source ?? "");
}

/** `text` as nbformat's list of lines, each keeping its newline. */
export function sourceLines(text: string): string[] {
  return text === "" ? [] : (text.match(/[^\n]*\n|[^\n]+$/g) ?? []);
}

/** Cells carry ids from nbformat 4.5 on. */
export function hasCellIds(notebook: Notebook): boolean {
  const major = notebook.nbformat ?? 0;
  return major > 4 || (major === 4 && (notebook.nbformat_minor ?? 0) >= 5);
}

/** `cell-<n>` names the n-th cell (0-based) of a notebook whose cells have no ids. */
export function cellIndexOf(id: string): number | undefined {
  const match = /^cell-(\d+)$/.exec(id);
  return match ? Number(match[1]) : undefined;
}

/** The notebook's programming language (python when it does not say). */
export function notebookLanguage(notebook: Notebook): string {
  return notebook.metadata?.language_info?.name ?? notebook.metadata?.kernelspec?.language ?? "python";
}

/**
 * What nbformat requires of a cell of `type`: code cells have `execution_count` and `outputs`,
 * the others neither; every cell has `metadata`.
 */
export function fitCellType(cell: NotebookCell, type: string): void {
  cell.cell_type = type;
  cell.metadata ??= {};
  if (type === "code") {
    cell.execution_count ??= null;
    cell.outputs ??= [];
  } else {
    delete cell.execution_count;
    delete cell.outputs;
  }
}
