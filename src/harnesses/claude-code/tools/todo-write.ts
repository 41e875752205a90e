import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { todoWriteSchema } from "../../shared/claude-code-core/tool-schemas.js";
import description from "./todo-write.md";

/** What Claude Code's TodoWrite returns to the model on success. */
export const TODOS_UPDATED =
  "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable";

const Args = z.looseObject({
  todos: z.array(
    z.looseObject({
      content: z.string().min(1),
      status: z.enum(["pending", "in_progress", "completed"]),
      activeForm: z.string().min(1),
    }),
  ),
});
type Args = z.infer<typeof Args>;

/** Claude Code `TodoWrite`: replaces the whole list; the editor shows it as the session plan. */
export function todoWriteTool(): Tool<Args> {
  return {
    name: "TodoWrite",
    description,
    kind: "think",
    capability: "plan",
    parameters: todoWriteSchema,
    schema: Args,
    preview: async (args) => ({
      title:
        args.todos.length > 0
          ? `Update TODOs: ${args.todos.map((t) => t.content).join(", ")}`
          : "Update TODOs",
    }),
    access: () => ({ type: "none" }),
    async execute(args) {
      return {
        output: TODOS_UPDATED,
        plan: args.todos.map((todo) => ({
          content: todo.content,
          status: todo.status,
          priority: "medium" as const,
        })),
      };
    },
  };
}
