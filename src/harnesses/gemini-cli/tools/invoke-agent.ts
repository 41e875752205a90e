import { z } from "zod";
import type { SubagentOutcome } from "../../../tools/agents/types.js";
import type { Tool, ToolResult } from "../../../tools/types.js";
import { geminiSubagent } from "../gemini-subagents.js";
import { invokeAgentSchema } from "../tool-schemas.js";

const Args = z.looseObject({
  agent_name: z.string(),
  prompt: z.string(),
  wait_for_previous: z.boolean().optional(),
});
type Args = z.infer<typeof Args>;

/**
 * Gemini CLI 0.61 `invoke_agent`: runs one of its local subagents as a child session and answers
 * with 0.61's text (`Subagent '<name>' finished.`, the termination reason, the result). 0.61's
 * subagent hands its result over with a `complete_task` call; ours answers in its final message,
 * which is taken as the result with the reason GOAL.
 */
export function invokeAgentTool(): Tool<Args> {
  return {
    name: "invoke_agent",
    description: "Hand a task or an investigation to a subagent.",
    kind: "other",
    capability: "other",
    parameters: invokeAgentSchema(),
    schema: Args,
    preview: async (args) => ({ title: `Delegating to agent '${args.agent_name}'` }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      if (!geminiSubagent(args.agent_name)) {
        return { output: `Subagent '${args.agent_name}' not found.`, isError: true };
      }
      if (!ctx.subagents) return { output: "Subagents are not available here.", isError: true };
      const outcome = await ctx.subagents.run(
        {
          type: args.agent_name,
          description: args.agent_name,
          prompt: args.prompt,
          callId: ctx.callId ?? "",
          onActivity: (text) => ctx.onProgress(text),
        },
        ctx.signal,
      );
      return invokeResult(outcome, args.agent_name);
    },
  };
}

function invokeResult(outcome: SubagentOutcome, name: string): ToolResult {
  switch (outcome.status) {
    case "completed":
      return { output: `Subagent '${name}' finished.\nTermination Reason: GOAL\nResult:\n${outcome.text}` };
    case "cancelled":
      return { output: "Operation cancelled by user", isError: true };
    case "failed":
      return { output: `Subagent '${name}' failed. Error: ${outcome.error}` };
    case "refused":
      return { output: `Subagent '${name}' failed. Error: ${outcome.message}` };
  }
}
