import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { sendMessageSchema } from "../interaction-schemas.js";
import { agentResult, findAgent } from "../zcode-subagents.js";
import description from "./send-message.md";

const Args = z.object({
  to: z.string().min(1).max(200),
  summary: z.string().min(1).max(200),
  message: z.string().min(1).max(20_000),
});
type Args = z.infer<typeof Args>;

/**
 * ZCode `SendMessage`: continues an agent this session started (by the id its Agent result gave)
 * with `message` as its next prompt, and answers with its reply as Agent does. ZCode queues the
 * message for an agent still running; ours run in the foreground, so the agent is continued at
 * once and its reply comes back. (Upstream Open Interpreter 0.0.40 sends the schema and has no
 * executor for it.)
 */
export function sendMessageTool(): Tool<Args> {
  return {
    name: "SendMessage",
    description,
    kind: "other",
    capability: "other",
    parameters: sendMessageSchema,
    schema: Args,
    preview: async (args) => ({ title: `Message ${args.to}: ${args.summary}` }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      if (!ctx.subagents) return { output: "Subagents are not available here.", isError: true };
      const target = findAgent(ctx.subagents.children(), args.to);
      if (!target) return { output: `No local agent with id ${args.to}`, isError: true };
      const outcome = await ctx.subagents.run(
        {
          type: target.type,
          resume: target.sessionId,
          description: args.summary,
          prompt: args.message,
          callId: ctx.callId ?? "",
          onActivity: (text) => ctx.onProgress(text),
        },
        ctx.signal,
      );
      return agentResult(outcome);
    },
  };
}
