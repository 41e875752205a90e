import { z } from "zod";
import type { PlanEntry } from "../../../store/events.js";
import type { Tool } from "../../../tools/types.js";
import description from "../descriptions/write-todos.md";
import { TODO_STATUSES, writeTodosSchema } from "../tool-schemas.js";

const Args = z.looseObject({
  todos: z.array(z.object({ description: z.string(), status: z.enum(TODO_STATUSES) })),
});
type Args = z.infer<typeof Args>;

/**
 * Gemini CLI `write_todos` (`packages/core/src/tools/write-todos.ts`): replaces the whole list,
 * at most one `in_progress`, and echoes the list back numbered. The editor gets it as a plan;
 * `cancelled` and `blocked`, which ACP plans lack, are shown in the entry's text.
 */
export function writeTodosTool(): Tool<Args> {
  return {
    name: "write_todos",
    description: description.trimEnd(),
    kind: "think",
    capability: "plan",
    parameters: writeTodosSchema(),
    schema: Args,
    preview: async (args) => ({
      title: args.todos.length === 0 ? "Cleared todo list" : `Set ${args.todos.length} todo(s)`,
    }),
    access: () => ({ type: "none" }),
    async execute(args) {
      if (args.todos.some((todo) => !todo.description.trim())) {
        return { output: "Each todo must have a non-empty description string", isError: true };
      }
      if (args.todos.filter((todo) => todo.status === "in_progress").length > 1) {
        return { output: 'Invalid parameters: Only one task can be "in_progress" at a time.', isError: true };
      }
      const list = args.todos.map((todo, i) => `${i + 1}. [${todo.status}] ${todo.description}`).join("\n");
      return {
        output:
          args.todos.length > 0
            ? `Successfully updated the todo list. The current list is now:\n${list}`
            : "Successfully cleared the todo list.",
        plan: args.todos.map(planEntry),
      };
    },
  };
}

function planEntry(todo: Args["todos"][number]): PlanEntry {
  if (todo.status === "cancelled")
    return { content: `${todo.description} (cancelled)`, status: "completed", priority: "medium" };
  if (todo.status === "blocked")
    return { content: `${todo.description} (blocked)`, status: "pending", priority: "medium" };
  return { content: todo.description, status: todo.status, priority: "medium" };
}
