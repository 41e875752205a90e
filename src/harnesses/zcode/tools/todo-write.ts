import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { todoWriteSchema } from "../tool-schemas.js";
import type { ZCodeState, ZCodeTodo } from "../zcode-state.js";
import description from "./todo-write.md";

const Args = z.object({
  todos: z.array(
    z.object({
      content: z.string().min(1),
      status: z.enum(["pending", "in_progress", "completed"]),
      priority: z.enum(["high", "medium", "low"]),
    }),
  ),
});
type Args = z.infer<typeof Args>;

/**
 * ZCode `TodoWrite` as upstream Open Interpreter 0.0.40 answers it: JSON with the list before
 * (`oldTodos`), the new one and a `summary` of counts; the editor shows the list as the plan.
 */
export function todoWriteTool(options: { state: ZCodeState }): Tool<Args> {
  return {
    name: "TodoWrite",
    description,
    kind: "think",
    capability: "plan",
    parameters: todoWriteSchema,
    schema: Args,
    preview: async (args) => ({ title: `Update TODOs: ${args.todos.map((t) => t.content).join(", ")}` }),
    access: () => ({ type: "none" }),
    async execute(args) {
      const oldTodos = options.state.todos;
      const todos: ZCodeTodo[] = args.todos.map((t) => ({
        content: t.content,
        status: t.status,
        priority: t.priority,
      }));
      options.state.todos = todos;
      const count = (status: string) => todos.filter((t) => t.status === status).length;
      const summary = {
        total: todos.length,
        pending: count("pending"),
        inProgress: count("in_progress"),
        completed: count("completed"),
      };
      return {
        output: JSON.stringify({ oldTodos, todos, summary }),
        plan: args.todos.map((t) => ({ content: t.content, status: t.status, priority: t.priority })),
      };
    },
  };
}
