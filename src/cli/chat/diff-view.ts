import { diffLines } from "diff";
import { clip, type Style } from "./style.js";

export interface DiffRow {
  kind: "add" | "del" | "ctx" | "gap";
  text: string;
}

/** Past this many edits jsdiff gives up on a minimal diff: the change shows as all removed, then all added. */
const MAX_EDIT_LENGTH = 2000;

/**
 * A line diff (jsdiff's Myers diff) with `context` unchanged lines around each change; runs of
 * unchanged lines between changes become one `gap` row.
 */
export function diffRows(oldText: string, newText: string, context = 2): DiffRow[] {
  const changes = diffLines(oldText, newText, { maxEditLength: MAX_EDIT_LENGTH });
  const rows: DiffRow[] = changes
    ? changes.flatMap((change) =>
        lines(change.value).map((text) => ({
          kind: change.added ? ("add" as const) : change.removed ? ("del" as const) : ("ctx" as const),
          text,
        })),
      )
    : [
        ...lines(oldText).map((text) => ({ kind: "del" as const, text })),
        ...lines(newText).map((text) => ({ kind: "add" as const, text })),
      ];
  return withContext(rows, context);
}

/** The coloured diff of one file: a header with counts, then at most `maxRows` rows. */
export function renderDiff(options: {
  path: string;
  oldText: string | null | undefined;
  newText: string;
  style: Style;
  width: number;
  maxRows?: number;
}): string[] {
  const { style, width } = options;
  const rows = diffRows(options.oldText ?? "", options.newText);
  const added = rows.filter((r) => r.kind === "add").length;
  const removed = rows.filter((r) => r.kind === "del").length;
  const verb = options.oldText == null || options.oldText === "" ? "new file" : "edited";
  const counts = `${style.green(`+${added}`)} ${style.red(`-${removed}`)}`;
  const out = [`  ${style.bold(options.path)} ${style.dim(`(${verb})`)} ${counts}`];
  const maxRows = options.maxRows ?? 40;
  const body = width - 6;
  for (const row of rows.slice(0, maxRows)) {
    if (row.kind === "add") out.push(style.green(`    + ${clip(row.text, body)}`));
    else if (row.kind === "del") out.push(style.red(`    - ${clip(row.text, body)}`));
    else if (row.kind === "gap") out.push(style.dim(`    ${row.text}`));
    else out.push(style.dim(`      ${clip(row.text, body)}`));
  }
  if (rows.length > maxRows) out.push(style.dim(`    … ${rows.length - maxRows} more lines`));
  return out;
}

function lines(text: string): string[] {
  if (text === "") return [];
  const parts = text.split("\n");
  if (parts.at(-1) === "") parts.pop();
  return parts;
}

function withContext(rows: DiffRow[], context: number): DiffRow[] {
  const near = new Array<boolean>(rows.length).fill(false);
  rows.forEach((row, index) => {
    if (row.kind === "ctx") return;
    for (let k = Math.max(0, index - context); k <= Math.min(rows.length - 1, index + context); k++) {
      near[k] = true;
    }
  });
  const out: DiffRow[] = [];
  let hidden = 0;
  rows.forEach((row, index) => {
    if (near[index]) {
      if (hidden > 0) out.push(gap(hidden));
      hidden = 0;
      out.push(row);
    } else hidden++;
  });
  // A trailing run of unchanged lines is just the rest of the file: no marker needed.
  if (hidden > 0 && out.length === 0) out.push(gap(hidden));
  return out;
}

function gap(count: number): DiffRow {
  return { kind: "gap", text: `⋮ ${count} unchanged line${count === 1 ? "" : "s"}` };
}
