import { z } from "zod";
import type { Tool, ToolResult } from "../../../tools/types.js";
import { invalidInput } from "../tool-result.js";
import {
  checklistAddSchema,
  checklistListSchema,
  checklistUpdateSchema,
  checklistWriteSchema,
} from "../tool-schemas.js";
import addDescription from "./checklist-add.md";
import listDescription from "./checklist-list.md";
import { type Checklist, readStatus } from "./checklist-state.js";
import updateDescription from "./checklist-update.md";
import writeDescription from "./checklist-write.md";

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
 * each answers with a line and the list's snapshot.
 */
export function checklistTools(list: Checklist): Tool[] {
  return [
    checklistTool({
      name: "checklist_add",
      description: addDescription,
      parameters: checklistAddSchema,
      schema: AddArgs,
      title: (args) => `checklist_add ${args.content}`,
      run(args) {
        const item = list.add(args.content, readStatus(args.status) ?? "pending");
        return { output: `Added todo #${item.id} (${item.status})\n${list.snapshot()}`, plan: list.plan() };
      },
    }),
    checklistTool({
      name: "checklist_list",
      description: listDescription,
      parameters: checklistListSchema,
      schema: ListArgs,
      title: () => "checklist_list",
      run: () => ({
        output: `Todo list (${list.size} items, ${list.percent()}% complete)\n${list.snapshot()}`,
      }),
    }),
    checklistTool({
      name: "checklist_update",
      description: updateDescription,
      parameters: checklistUpdateSchema,
      schema: UpdateArgs,
      title: (args) => `checklist_update #${args.id}`,
      run(args) {
        const status = readStatus(args.status);
        if (!status) return invalidInput("checklist_update", "Missing or invalid 'status'");
        const item = list.update(args.id, status);
        if (!item) return { output: `Todo id ${args.id} not found`, isError: true };
        return {
          output: `Updated todo #${item.id} to ${item.status}\n${list.snapshot()}`,
          plan: list.plan(),
        };
      },
    }),
    checklistTool({
      name: "checklist_write",
      description: writeDescription,
      parameters: checklistWriteSchema,
      schema: WriteArgs,
      title: (args) => `checklist_write (${args.todos.length} items)`,
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
