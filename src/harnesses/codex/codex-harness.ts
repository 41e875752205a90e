import type { ChatMessage } from "../../providers/types.js";
import { renderChatMessages } from "../shared/chat-messages.js";
import { chatTools } from "../shared/chat-tools.js";
import { agentsMdBlock, environmentContext, skillsBlock } from "../shared/codex-core/context-blocks.js";
import { applyPatchTool } from "../shared/codex-core/tools/apply-patch.js";
import { shellCommandTool } from "../shared/codex-core/tools/shell-command.js";
import { updatePlanTool } from "../shared/codex-core/tools/update-plan.js";
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
        const context: ChatMessage[] = [];
        if (ctx.instructions) {
          context.push({
            role: "user",
            content: agentsMdBlock({ directory: ctx.cwd, text: ctx.instructions }),
          });
        }
        const skills = skillsBlock(ctx.skills);
        if (skills) context.push({ role: "user", content: skills });
        context.push({
          role: "user",
          content: environmentContext({
            cwd: ctx.cwd,
            shell: ctx.shell,
            currentDate: ctx.currentDate,
            timezone: ctx.timezone,
          }),
        });
        return {
          messages: [
            // Without a working sandbox the text must not promise unasked commands in `auto`.
            {
              role: "system",
              content: `${prompt}\n\n${permissionsBlock({ mode: ctx.mode, sandboxed: ctx.sandboxed, writableRoots: ctx.roots })}`,
            },
            ...context,
            ...renderChatMessages(history, { tools, harness: "codex" }),
          ],
          tools: chatTools(tools, { strict: false }),
          // Codex keys the prompt cache by conversation id; sent to OpenAI-family models only, as
          // strict servers of other models may reject a field they do not know.
          ...(codexInfo.matches(ctx.model) ? { knobs: { prompt_cache_key: ctx.sessionId } } : {}),
        };
      },
    };
  },
};
