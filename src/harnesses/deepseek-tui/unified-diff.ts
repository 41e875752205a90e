/** Above this many cells the changed middle is shown as all removed, then all added. */
const MAX_CELLS = 4_000_000;
const CONTEXT = 3;

type Op = { kind: " " | "-" | "+"; line: string; a: number; b: number };

/**
 * The unified diff CodeWhale puts at the head of a write or edit result (`diff_format.rs`, the
 * `similar` crate's format): `--- a/PATH` / `+++ b/PATH`, hunks with three lines of context,
 * GNU ranges (`-3` for one line, `-3,0` for none) and `\ No newline at end of file` after a last
 * line without one. Empty when the texts are equal.
 */
export function unifiedDiff(path: string, oldText: string, newText: string): string {
  if (oldText === newText) return "";
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const ops = diffOps(a, b);
  let out = `--- a/${path}\n+++ b/${path}\n`;
  for (const hunk of hunks(ops)) {
    const first = hunk[0] as Op;
    const oldLen = hunk.filter((op) => op.kind !== "+").length;
    const newLen = hunk.filter((op) => op.kind !== "-").length;
    out += `@@ -${range(first.a, oldLen)} +${range(first.b, newLen)} @@\n`;
    for (const op of hunk) {
      out += `${op.kind}${op.line}`;
      if (!op.line.endsWith("\n")) out += "\n\\ No newline at end of file\n";
    }
  }
  return out;
}

/** Lines with their line breaks kept, as `similar` compares them. */
function splitLines(text: string): string[] {
  return text === "" ? [] : (text.match(/[^\n]*\n|[^\n]+$/g) ?? []);
}

function range(start: number, length: number): string {
  if (length === 1) return `${start + 1}`;
  return `${length === 0 ? start : start + 1},${length}`;
}

function diffOps(a: string[], b: string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const ops: Op[] = [];
  for (let i = 0; i < head; i++) ops.push({ kind: " ", line: a[i] as string, a: i, b: i });
  ops.push(...middle(a, b, head, a.length - tail, b.length - tail));
  for (let k = tail; k > 0; k--) {
    const i = a.length - k;
    ops.push({ kind: " ", line: a[i] as string, a: i, b: b.length - k });
  }
  return ops;
}

/** An exact LCS of the differing middle `a[from..endA)` / `b[from..endB)`. */
function middle(a: string[], b: string[], from: number, endA: number, endB: number): Op[] {
  const n = endA - from;
  const m = endB - from;
  const ops: Op[] = [];
  const del = (i: number, j: number) => ops.push({ kind: "-", line: a[i] as string, a: i, b: j });
  const add = (i: number, j: number) => ops.push({ kind: "+", line: b[j] as string, a: i, b: j });
  if (n === 0 || m === 0 || n * m > MAX_CELLS) {
    for (let i = from; i < endA; i++) del(i, from);
    for (let j = from; j < endB; j++) add(endA, j);
    return ops;
  }
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i * w + j] =
        a[from + i] === b[from + j]
          ? (lcs[(i + 1) * w + j + 1] as number) + 1
          : Math.max(lcs[(i + 1) * w + j] as number, lcs[i * w + j + 1] as number);
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[from + i] === b[from + j]) {
      ops.push({ kind: " ", line: a[from + i] as string, a: from + i, b: from + j });
      i++;
      j++;
    } else if (i < n && (j === m || (lcs[(i + 1) * w + j] as number) >= (lcs[i * w + j + 1] as number))) {
      del(from + i, from + j);
      i++;
    } else {
      add(from + i, from + j);
      j++;
    }
  }
  return ops;
}

/** Changes with their context, hunks merged where the context between them would overlap. */
function hunks(ops: Op[]): Op[][] {
  const changed = ops.flatMap((op, index) => (op.kind === " " ? [] : [index]));
  const out: Op[][] = [];
  let start = -1;
  let end = -1;
  for (const index of changed) {
    const from = Math.max(0, index - CONTEXT);
    if (start >= 0 && from <= end + 1) end = Math.min(ops.length - 1, index + CONTEXT);
    else {
      if (start >= 0) out.push(ops.slice(start, end + 1));
      start = from;
      end = Math.min(ops.length - 1, index + CONTEXT);
    }
  }
  if (start >= 0) out.push(ops.slice(start, end + 1));
  return out;
}
