import { z } from "zod";
import type { PlanEntry } from "../../../store/events.js";
import type { Tool } from "../../../tools/types.js";
import { todowriteSchema } from "../tool-schemas.js";
import description from "./todowrite.md";

const Todo = z.looseObject({ content: z.string(), status: z.string(), priority: z.string() });
const Args = z.looseObject({ todos: z.array(Todo) });
type Args = z.infer<typeof Args>;

const STATUSES = new Set(["pending", "in_progress", "completed"]);
const PRIORITIES = new Set(["high", "medium", "low"]);

/**
 * opencode `todowrite` (1.18.33 `tool/todo.ts`): replaces the session's list and answers with it
 * as indented JSON; the editor is shown it as the plan (cancelled items left out).
 */
export function todowriteTool(): Tool<Args> {
  return {
    name: "todowrite",
    description: description.trimEnd(),
    kind: "think",
    capability: "plan",
    parameters: todowriteSchema,
    schema: Args,
    preview: async (args) => ({
      title: `${args.todos.filter((todo) => todo.status !== "completed").length} todos`,
    }),
    access: () => ({ type: "none" }),
    async execute(args) {
      const plan: PlanEntry[] = args.todos
        .filter((todo) => STATUSES.has(todo.status))
        .map((todo) => ({
          content: todo.content,
          status: todo.status as PlanEntry["status"],
          priority: (PRIORITIES.has(todo.priority) ? todo.priority : "medium") as PlanEntry["priority"],
        }));
      return { output: JSON.stringify(args.todos, null, 2), plan };
    },
  };
}
