import { z } from "zod";
import type { SubagentOutcome } from "../../../tools/agents/types.js";
import type { Tool, ToolResult } from "../../../tools/types.js";
import description from "../descriptions/agent.md";
import { DEFAULT_QWEN_SUBAGENT, QWEN_SUBAGENTS, qwenSubagent } from "../qwen-subagents.js";

/** Qwen Code 0.24.4's `agent` parameters, in its key order (descriptions in our words). */
const agentSchema = {
  type: "object",
  properties: {
    description: { type: "string", description: "A short (3-5 word) description of the task" },
    prompt: { type: "string", description: "The task for the agent to do" },
    subagent_type: { type: "string", description: "Which kind of subagent to use for this task" },
    fork_turns: {
      oneOf: [
        { type: "string", enum: ["all"] },
        { type: "string", pattern: "^[1-9][0-9]*$" },
      ],
      description:
        'Without subagent_type: how much of this conversation a forked agent starts with, "all" or a number of recent turns.',
    },
    fork_tools: {
      type: "array",
      items: { type: "string", minLength: 1 },
      description: "Without subagent_type: the tools a forked agent may use.",
    },
    fork_profile: {
      type: "string",
      minLength: 2,
      maxLength: 50,
      description: "Without subagent_type: a short name for the forked agent's role.",
    },
    run_in_background: {
      type: "boolean",
      default: true,
      description:
        "Whether the agent runs in the background while you go on; you are told when it finishes. Set false to wait for its answer.",
    },
    isolation: {
      type: "string",
      enum: ["worktree"],
      description:
        '"worktree" runs the agent in a temporary git worktree, kept only when it changed something.',
    },
    working_dir: {
      type: "string",
      description: "A folder inside the workspace for the agent to work in, instead of the current one.",
    },
  },
  required: ["description", "prompt"],
};

const Args = z.looseObject({
  description: z.string(),
  prompt: z.string(),
  subagent_type: z.string().optional(),
  run_in_background: z.boolean().optional(),
});
type Args = z.infer<typeof Args>;

/**
 * Qwen Code 0.24.4 `agent`: runs a `general-purpose` or `Explore` subagent as a child session and
 * answers as 0.24.4's foreground path does (the agent's final text, its `<analysis>` dropped and
 * a wrapping `<summary>` unwrapped). Every call runs in the foreground, whatever
 * `run_in_background` says; without `subagent_type` the default type runs (no fork of this
 * conversation); `isolation` and `working_dir` are not applied.
 */
export function agentTool(): Tool<Args> {
  return {
    name: "agent",
    description: description
      .trimEnd()
      .replace("{{agents}}", QWEN_SUBAGENTS.map((a) => `- ${a.type}`).join("\n")),
    kind: "other",
    capability: "other",
    parameters: agentSchema,
    schema: Args,
    preview: async (args) => ({
      title: `${args.subagent_type ?? DEFAULT_QWEN_SUBAGENT}: ${args.description}`,
    }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      const agent = qwenSubagent(args.subagent_type ?? DEFAULT_QWEN_SUBAGENT);
      if (!agent) {
        const names = QWEN_SUBAGENTS.map((a) => a.type).join(", ");
        return {
          output: `Subagent "${args.subagent_type}" not found. Available subagents: ${names}`,
          isError: true,
        };
      }
      if (!ctx.subagents) return { output: "Subagent execution failed.", isError: true };
      const outcome = await ctx.subagents.run(
        {
          type: agent.type,
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

function agentResult(outcome: SubagentOutcome): ToolResult {
  switch (outcome.status) {
    case "completed":
      return { output: modelVisible(outcome.text) };
    case "cancelled":
      return {
        output: "Agent was cancelled by the user. Partial result follows:\n\n(no partial result captured)",
      };
    case "failed":
      return { output: outcome.error || "Subagent execution failed." };
    case "refused":
      return { output: outcome.message, isError: true };
  }
}

/** 0.24.4 keeps a subagent's `<analysis>` scratchpad out of the parent and unwraps its `<summary>`. */
function modelVisible(text: string): string {
  const strip = (t: string) => t.replace(/<\/?summary\b[^>]*>/gi, " ").replace(/ {2,}/g, " ");
  const trimmed = text
    .replace(/<analysis\b[^>]*>[\s\S]*?<\/analysis>/gi, "")
    .replace(/<analysis\b[^>]*>[\s\S]*?(?=<summary\b[^>]*>|$)/gi, "")
    .trim();
  const open = trimmed.match(/^<summary\b[^>]*>/i);
  if (open && trimmed.toLowerCase().endsWith("</summary>")) {
    return strip(trimmed.slice(open[0].length, -"</summary>".length)).trim();
  }
  return strip(trimmed).trim();
}
