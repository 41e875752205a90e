import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import description from "../descriptions/todo-write.md";
import { todoWriteSchema } from "../tool-schemas.js";
import { failure } from "./qwen-paths.js";

const Todo = z.looseObject({
  content: z.string(),
  status: z.enum(["pending", "in_progress", "completed"]),
  id: z.string(),
});
const Args = z.looseObject({ todos: z.array(Todo) });
type Args = z.infer<typeof Args>;

/**
 * Qwen Code `todo_write` (QwenLM/qwen-code `packages/core/src/tools/todoWrite.ts`): replaces the
 * list and answers with Qwen's confirmation plus a `<system-reminder>` holding the list as JSON.
 */
export function todoWriteTool(): Tool<Args> {
  return {
    name: "todo_write",
    description: description.trimEnd(),
    kind: "think",
    capability: "plan",
    parameters: todoWriteSchema(),
    schema: Args,
    preview: async () => ({ title: "Update todos" }),
    access: () => ({ type: "none" }),
    async execute(args) {
      const invalid = validate(args.todos);
      if (invalid) return failure(invalid);
      const plan = args.todos.map((todo) => ({
        content: todo.content,
        status: todo.status,
        priority: "medium" as const,
      }));
      if (args.todos.length === 0) {
        return {
          output:
            "Todo list has been cleared.\n\n<system-reminder>\nYour todo list is now empty. DO NOT mention this explicitly to the user. You have no pending tasks in your todo list.\n</system-reminder>",
          plan,
        };
      }
      return {
        output: `Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable\n\n<system-reminder>\nYour todo list has changed. DO NOT mention this explicitly to the user. Here are the latest contents of your todo list:\n\n${JSON.stringify(args.todos)}. Continue on with the tasks at hand if applicable.\n</system-reminder>`,
        plan,
      };
    },
  };
}

function validate(todos: Args["todos"]): string | undefined {
  for (const todo of todos) {
    if (!todo.id.trim()) return 'Each todo must have a non-empty "id" string.';
    if (!todo.content.trim()) return 'Each todo must have a non-empty "content" string.';
  }
  if (new Set(todos.map((todo) => todo.id)).size !== todos.length)
    return "Todo IDs must be unique within the array.";
  return undefined;
}
