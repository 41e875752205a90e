import {
  type Notebook,
  type NotebookCell,
  type NotebookOutput,
  notebookLanguage,
  sourceText,
} from "../../tools/notebook/notebook.js";

/** Qwen Code cuts a cell's outputs past this many characters, and the whole text past the next. */
const LARGE_OUTPUT = 10_000;
const MAX_NOTEBOOK_CHARS = 100_000;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes are what it strips
const ANSI = /\x1B(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1B]*(?:\x07|\x1B\\)|[P_^X][^\x1B]*\x1B\\|[@-Z\\-_])/g;

/** A cell's id as Qwen Code shows it: its own, else `cell-<index>`. */
export function cellDisplayId(cell: NotebookCell, index: number): string {
  return typeof cell.id === "string" && cell.id.length > 0 ? cell.id : `cell-${index}`;
}

/**
 * A notebook as Qwen Code 0.24.4's read_file shows it (`utils/notebook.ts`): a header with the
 * language and cell count, then each cell under `--- Code Cell <id> [n] ---` (code in a fence,
 * then `Output:`), `--- Markdown Cell <id> ---` or `--- Raw Cell <id> ---`. `truncated` when the
 * cells did not all fit.
 */
export function notebookText(notebook: Notebook): { text: string; truncated: boolean } {
  const language = notebookLanguage(notebook);
  const cells = notebook.cells;
  if (cells.length === 0) return { text: "(empty notebook)", truncated: false };
  const header = `Jupyter Notebook (${language}, ${cells.length} cells)`;
  const texts: string[] = [];
  let total = header.length;
  let truncated = false;
  for (const [index, cell] of cells.entries()) {
    const text = cellText(cell, index, language);
    total += text.length + 2;
    if (total > MAX_NOTEBOOK_CHARS) {
      truncated = true;
      texts.push(
        `... [${cells.length - index} remaining cells truncated, total ${cells.length} cells. Use shell to inspect: cat <path> | jq '.cells[${index}:]']`,
      );
      break;
    }
    texts.push(text);
  }
  return { text: `${header}\n\n${texts.join("\n\n")}`, truncated };
}

function cellText(cell: NotebookCell, index: number, language: string): string {
  const id = cellDisplayId(cell, index);
  const source = sourceText(cell.source);
  switch (cell.cell_type) {
    case "code": {
      const count = cell.execution_count != null ? ` [${cell.execution_count}]` : "";
      const lines = [`--- Code Cell ${id}${count} ---`, `\`\`\`${language}`, source, "```"];
      const outputs = (cell.outputs ?? []).map(outputText).filter((text) => text.length > 0);
      if (outputs.length > 0) {
        let combined = outputs.join("\n");
        if (combined.length > LARGE_OUTPUT) {
          combined = `${combined.substring(0, LARGE_OUTPUT)}\n... [output truncated, total ${combined.length} chars. Use shell: cat <notebook_path> | jq '.cells[${index}].outputs']`;
        }
        lines.push("Output:", combined);
      }
      return lines.join("\n");
    }
    case "markdown":
      return [`--- Markdown Cell ${id} ---`, source].join("\n");
    case "raw":
      return [`--- Raw Cell ${id} ---`, source].join("\n");
    default:
      return [`--- Cell ${id} ---`, source].join("\n");
  }
}

function outputText(output: NotebookOutput): string {
  const joined = (text: unknown) =>
    Array.isArray(text) ? text.join("") : typeof text === "string" ? text : "";
  switch (output.output_type) {
    case "stream":
      return joined(output.text).replace(ANSI, "");
    case "execute_result":
    case "display_data": {
      const plain = output.data?.["text/plain"];
      if (typeof plain === "string" || Array.isArray(plain)) return joined(plain).replace(ANSI, "");
      const types = Object.keys(output.data ?? {}).filter((key) =>
        /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+$/.test(key),
      );
      return types.length > 0 ? `[non-text output: ${types.join(", ")}]` : "";
    }
    case "error":
      return [output.ename, output.evalue, output.traceback?.length ? output.traceback.join("\n") : undefined]
        .filter((part): part is string => Boolean(part))
        .join(": ")
        .replace(ANSI, "");
    default:
      return "";
  }
}
