import type { Message } from "../../providers/model-request.js";
import { renderChatMessages } from "../shared/chat-messages.js";
import { agentsMdBlock, environmentContext, skillsBlock } from "../shared/codex-core/context-blocks.js";
import { applyPatchTool } from "../shared/codex-core/tools/apply-patch.js";
import { shellCommandTool } from "../shared/codex-core/tools/shell-command.js";
import { updatePlanTool } from "../shared/codex-core/tools/update-plan.js";
import { toolSpecs } from "../shared/tool-specs.js";
import type { Harness } from "../types.js";
import { codexInfo } from "./codex-info.js";
import { permissionsBlock } from "./permissions-block.js";
import prompt from "./prompt.md";

/**
 * Codex's harness in the form Codex gives models it has no catalog entry for: `shell_command`,
 * `apply_patch` as a function tool and `update_plan`, the base instructions with the patch
 * format, then permissions, AGENTS.md and environment context ahead of the conversation.
 */
export const codexHarness: Harness = {
  ...codexInfo,
  // Codex holds every function output to its 10 000 budget; here the rest is spilled, not dropped.
  output: { foreignMaxChars: 10_000 },
  // Codex: auto-compact at 90 % of the window (`model_auto_compact_token_limit` default).
  compaction: { ratio: 0.9 },
  open() {
    const tools = [shellCommandTool(), applyPatchTool(), updatePlanTool()];
    return {
      tools,
      render({ history, tools, ctx }) {
        const context: Message[] = [];
        const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
        if (ctx.instructions)
          context.push(user(agentsMdBlock({ directory: ctx.cwd, text: ctx.instructions })));
        const skills = skillsBlock(ctx.skills);
        if (skills) context.push(user(skills));
        context.push(
          user(
            environmentContext({
              cwd: ctx.cwd,
              shell: ctx.shell,
              currentDate: ctx.currentDate,
              timezone: ctx.timezone,
            }),
          ),
        );
        // Without a working sandbox the text must not promise unasked commands in `auto`.
        const permissions = permissionsBlock({
          mode: ctx.mode,
          sandboxed: ctx.sandboxed,
          writableRoots: ctx.roots,
        });
        return {
          system: [{ type: "text", text: `${prompt}\n\n${permissions}` }],
          messages: [...context, ...renderChatMessages(history, { tools, harness: "codex" })],
          tools: toolSpecs(tools, { strict: false }),
          // Codex keys the prompt cache by conversation id; sent to OpenAI-family models only, as
          // strict servers of other models may reject a field they do not know.
          ...(codexInfo.matches(ctx.model) ? { knobs: { promptCacheKey: ctx.sessionId } } : {}),
        };
      },
    };
  },
};
