import { z } from "zod";
import type { PlanEntry } from "../../../store/events.js";
import type { Tool } from "../../../tools/types.js";
import { todoListSchema } from "../tool-schemas.js";
import description from "./todo-list.md";

const Todo = z.object({ title: z.string().min(1), status: z.enum(["pending", "in_progress", "done"]) });
type Todo = z.infer<typeof Todo>;
const Args = z.object({ todos: z.array(Todo).optional() });
type Args = z.infer<typeof Args>;

/** Appended to every update, like upstream's `todo-list-write-reminder.md` (our wording). */
export const TODO_WRITE_REMINDER =
  "Keep using the todo list to track your progress: mark items done as soon as they are finished, and keep exactly one item in_progress while work is underway.";

/**
 * Kimi Code `TodoList` (kimi-code `agent/tools/todo-list/todoListTool.ts`, `session/todo/
 * todoItem.ts`): omit `todos` to query, `[]` to clear, otherwise the whole list is replaced.
 * The list lives in this closure, one per session; every change becomes the editor's plan.
 */
export function todoListTool(): Tool<Args> {
  let todos: Todo[] = [];
  return {
    name: "TodoList",
    description,
    kind: "think",
    capability: "plan",
    parameters: todoListSchema,
    schema: Args,
    preview: async (args) => ({
      title:
        args.todos === undefined
          ? "Reading todo list"
          : args.todos.length === 0
            ? "Clearing todo list"
            : "Updating todo list",
    }),
    access: () => ({ type: "none" }),
    async execute(args) {
      if (args.todos === undefined) return { output: renderTodoList(todos) };
      todos = args.todos.map(({ title, status }) => ({ title, status }));
      const plan = todos.map(planEntry);
      if (todos.length === 0) return { output: "Todo list cleared.", plan };
      return { output: `Todo list updated.\n${renderTodoList(todos)}\n\n${TODO_WRITE_REMINDER}`, plan };
    },
  };
}

export function renderTodoList(todos: Todo[]): string {
  if (todos.length === 0) return "Todo list is empty.";
  return ["Current todo list:", ...todos.map((todo) => `  [${todo.status}] ${todo.title}`)].join("\n");
}

function planEntry(todo: Todo): PlanEntry {
  return {
    content: todo.title,
    status: todo.status === "done" ? "completed" : todo.status,
    priority: "medium",
  };
}
