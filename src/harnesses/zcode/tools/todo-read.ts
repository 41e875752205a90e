import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { todoReadSchema } from "../tool-schemas.js";
import type { ZCodeState } from "../zcode-state.js";
import description from "./todo-read.md";

const Args = z.object({});
type Args = z.infer<typeof Args>;

/** ZCode `TodoRead` as upstream Open Interpreter 0.0.40 answers it: `{"todos":[…]}`. */
export function todoReadTool(options: { state: ZCodeState }): Tool<Args> {
  return {
    name: "TodoRead",
    description,
    kind: "think",
    capability: "other",
    parameters: todoReadSchema,
    schema: Args,
    preview: async () => ({ title: "Read TODOs" }),
    access: () => ({ type: "none" }),
    execute: async () => ({ output: JSON.stringify({ todos: options.state.todos }) }),
  };
}
