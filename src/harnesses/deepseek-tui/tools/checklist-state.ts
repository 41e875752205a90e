import type { PlanEntry } from "../../../store/events.js";

export type Status = "pending" | "in_progress" | "completed";
interface Item {
  id: number;
  content: string;
  status: Status;
}

/** CodeWhale's status words (`TodoStatus::from_str`): `inprogress` and `done` are accepted too. */
export function readStatus(value: string | undefined): Status | undefined {
  const v = value?.trim().toLowerCase();
  if (v === "pending") return "pending";
  if (v === "in_progress" || v === "inprogress") return "in_progress";
  if (v === "completed" || v === "done") return "completed";
  return undefined;
}

/**
 * The session's checklist (CodeWhale 0.8.44 `tools/todo.rs` `TodoList`): ids from 1, at most one
 * item in progress (starting one sets the others back to pending), completion rounded to the
 * nearest percent. Owned by the harness session; the four checklist tools share it.
 */
export class Checklist {
  private items: Item[] = [];
  private nextId = 1;

  add(content: string, status: Status): Item {
    if (status === "in_progress") this.singleInProgress(undefined);
    const item = { id: this.nextId++, content, status };
    this.items.push(item);
    return { ...item };
  }

  update(id: number, status: Status): Item | undefined {
    if (status === "in_progress") this.singleInProgress(id);
    const item = this.items.find((i) => i.id === id);
    if (item) item.status = status;
    return item && { ...item };
  }

  clear(): void {
    this.items = [];
    this.nextId = 1;
  }

  get size(): number {
    return this.items.length;
  }

  percent(): number {
    const total = this.items.length;
    if (total === 0) return 0;
    const done = this.items.filter((i) => i.status === "completed").length;
    return Math.floor((done * 100 + Math.floor(total / 2)) / total);
  }

  /** The snapshot the tools answer with, as indented JSON. */
  snapshot(): string {
    const inProgress = this.items.find((i) => i.status === "in_progress")?.id ?? null;
    return JSON.stringify(
      { items: this.items, completion_pct: this.percent(), in_progress_id: inProgress },
      null,
      2,
    );
  }

  /** Starting an item sets every other in-progress item back to pending. */
  private singleInProgress(allow: number | undefined): void {
    for (const item of this.items)
      if (item.id !== allow && item.status === "in_progress") item.status = "pending";
  }

  /** The list as the editor's plan. */
  plan(): PlanEntry[] {
    return this.items.map((i) => ({ content: i.content, status: i.status, priority: "medium" }));
  }
}
