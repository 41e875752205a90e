import { z } from "zod";
import type { SubagentOutcome } from "../../../tools/agents/types.js";
import type { Tool, ToolResult } from "../../../tools/types.js";
import { builtinAgentTypes, kimiCliSubagent } from "../kimi-subagents.js";
import { kimiError, kimiResult } from "../result-builder.js";
import { fillSlots } from "../slots.js";
import { agentSchema } from "../tool-schemas.js";
import description from "./agent.md";

const Args = z.object({
  description: z.string(),
  prompt: z.string(),
  subagent_type: z.string().default("coder"),
  model: z.string().nullable().optional(),
  resume: z.string().nullable().optional(),
  run_in_background: z.boolean().default(false),
  timeout: z.number().int().min(30).max(3600).nullable().optional(),
});
type Args = z.infer<typeof Args>;

/**
 * Kimi CLI 1.49.0 `Agent` (`tools/agent/__init__.py`, `subagents/runner.py`): runs a `coder`,
 * `explore` or `plan` subagent as a child session (its `ROLE_ADDITIONAL` and tool list) and
 * answers with 1.49.0's block: `agent_id`, `resumed`, `actual_subagent_type`, `status: completed`,
 * `[summary]` and the final text. `resume` continues an earlier child with `prompt`. The agent
 * id is the child session's; a background run is run in the foreground; no model aliases exist
 * here, so `model` is refused as 1.49.0 refuses an unknown alias.
 */
export function agentTool(): Tool<Args> {
  return {
    name: "Agent",
    description: fillSlots(description, { BUILTIN_AGENT_TYPES_MD: builtinAgentTypes() }),
    kind: "other",
    capability: "other",
    parameters: agentSchema,
    schema: Args,
    preview: async (args) => ({ title: `${args.subagent_type} agent: ${args.description}` }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      if (!ctx.subagents) return kimiError("Subagents cannot launch other subagents.");
      if (args.model != null) return kimiError(`Unknown model alias: ${args.model}`);
      const resume = args.resume?.trim();
      const resumed = resume
        ? ctx.subagents.children().find((child) => child.sessionId === resume)
        : undefined;
      if (resume && !resumed) return kimiError(`Subagent instance not found: ${resume}`);
      const type = resumed?.type ?? args.subagent_type;
      if (!kimiCliSubagent(type)) return kimiError(`Builtin subagent type not found: ${type}`);
      const timeout = new AbortController();
      const timer = args.timeout ? setTimeout(() => timeout.abort(), args.timeout * 1000) : undefined;
      const outcome = await ctx.subagents
        .run(
          {
            type,
            ...(resumed ? { resume: resumed.sessionId } : {}),
            description: args.description,
            prompt: args.prompt,
            callId: ctx.callId ?? "",
            onActivity: (text) => ctx.onProgress(text),
          },
          AbortSignal.any([ctx.signal, timeout.signal]),
        )
        .finally(() => clearTimeout(timer));
      if (outcome.status === "cancelled" && timeout.signal.aborted && !ctx.signal.aborted)
        return kimiError(`Agent timed out after ${args.timeout}s.`);
      return agentResult(outcome, { type, resumed: resumed !== undefined, requested: args.subagent_type });
    },
  };
}

function agentResult(
  outcome: SubagentOutcome,
  o: { type: string; resumed: boolean; requested: string },
): ToolResult {
  if (outcome.status === "refused") return kimiError(outcome.message);
  if (outcome.status === "cancelled") return kimiError("Subagent run was cancelled.");
  if (outcome.status === "failed") return kimiError(`Failed to run agent: ${outcome.error}`);
  if (!outcome.text) return kimiError("Agent completed but produced no output.");
  const lines = [`agent_id: ${outcome.sessionId}`, `resumed: ${o.resumed}`];
  if (o.resumed && o.requested !== o.type) lines.push(`requested_subagent_type: ${o.requested}`);
  lines.push(`actual_subagent_type: ${o.type}`, "status: completed", "", "[summary]", outcome.text);
  return kimiResult({ output: lines.join("\n") });
}
