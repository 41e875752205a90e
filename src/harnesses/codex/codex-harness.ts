import type { Message, TextPart, ToolSpec } from "../../providers/model-request.js";
import type { Tool } from "../../tools/types.js";
import { renderChatMessages } from "../shared/chat-messages.js";
import { agentsMdBlock, environmentContext, skillsBlock } from "../shared/codex-core/context-blocks.js";
import { applyPatchTool } from "../shared/codex-core/tools/apply-patch.js";
import { toolSpecs } from "../shared/tool-specs.js";
import type { Harness, HarnessContext } from "../types.js";
import { type CodexFamily, codexFamily } from "./codex-family.js";
import { codexInfo } from "./codex-info.js";
import collaborationPlan from "./collaboration-plan.md";
import { filesystemElement } from "./filesystem-element.js";
import { freeformPatchSpec } from "./freeform-patch.js";
import { permissionsBlock } from "./permissions-block.js";
import { execCommandTool } from "./tools/exec-command.js";
import { requestUserInputTool } from "./tools/request-user-input.js";
import { viewImageTool } from "./tools/view-image.js";
import { writeStdinTool } from "./tools/write-stdin.js";

/**
 * Codex CLI 0.171's harness, per model family (codex-family.ts): `exec_command` and
 * `write_stdin` over sessions that may outlive a call (within the turn), `apply_patch` as a
 * freeform tool for the gpt-5 family and through the shell for every other model. On Responses
 * the base prompt is the first developer message and the skills and permissions the second,
 * then one user message with AGENTS.md and `<environment_context>`; Chat gets the same text with
 * the instructions in its system message.
 */
export const codexHarness: Harness = {
  ...codexInfo,
  // Codex holds every function output to its 10 000 budget; here the rest is spilled, not dropped.
  output: { foreignMaxChars: 10_000 },
  // Codex: auto-compact at 90 % of the window (`model_auto_compact_token_limit` default).
  compaction: { ratio: 0.9 },
  open(opened) {
    const family = codexFamily(opened.model);
    const patch = applyPatchTool({ verification: true });
    const tools: Tool[] = [
      execCommandTool({ policy: family.policy }),
      writeStdinTool({ policy: family.policy }),
      requestUserInputTool(),
      ...(family.freeformPatch ? [patch] : []),
      // The catalog's models take images at original detail; the fallback metadata at high.
      viewImageTool({ images: opened.images, originalDetail: family.id === "gpt-5" }),
    ];
    return {
      tools,
      render({ history, tools, ctx }) {
        const conversation = renderChatMessages(history, { tools, harness: "codex" });
        const specs: ToolSpec[] = toolSpecs(tools, { strict: false }).map((spec) =>
          spec.name === patch.name && family.freeformPatch ? freeformPatchSpec() : spec,
        );
        const prefix = contextBlocks(ctx, family);
        const responses = ctx.wire === "responses";
        const developer = (parts: string[]): Message => ({ role: "developer", content: parts.map(text) });
        return {
          system: responses ? [] : [family.prompt, ...prefix.instructions].map(text),
          messages: [
            ...(responses ? [developer([family.prompt]), developer(prefix.instructions)] : []),
            {
              role: "user",
              content: responses ? prefix.context.map(text) : [text(prefix.context.join("\n\n"))],
            },
            ...conversation,
          ],
          tools: specs,
          knobs: {
            ...family.knobs,
            // Codex keys the prompt cache by conversation. Off Responses only OpenAI's own models get
            // it: strict Chat servers of other models may refuse a field they do not know.
            ...(responses || codexInfo.matches(ctx.model) ? { promptCacheKey: ctx.sessionId } : {}),
          },
        };
      },
    };
  },
};

function text(value: string): TextPart {
  return { type: "text", text: value };
}

/** The instructions (second developer message) and the user context (first user message), in Codex's order. */
function contextBlocks(
  ctx: HarnessContext,
  family: CodexFamily,
): { instructions: string[]; context: string[] } {
  const skills = skillsBlock(ctx.skills, { howTo: family.skillsHowTo });
  // Without a working sandbox the text must not promise unasked commands in `auto`.
  const permissions = permissionsBlock({
    mode: ctx.mode,
    sandboxed: ctx.sandboxed,
    writableRoots: ctx.roots,
  });
  const environment = environmentContext({
    cwd: ctx.cwd,
    shell: ctx.shell,
    currentDate: ctx.currentDate,
    timezone: ctx.timezone,
    filesystem: filesystemElement({ mode: ctx.mode, roots: ctx.roots, sandboxed: ctx.sandboxed }),
  });
  return {
    instructions: [
      ...(skills ? [skills] : []),
      permissions,
      // Our plan mode is Codex's Plan collaboration mode: its instructions join the developer message.
      ...(ctx.mode === "plan"
        ? [`<collaboration_mode>${collaborationPlan.trimEnd()}</collaboration_mode>`]
        : []),
    ],
    context: [
      ...(ctx.instructions ? [agentsMdBlock({ directory: ctx.cwd, text: ctx.instructions })] : []),
      environment,
    ],
  };
}
