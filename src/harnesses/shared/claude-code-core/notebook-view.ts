import type { ResultPart } from "../../../store/events.js";
import {
  type Notebook,
  type NotebookOutput,
  notebookLanguage,
  sourceText,
} from "../../../tools/notebook/notebook.js";

/** Claude Code leaves a cell's outputs out when their JSON passes this many characters. */
const MAX_OUTPUTS_CHARS = 10_000;
/** Its Bash output cap, applied to each output text. */
const MAX_OUTPUT_CHARS = 30_000;

/**
 * A notebook as Claude Code 2.1.44's Read shows it: each cell as
 * `<cell id="…">[<cell_type>…</cell_type>][<language>…</language>]source</cell id="…">`,
 * outputs after it (stream, `text/plain` of results, error name, value and traceback), PNG and
 * JPEG outputs as images of their own; consecutive texts joined by newlines.
 */
export function notebookParts(notebook: Notebook): ResultPart[] {
  const language = notebookLanguage(notebook);
  const parts: ResultPart[] = [];
  const push = (part: ResultPart) => {
    const last = parts.at(-1);
    if (part.type === "text" && last?.type === "text") last.text += `\n${part.text}`;
    else parts.push(part);
  };
  for (const [index, cell] of notebook.cells.entries()) {
    const id = cell.id ?? `cell-${index}`;
    const tags = [
      ...(cell.cell_type !== "code" ? [`<cell_type>${cell.cell_type}</cell_type>`] : []),
      ...(cell.cell_type === "code" && language !== "python" ? [`<language>${language}</language>`] : []),
    ];
    push({
      type: "text",
      text: `<cell id="${id}">${tags.join("")}${sourceText(cell.source)}</cell id="${id}">`,
    });
    if (cell.cell_type !== "code" || !cell.outputs?.length) continue;
    const outputs = cell.outputs.map(outputView);
    const shown =
      JSON.stringify(outputs).length > MAX_OUTPUTS_CHARS
        ? [
            {
              text: `Outputs are too large to include. Use Bash with: cat <notebook_path> | jq '.cells[${index}].outputs'`,
            },
          ]
        : outputs;
    for (const output of shown) {
      if (output.text) push({ type: "text", text: `\n${output.text}` });
      if ("image" in output && output.image) push({ type: "image", ...output.image });
    }
  }
  return parts;
}

interface OutputView {
  text: string;
  image?: { mimeType: string; data: string };
}

function outputView(output: NotebookOutput): OutputView {
  switch (output.output_type) {
    case "stream":
      return { text: capped(output.text) };
    case "execute_result":
    case "display_data": {
      const image = imageOf(output.data ?? {});
      return {
        text: capped(output.data?.["text/plain"] as string | string[] | undefined),
        ...(image ? { image } : {}),
      };
    }
    case "error":
      return { text: capped(`${output.ename}: ${output.evalue}\n${(output.traceback ?? []).join("\n")}`) };
    default:
      return { text: "" };
  }
}

function imageOf(data: Record<string, unknown>): OutputView["image"] {
  for (const mimeType of ["image/png", "image/jpeg"]) {
    const value = data[mimeType];
    if (typeof value === "string") return { mimeType, data: value.replace(/\s/g, "") };
  }
  return undefined;
}

function capped(text: string | string[] | undefined): string {
  if (!text) return "";
  const joined = Array.isArray(text) ? text.join("") : text;
  if (joined.length <= MAX_OUTPUT_CHARS) return joined;
  const rest = joined.slice(MAX_OUTPUT_CHARS).split("\n").length;
  return `${joined.slice(0, MAX_OUTPUT_CHARS)}\n\n... [${rest} lines truncated] ...`;
}
