import { clip, type Style } from "./style.js";

export interface DiffRow {
  kind: "add" | "del" | "ctx" | "gap";
  text: string;
}

/** Above this many cells the middle of a change is shown as "all removed, then all added". */
const MAX_LCS_CELLS = 250_000;

/**
 * A line diff with `context` unchanged lines around each change; runs of unchanged lines
 * between changes become one `gap` row. Pure; exact LCS for ordinary edits.
 */
export function diffRows(oldText: string, newText: string, context = 2): DiffRow[] {
  const a = lines(oldText);
  const b = lines(newText);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const all: DiffRow[] = [
    ...a.slice(0, start).map((text) => ({ kind: "ctx" as const, text })),
    ...middle(a.slice(start, endA), b.slice(start, endB)),
    ...a.slice(endA).map((text) => ({ kind: "ctx" as const, text })),
  ];
  return withContext(all, context);
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

function middle(a: string[], b: string[]): DiffRow[] {
  const del = (text: string): DiffRow => ({ kind: "del", text });
  const add = (text: string): DiffRow => ({ kind: "add", text });
  if (a.length === 0 || b.length === 0 || a.length * b.length > MAX_LCS_CELLS) {
    return [...a.map(del), ...b.map(add)];
  }
  // lengths[i][j] = LCS of a[i..] and b[j..], in one flat table.
  const w = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i * w + j] =
        a[i] === b[j]
          ? (lengths[(i + 1) * w + j + 1] as number) + 1
          : Math.max(lengths[(i + 1) * w + j] as number, lengths[i * w + j + 1] as number);
    }
  }
  const rows: DiffRow[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      rows.push({ kind: "ctx", text: a[i] as string });
      i++;
      j++;
    } else if ((lengths[(i + 1) * w + j] as number) >= (lengths[i * w + j + 1] as number)) {
      rows.push(del(a[i++] as string));
    } else {
      rows.push(add(b[j++] as string));
    }
  }
  return [...rows, ...a.slice(i).map(del), ...b.slice(j).map(add)];
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
