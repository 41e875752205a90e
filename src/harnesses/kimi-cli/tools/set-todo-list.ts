import { z } from "zod";
import type { PlanEntry } from "../../../store/events.js";
import type { Tool } from "../../../tools/types.js";
import { kimiResult } from "../result-builder.js";
import { setTodoListSchema } from "../tool-schemas.js";
import description from "./set-todo-list.md";

const Todo = z.object({ title: z.string().min(1), status: z.enum(["pending", "in_progress", "done"]) });
type Todo = z.infer<typeof Todo>;
const Args = z.object({ todos: z.array(Todo).nullable().optional() });
type Args = z.infer<typeof Args>;

/**
 * Kimi CLI 1.49.0 `SetTodoList` (`tools/todo/__init__.py`): leave `todos` out to read the list,
 * `[]` clears it, anything else replaces it whole. The list lives in this closure, one per
 * session (1.49.0 keeps it in the session's state file); every change becomes the editor's plan.
 */
export function setTodoListTool(): Tool<Args> {
  let todos: Todo[] = [];
  return {
    name: "SetTodoList",
    description,
    kind: "think",
    capability: "plan",
    parameters: setTodoListSchema,
    schema: Args,
    preview: async (args) => ({ title: args.todos == null ? "Reading todo list" : "Updating todo list" }),
    access: () => ({ type: "none" }),
    async execute(args) {
      if (args.todos == null) {
        if (todos.length === 0) return kimiResult({ output: "Todo list is empty." });
        return kimiResult({
          output: ["Current todo list:", ...todos.map((todo) => `- [${todo.status}] ${todo.title}`)].join(
            "\n",
          ),
        });
      }
      todos = args.todos.map(({ title, status }) => ({ title, status }));
      // The one result 1.49.0 gives without the builder: no closing period on the message.
      return {
        ...kimiResult({ message: "Todo list updated", output: "Todo list updated" }),
        plan: todos.map(planEntry),
      };
    },
  };
}

function planEntry(todo: Todo): PlanEntry {
  return {
    content: todo.title,
    status: todo.status === "done" ? "completed" : todo.status,
    priority: "medium",
  };
}
