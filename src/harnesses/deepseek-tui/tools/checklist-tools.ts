import { z } from "zod";
import type { Tool, ToolResult } from "../../../tools/types.js";
import { invalidInput } from "../tool-result.js";
import {
  checklistAddSchema,
  checklistListSchema,
  checklistUpdateSchema,
  checklistWriteSchema,
} from "../tool-schemas.js";
import checklistAdd from "./checklist-add.md";
import checklistList from "./checklist-list.md";
import { type Checklist, readStatus } from "./checklist-state.js";
import checklistUpdate from "./checklist-update.md";
import checklistWrite from "./checklist-write.md";
import todoAdd from "./todo-add.md";
import todoList from "./todo-list.md";
import todoUpdate from "./todo-update.md";
import todoWrite from "./todo-write.md";

/** The descriptions under each name: `todo_*` are CodeWhale's older names for the same tools. */
const DESCRIPTIONS = {
  checklist: { add: checklistAdd, list: checklistList, update: checklistUpdate, write: checklistWrite },
  todo: { add: todoAdd, list: todoList, update: todoUpdate, write: todoWrite },
};

const WriteArgs = z.looseObject({
  todos: z.array(z.looseObject({ content: z.string(), status: z.string().optional() })),
});
const AddArgs = z.looseObject({ content: z.string(), status: z.string().optional() });
const UpdateArgs = z.looseObject({ id: z.number().int(), status: z.string() });
const ListArgs = z.looseObject({});

/** What every checklist tool shares: no access, shown as the editor's plan. */
function checklistTool<A>(options: {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  schema: z.ZodType<A>;
  title(args: A): string;
  run(args: A): ToolResult;
}): Tool<A> {
  return {
    name: options.name,
    description: options.description.trimEnd(),
    kind: "think",
    capability: "plan",
    parameters: options.parameters,
    schema: options.schema,
    preview: async (args) => ({ title: options.title(args) }),
    access: () => ({ type: "none" }),
    execute: async (args) => options.run(args),
  };
}

/**
 * CodeWhale's checklist tools (0.8.44 `tools/todo.rs`): `checklist_write` replaces the list,
 * `checklist_add` appends, `checklist_update` sets a status by id, `checklist_list` shows it;
 * each answers with a line and the list's snapshot. `prefix: "todo"` gives the same tools under
 * their older names, on the same list.
 */
export function checklistTools(list: Checklist, prefix: "checklist" | "todo" = "checklist"): Tool[] {
  const d = DESCRIPTIONS[prefix];
  return [
    checklistTool({
      name: `${prefix}_add`,
      description: d.add,
      parameters: checklistAddSchema,
      schema: AddArgs,
      title: (args) => `${prefix}_add ${args.content}`,
      run(args) {
        const item = list.add(args.content, readStatus(args.status) ?? "pending");
        return { output: `Added todo #${item.id} (${item.status})\n${list.snapshot()}`, plan: list.plan() };
      },
    }),
    checklistTool({
      name: `${prefix}_list`,
      description: d.list,
      parameters: checklistListSchema,
      schema: ListArgs,
      title: () => `${prefix}_list`,
      run: () => ({
        output: `Todo list (${list.size} items, ${list.percent()}% complete)\n${list.snapshot()}`,
      }),
    }),
    checklistTool({
      name: `${prefix}_update`,
      description: d.update,
      parameters: checklistUpdateSchema,
      schema: UpdateArgs,
      title: (args) => `${prefix}_update #${args.id}`,
      run(args) {
        const status = readStatus(args.status);
        if (!status) return invalidInput(`${prefix}_update`, "Missing or invalid 'status'");
        const item = list.update(args.id, status);
        if (!item) return { output: `Todo id ${args.id} not found`, isError: true };
        return {
          output: `Updated todo #${item.id} to ${item.status}\n${list.snapshot()}`,
          plan: list.plan(),
        };
      },
    }),
    checklistTool({
      name: `${prefix}_write`,
      description: d.write,
      parameters: checklistWriteSchema,
      schema: WriteArgs,
      title: (args) => `${prefix}_write (${args.todos.length} items)`,
      run(args) {
        list.clear();
        for (const todo of args.todos) list.add(todo.content, readStatus(todo.status) ?? "pending");
        return {
          output: `Todo list updated (${list.size} items, ${list.percent()}% complete)\n${list.snapshot()}`,
          plan: list.plan(),
        };
      },
    }),
  ] as Tool[];
}
