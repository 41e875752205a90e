import type { Message } from "../../providers/model-request.js";
import { renderChatMessages } from "../shared/chat-messages.js";
import { toolSpecs } from "../shared/tool-specs.js";
import type { Harness } from "../types.js";
import { opencodeAdopt } from "./adopt-opencode-call.js";
import compactPrompt from "./compact-prompt.md";
import { opencodeInfo } from "./opencode-info.js";
import { opencodeSubagent } from "./opencode-subagents.js";
import { opencodeTopP } from "./sampling.js";
import { opencodeSystemPrompt } from "./system-prompt.js";
import { applyPatchTool } from "./tools/apply-patch.js";
import { bashTool } from "./tools/bash.js";
import { editTool } from "./tools/edit.js";
import { globTool } from "./tools/glob.js";
import { grepTool } from "./tools/grep.js";
import { readTool } from "./tools/read.js";
import { skillTool } from "./tools/skill.js";
import { taskTool } from "./tools/task.js";
import { todowriteTool } from "./tools/todowrite.js";
import { webfetchTool } from "./tools/webfetch.js";
import { writeTool } from "./tools/write.js";

/** opencode's output cap (`OUTPUT_TOKEN_MAX`): it sends min(the model's output limit, this). */
export const OPENCODE_MAX_TOKENS = 32_000;

/**
 * opencode 1.18.33 (`npm:opencode-ai`), its Claude or default prompt family: the tools in its order
 * (bash, edit, glob, grep, read, skill, task, todowrite, webfetch, write), one system
 * message (prompt, `<env>`, instructions, skills), user text as a plain string, `tool_choice:
 * auto` and `max_tokens`.
 */
export const opencodeHarness: Harness = {
  ...opencodeInfo,
  // opencode (`SessionCompaction.isOverflow`): compact once the context reaches the window less
  // the output cap; its anchored-summary template as the instruction.
  compaction: { reserve: OPENCODE_MAX_TOKENS, prompt: compactPrompt },
  open(ctx) {
    // 1.18.33 (`ToolRegistry.tools`): `gpt-` models but gpt-4 and gpt-oss edit with apply_patch.
    const patches = usesApplyPatch(ctx.model);
    const all = [
      ...(patches ? [applyPatchTool()] : []),
      bashTool({ scratchDir: ctx.scratchDir }),
      ...(patches ? [] : [editTool()]),
      globTool(),
      grepTool(),
      readTool({ images: ctx.images }),
      skillTool(ctx.skills),
      taskTool(),
      todowriteTool(),
      webfetchTool({ images: ctx.images }),
      ...(patches ? [] : [writeTool()]),
    ];
    // A subagent's session: its type's tools, and its own prompt where it has one.
    const agent = ctx.subagent && opencodeSubagent(ctx.subagent.type);
    const tools = agent ? all.filter(agent.keeps) : all;
    const reasoning = reasoningEffort(ctx.model);
    const topP = opencodeTopP(ctx.model);
    const adopt = opencodeAdopt({ editsFiles: !patches });
    return {
      tools,
      render({ history, tools, ctx }) {
        return {
          system: [{ type: "text", text: opencodeSystemPrompt(ctx, agent?.prompt) }],
          messages: renderChatMessages(history, { tools, harness: "opencode", adopt }).map(withText),
          tools: toolSpecs(tools),
          knobs: {
            maxTokens: OPENCODE_MAX_TOKENS,
            ...(reasoning ? { reasoning: { effort: reasoning } } : {}),
            ...(topP !== undefined ? { topP } : {}),
            extra: { chat: { tool_choice: "auto" } },
          },
        };
      },
    };
  },
};

/** opencode's provider sends an assistant turn's text as a string, `""` beside calls without text. */
function withText(message: Message): Message {
  if (message.role !== "assistant" || message.content.some((part) => part.type === "text")) return message;
  return { ...message, content: [{ type: "text", text: "" }, ...message.content] };
}

/** Whether 1.18.33 offers `apply_patch` instead of `edit` and `write` to this model. */
export function usesApplyPatch(model: string): boolean {
  return model.includes("gpt-") && !model.includes("oss") && !model.includes("gpt-4");
}

/** 1.18.33's `ProviderTransform.options`: gpt-5 models (but -chat and -pro) reason at `medium`. */
function reasoningEffort(model: string): string | undefined {
  return model.includes("gpt-5") && !model.includes("gpt-5-chat") && !model.includes("gpt-5-pro")
    ? "medium"
    : undefined;
}
