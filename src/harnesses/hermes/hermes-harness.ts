import { commandOf } from "../shared/adopt-call.js";
import { agentsMdBlock, environmentContext, skillsBlock } from "../shared/codex-core/context-blocks.js";
import { applyPatchSchema, shellCommandSchema, updatePlanSchema } from "../shared/codex-core/tool-schemas.js";
import { applyPatchTool } from "../shared/codex-core/tools/apply-patch.js";
import { shellCommandTool } from "../shared/codex-core/tools/shell-command.js";
import { updatePlanTool } from "../shared/codex-core/tools/update-plan.js";
import { renderTextMessages } from "../shared/text-messages.js";
import type { Harness, HarnessContext } from "../types.js";
import { hermesInfo } from "./hermes-info.js";
import { type ParameterSchemas, parseToolCalls } from "./parse-tool-calls.js";
import prompt from "./prompt.md";
import { toolCallText, toolsSection } from "./tools-section.js";

/** The schemas `parse` types Qwen3-Coder XML values with (the tools never change per session). */
const SCHEMAS: ParameterSchemas = {
  shell_command: shellCommandSchema,
  apply_patch: applyPatchSchema,
  update_plan: updatePlanSchema,
};

const NAMES = new Set(Object.keys(SCHEMAS));

export function hermesSystemPrompt(ctx: HarnessContext, tools: Parameters<typeof toolsSection>[0]): string {
  const parts = [
    prompt.trimEnd(),
    environmentContext({
      cwd: ctx.cwd,
      shell: ctx.shell,
      currentDate: ctx.currentDate,
      timezone: ctx.timezone,
    }),
  ];
  if (ctx.instructions) parts.push(agentsMdBlock({ directory: ctx.cwd, text: ctx.instructions }));
  const skills = skillsBlock(ctx.skills);
  if (skills) parts.push(skills);
  parts.push(toolsSection(tools));
  return parts.join("\n\n");
}

/**
 * For endpoints whose models write tool calls as text (no server-side tool parser, or a server
 * that rejects `tools`): Codex's tools described in the system prompt the way Hermes / Qwen
 * chat templates do (`# Tools`, `<tools>` JSON), calls read back from `<tool_call>` JSON,
 * Qwen3-Coder XML or fenced JSON, results returned as `<tool_response>` user messages. The
 * session falls back to this harness by id when an endpoint refuses native tools.
 */
export const hermesHarness: Harness = {
  ...hermesInfo,
  // Codex's tools, so Codex's 10 000 budget for anything else.
  output: { foreignMaxChars: 10_000 },
  open() {
    const tools = [shellCommandTool(), applyPatchTool(), updatePlanTool()];
    return {
      tools,
      render({ history, tools, ctx }) {
        const messages = renderTextMessages(history, {
          harness: "hermes",
          foreignCall(call) {
            if (NAMES.has(call.name)) return toolCallText(call.name, parsedOr(call.arguments));
            const command = commandOf(call);
            if (command !== undefined) return toolCallText("shell_command", { command });
            return `[called ${call.name} with ${call.arguments}]`;
          },
          observations: (results) =>
            results.map((r) => `<tool_response>\n${r.output}\n</tool_response>`).join("\n"),
        });
        return {
          system: [{ type: "text", text: hermesSystemPrompt(ctx, tools) }],
          messages,
          tools: [],
        };
      },
    };
  },
  parse: (text, options) => parseToolCalls(text, { newId: options.newId, schemas: SCHEMAS }),
};

function parsedOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
