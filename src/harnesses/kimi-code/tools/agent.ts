import { z } from "zod";
import type { SubagentOutcome } from "../../../tools/agents/types.js";
import type { Tool, ToolResult } from "../../../tools/types.js";
import { DEFAULT_KIMI_SUBAGENT, kimiAgentTypes, kimiSubagent } from "../kimi-subagents.js";
import description from "./agent.md";

/** Kimi Code 2.1.0's `Agent` parameters, in its key order (descriptions in our words). */
const agentSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: {
    prompt: { type: "string", description: "The whole task for the subagent" },
    description: { type: "string", description: "A short (3-5 word) label of the task for the interface" },
    subagent_type: {
      description:
        'One of the agent types listed under "Available agent types" in this description; "coder" when left out.',
      type: "string",
    },
    resume: {
      description:
        "The id of an earlier subagent to continue instead of starting a new one. Leave subagent_type out when you set it: the resumed agent keeps its own type.",
      type: "string",
    },
    run_in_background: {
      description:
        "When true, return at once without waiting for the subagent. Prefer false unless the task can run on its own and there is a clear gain in not waiting.",
      type: "boolean",
    },
  },
  required: ["prompt", "description"],
  additionalProperties: false,
};

const Args = z.object({
  prompt: z.string(),
  description: z.string(),
  subagent_type: z.string().optional(),
  resume: z.string().optional(),
  run_in_background: z.boolean().optional(),
});
type Args = z.infer<typeof Args>;

/**
 * Kimi Code 2.1.0 `Agent`: runs a subagent of its `coder` or `explore` profile as a child session
 * and answers with 2.1.0's foreground block (`agent_id`, `actual_subagent_type`, `status`, then
 * `[summary]` and the child's final text). `resume` with an `agent_id` continues that subagent
 * (its profile and history kept) with `prompt`. The child always runs in the foreground.
 */
export function agentTool(): Tool<Args> {
  return {
    name: "Agent",
    description: `${description.trimEnd()}\n\nAvailable agent types (pass via subagent_type):\n${kimiAgentTypes()}`,
    kind: "other",
    capability: "other",
    parameters: agentSchema,
    schema: Args,
    preview: async (args) => ({
      title: `Launching ${args.subagent_type || DEFAULT_KIMI_SUBAGENT} agent: ${args.description}`,
    }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      const resume = args.resume?.trim();
      if (resume && args.subagent_type) {
        return {
          output: "Cannot set subagent_type when resuming an existing agent. Resume by agent id only.",
          isError: true,
        };
      }
      if (!ctx.subagents) return failure("subagents are not available here");
      const resumed = resume ? ctx.subagents.children().find((c) => c.sessionId === resume) : undefined;
      if (resume && !resumed) return failure(`Agent instance "${resume}" does not exist`);
      const type = resumed?.type ?? (args.subagent_type || DEFAULT_KIMI_SUBAGENT);
      if (!kimiSubagent(type)) return failure(`Unknown agent type: "${type}"`);
      const outcome = await ctx.subagents.run(
        {
          type,
          ...(resumed ? { resume: resumed.sessionId } : {}),
          description: args.description,
          prompt: args.prompt,
          callId: ctx.callId ?? "",
          onActivity: (text) => ctx.onProgress(text),
        },
        ctx.signal,
      );
      return agentResult(outcome, type);
    },
  };
}

const failure = (message: string): ToolResult => ({ output: `subagent error: ${message}`, isError: true });

/** 2.1.0's foreground answers: completed with the summary, or failed with the reason. */
export function agentResult(outcome: SubagentOutcome, type: string): ToolResult {
  if (outcome.status === "refused") return failure(outcome.message);
  const head = [`agent_id: ${outcome.sessionId}`, `actual_subagent_type: ${type}`];
  if (outcome.status === "completed") {
    return { output: [...head, "status: completed", "", "[summary]", outcome.text].join("\n") };
  }
  const message =
    outcome.status === "cancelled"
      ? "The subagent was stopped before it finished by user."
      : `The subagent was stopped before it finished. Reason: ${outcome.error}`;
  return { output: [...head, "status: failed", "", `subagent error: ${message}`].join("\n"), isError: true };
}
