import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { readSessionContextSchema } from "../interaction-schemas.js";
import description from "./read-session-context.md";

/** Upstream Open Interpreter 0.0.40's whole answer (its executor is a stub). */
export const SESSION_CONTEXT_UNAVAILABLE = "ReadSessionContext is unavailable for this provider transport";

const Args = z.looseObject({ sessionId: z.string(), query: z.string() });
type Args = z.infer<typeof Args>;

/**
 * ZCode `ReadSessionContext`, sent as ZCode sends it and answered as upstream Open Interpreter
 * 0.0.40 answers every call: unavailable. Reading another saved session needs the session store,
 * which tools do not reach (docs/harnesses.md).
 */
export function readSessionContextTool(): Tool<Args> {
  return {
    name: "ReadSessionContext",
    description,
    kind: "read",
    capability: "other",
    parameters: readSessionContextSchema,
    schema: Args,
    preview: async (args) => ({ title: `Read session ${args.sessionId}` }),
    access: () => ({ type: "none" }),
    execute: async () => ({ output: SESSION_CONTEXT_UNAVAILABLE, isError: true }),
  };
}
