import { renderChatMessages } from "../shared/chat-messages.js";
import { toolSpecs } from "../shared/tool-specs.js";
import type { Harness } from "../types.js";
import compactPrompt from "./compact-prompt.md";
import { piInfo } from "./pi-info.js";
import { piSystemPrompt } from "./system-prompt.js";
import { bashTool } from "./tools/bash.js";
import { editTool } from "./tools/edit.js";
import { readTool } from "./tools/read.js";
import { writeTool } from "./tools/write.js";

/** pi's default output cap (`maxTokens` of its built-in models). */
export const PI_MAX_TOKENS = 32_000;

/** pi's lean coding agent: read, bash, edit, write and a prompt under a thousand tokens. */
export const piHarness: Harness = {
  ...piInfo,
  // pi: compact when fewer than `reserveTokens` (16384) stay free.
  compaction: { reserve: 16_384, prompt: compactPrompt },
  open(ctx) {
    const tools = [readTool(), bashTool({ scratchDir: ctx.scratchDir }), editTool(), writeTool()];
    return {
      tools,
      render({ history, tools, ctx }) {
        return {
          system: [{ type: "text", text: piSystemPrompt(ctx) }],
          // pi sends user text as a parts array, never as a plain string.
          messages: renderChatMessages(history, { tools, harness: "pi" }).map((message) =>
            message.role === "user" ? { ...message, asParts: true } : message,
          ),
          tools: toolSpecs(tools, { strict: false }),
          // pi's openai-completions provider: no server-side storage, its output cap by that name.
          knobs: { extra: { chat: { store: false, max_completion_tokens: PI_MAX_TOKENS } } },
        };
      },
    };
  },
};
