import { z } from "zod";
import type { SubagentInfo, SubagentOutcome } from "../../../tools/agents/types.js";
import type { Tool, ToolResult } from "../../../tools/types.js";
import { toolUseError } from "../../shared/claude-code-core/format.js";
import { CLAUDE_SUBAGENTS, claudeSubagent, claudeSubagentNames } from "../claude-subagents.js";
import description from "./task.md";

const SCHEMA = "https://json-schema.org/draft/2020-12/schema";

/** 2.1.44's `Task` input schema, in its key order (descriptions in our words). */
const taskSchema = {
  $schema: SCHEMA,
  type: "object",
  properties: {
    description: { description: "A short (3-5 word) description of the task", type: "string" },
    prompt: { description: "The task for the agent to do", type: "string" },
    subagent_type: { description: "Which kind of specialized agent to use for this task", type: "string" },
    model: {
      description:
        "An optional model for this agent. Without it, the agent inherits its parent's model. Prefer haiku for quick, simple tasks to keep cost and latency down.",
      type: "string",
      enum: ["sonnet", "opus", "haiku"],
    },
    resume: {
      description:
        "An optional agent ID to resume from. The agent then continues with its earlier transcript as context.",
      type: "string",
    },
    run_in_background: {
      description:
        "Set to true to run this agent in the background. The tool result then holds an output_file path; read it to check on the agent.",
      type: "boolean",
    },
    max_turns: {
      description: "Most agentic turns (API round-trips) before the agent stops. Used internally for warmup.",
      type: "integer",
      exclusiveMinimum: 0,
      maximum: 9007199254740991,
    },
  },
  required: ["description", "prompt", "subagent_type"],
  additionalProperties: false,
};

const Args = z.object({
  description: z.string(),
  prompt: z.string(),
  subagent_type: z.string(),
  model: z.enum(["sonnet", "opus", "haiku"]).optional(),
  resume: z.string().optional(),
  run_in_background: z.boolean().optional(),
  max_turns: z.number().int().positive().optional(),
});
type Args = z.infer<typeof Args>;

/**
 * Claude Code 2.1.44 `Task`: runs a subagent of one of its built-in types as a child session and
 * answers as 2.1.44 does, the agent's final text and then the block with the agent id (`a` and
 * six hex digits, the child session id's first ones) and the `<usage>` lines. `resume` with such
 * an id continues that subagent (its type and transcript kept) with `prompt`. The subagent runs
 * on the session's model and in the foreground whatever `model` and `run_in_background` say.
 */
export function taskTool(): Tool<Args> {
  const list = CLAUDE_SUBAGENTS.map((a) => `- ${a.type}: ${a.whenToUse} (Tools: ${toolsLine(a.type)})`);
  return {
    name: "Task",
    description: description.replace("{{agents}}", list.join("\n")),
    kind: "other",
    capability: "other",
    parameters: taskSchema,
    schema: Args,
    preview: async (args) => ({ title: `${args.subagent_type}: ${args.description}` }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      if (!ctx.subagents) return { output: toolUseError("Subagents are not available here."), isError: true };
      const resumed =
        args.resume === undefined ? undefined : findAgent(ctx.subagents.children(), args.resume);
      if (args.resume !== undefined && !resumed) {
        return { output: toolUseError(`No agent found with ID: ${args.resume}`), isError: true };
      }
      if (!resumed && !claudeSubagent(args.subagent_type)) {
        return {
          output: toolUseError(
            `Agent type '${args.subagent_type}' not found. Available agents: ${claudeSubagentNames()}`,
          ),
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

function toolsLine(type: string): string {
  return type === "general-purpose" ? "*" : "All tools except Task, ExitPlanMode, Edit, Write, NotebookEdit";
}

/** 2.1.44's answer: the agent's text, then its id and usage as a second text block. */
export function taskResult(outcome: SubagentOutcome): ToolResult {
  switch (outcome.status) {
    case "refused":
      return { output: toolUseError(outcome.message), isError: true };
    case "cancelled":
      return { output: "[Request interrupted by user for tool use]", isError: true };
    case "failed":
      return { output: toolUseError(`Agent failed: ${outcome.error}`), isError: true };
    case "completed": {
      const { usage } = outcome;
      const footer = `agentId: ${agentId(outcome.sessionId)} (for resuming to continue this agent's work if needed)\n<usage>total_tokens: ${usage.totalTokens}\ntool_uses: ${usage.toolUses}\nduration_ms: ${usage.durationMs}</usage>`;
      const text = outcome.text || "(no content)";
      return {
        output: `${text}\n${footer}`,
        parts: [
          { type: "text", text },
          { type: "text", text: footer },
        ],
      };
    }
  }
}

/** 2.1.44's agent ids are `a` and six hex digits; ours are the child session's first ones. */
function agentId(sessionId: string): string {
  return `a${sessionId.replace(/-/g, "").slice(0, 6)}`;
}

/** The newest of this session's subagents with that agent id. */
function findAgent(children: SubagentInfo[], id: string): SubagentInfo | undefined {
  return children.findLast((child) => agentId(child.sessionId) === id.trim());
}
