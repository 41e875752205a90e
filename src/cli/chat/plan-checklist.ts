import { clip, type Style } from "./style.js";

export interface ChecklistEntry {
  content: string;
  status: "pending" | "in_progress" | "completed";
}

const MARKS = { completed: "☒", in_progress: "▸", pending: "☐" } as const;

/** A plan as a checklist: done items dimmed, the current one bold. */
export function planChecklist(entries: ChecklistEntry[], options: { style: Style; width: number }): string[] {
  const { style, width } = options;
  const done = entries.filter((e) => e.status === "completed").length;
  const lines = [style.bold(`  Plan (${done}/${entries.length} done)`)];
  for (const entry of entries) {
    const text = `    ${MARKS[entry.status]} ${clip(entry.content.replace(/\s+/g, " "), width - 6)}`;
    if (entry.status === "completed") lines.push(style.dim(text));
    else if (entry.status === "in_progress") lines.push(style.bold(style.cyan(text)));
    else lines.push(text);
  }
  return lines;
}
