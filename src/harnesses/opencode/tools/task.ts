import { z } from "zod";
import type { SubagentOutcome } from "../../../tools/agents/types.js";
import type { Tool, ToolResult } from "../../../tools/types.js";
import { OPENCODE_SUBAGENTS, opencodeSubagent } from "../opencode-subagents.js";
import { taskSchema } from "../tool-schemas.js";
import description from "./task.md";

const Args = z.looseObject({
  description: z.string(),
  prompt: z.string(),
  subagent_type: z.string(),
  task_id: z.string().optional(),
  command: z.string().optional(),
});
type Args = z.infer<typeof Args>;

/**
 * opencode 1.18.33 `task` (`tool/task.ts`): runs one of its built-in subagents as a child session
 * and answers with the child's last text inside `<task id=… state="completed">` and
 * `<task_result>`; the task id is the child session's id, and `task_id` naming one of this
 * session's tasks continues it (any other id starts a new one, as 1.18.33's failed lookup does).
 * Failures are 1.18.33's error texts. Every task runs in the foreground.
 */
export function taskTool(): Tool<Args> {
  const agents = OPENCODE_SUBAGENTS.map((agent) => `- ${agent.type}: ${agent.whenToUse}`).join("\n");
  return {
    name: "task",
    description: description.replace("{{agents}}", agents).trimEnd(),
    kind: "other",
    capability: "other",
    parameters: taskSchema,
    schema: Args,
    preview: async (args) => ({ title: args.description }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      if (!ctx.subagents) return { output: "Subagents are not available here.", isError: true };
      const resumed = args.task_id
        ? ctx.subagents.children().findLast((child) => child.sessionId === args.task_id)
        : undefined;
      if (!resumed && !opencodeSubagent(args.subagent_type)) {
        return {
          output: `Unknown agent type: ${args.subagent_type} is not a valid agent type`,
          isError: true,
        };
      }
      const outcome = await ctx.subagents.run(
        {
          type: resumed?.type ?? args.subagent_type,
          ...(resumed ? { resume: resumed.sessionId } : {}),
          description: args.description,
          prompt: args.prompt,
          callId: ctx.callId ?? "",
          onActivity: (text) => ctx.onProgress(text),
        },
        ctx.signal,
      );
      return taskResult(outcome);
    },
  };
}

export function taskResult(outcome: SubagentOutcome): ToolResult {
  switch (outcome.status) {
    case "refused":
      return { output: outcome.message, isError: true };
    case "cancelled":
      return { output: "Task cancelled", isError: true };
    case "failed":
      return { output: `Subagent failed (task_id: ${outcome.sessionId}): ${outcome.error}`, isError: true };
    case "completed":
      return {
        output: [
          `<task id="${outcome.sessionId}" state="completed">`,
          "<task_result>",
          outcome.text,
          "</task_result>",
          "</task>",
        ].join("\n"),
      };
  }
}
