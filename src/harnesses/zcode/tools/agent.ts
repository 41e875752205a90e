import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { agentSchema } from "../interaction-schemas.js";
import { agentResult, isZCodeSubagent, ZCODE_SUBAGENTS } from "../zcode-subagents.js";
import description from "./agent.md";

const Args = z.looseObject({
  description: z.string(),
  prompt: z.string(),
  subagent_type: z.string().nullish(),
  model: z.enum(["sonnet", "opus", "haiku"]).nullish(),
  run_in_background: z.boolean().nullish(),
});
type Args = z.infer<typeof Args>;

/**
 * ZCode `Agent`: runs one of its agent types as a child session and answers as upstream Open
 * Interpreter 0.0.40 does (zcode-subagents.ts). Without `subagent_type` the general-purpose agent
 * runs, as the description says (upstream's executor starts Explore). Every agent runs in the
 * foreground on the session's model, as the description says of `run_in_background`.
 */
export function agentTool(): Tool<Args> {
  const list = ZCODE_SUBAGENTS.map((a) => `- ${a.type}: ${a.whenToUse} (Tools: ${a.tools})`);
  return {
    name: "Agent",
    description: description.replace("{{agents}}", list.join("\n")),
    kind: "other",
    capability: "other",
    parameters: agentSchema,
    schema: Args,
    preview: async (args) => ({ title: `${args.subagent_type || "general-purpose"}: ${args.description}` }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      if (!ctx.subagents) return { output: "Subagents are not available here.", isError: true };
      const type = args.subagent_type?.trim() || "general-purpose";
      if (!isZCodeSubagent(type))
        return {
          output: `Unknown agent type: ${type}. Available: ${ZCODE_SUBAGENTS.map((a) => a.type).join(", ")}`,
          isError: true,
        };
      const outcome = await ctx.subagents.run(
        {
          type,
          description: args.description,
          prompt: args.prompt,
          callId: ctx.callId ?? "",
          onActivity: (text) => ctx.onProgress(text),
        },
        ctx.signal,
      );
      return agentResult(outcome);
    },
  };
}
