import type { Message } from "../../providers/model-request.js";
import type { Tool } from "../../tools/types.js";
import { renderChatMessages } from "../shared/chat-messages.js";
import compactPrompt from "../shared/gemini-core/compact-prompt.md";
import { toolSpecs } from "../shared/tool-specs.js";
import type { Harness, HarnessContext } from "../types.js";
import { normalizeQwenMessage } from "./argument-order.js";
import { qwenCodeInfo } from "./qwen-code-info.js";
import { ReadLedger } from "./read-ledger.js";
import { STARTUP_ACK, startupContext } from "./startup-context.js";
import { qwenSystemPrompt } from "./system-prompt.js";
import { editTool } from "./tools/edit.js";
import { globTool } from "./tools/glob.js";
import { grepSearchTool } from "./tools/grep-search.js";
import { listDirectoryTool } from "./tools/list-directory.js";
import { readFileTool } from "./tools/read-file.js";
import { runShellCommandTool } from "./tools/run-shell-command.js";
import { todoWriteTool } from "./tools/todo-write.js";
import { writeFileTool } from "./tools/write-file.js";
import { TRUNCATE_THRESHOLD } from "./truncate.js";

/** Qwen Code's `max_tokens` as OI sends it (`QWEN_CODE_DEFAULT_MAX_TOKENS`). */
export const QWEN_MAX_TOKENS = 8_000;

/** Qwen Code's tools in its registration order; one read ledger per session. */
export function qwenCodeTools(ctx: HarnessContext): Tool[] {
  const ledger = new ReadLedger();
  return [
    listDirectoryTool(),
    readFileTool(ledger),
    grepSearchTool(),
    globTool(),
    editTool(ledger),
    writeFileTool(ledger),
    runShellCommandTool({ scratchDir: ctx.scratchDir }),
    todoWriteTool(),
  ];
}

/**
 * Qwen Code (QwenLM/qwen-code) as openinterpreter's `qwen-code` harness shapes it
 * (`codex-rs/core/src/harness/qwen_code.rs`): Qwen's system prompt with AGENTS.md after `---`,
 * a synthetic startup-context user turn and its "Got it" answer, Qwen's tool names and result
 * texts, replayed arguments in Qwen's key order, and `max_tokens: 8000`.
 */
export const qwenCodeHarness: Harness = {
  ...qwenCodeInfo,
  // Qwen Code truncates and saves tool output over 25 000 characters (`truncateAndSaveToFile`).
  output: { foreignMaxChars: TRUNCATE_THRESHOLD },
  // Qwen Code: min(85 % of the window, window − 20k summary − 13k buffer), Gemini-style snapshot.
  compaction: { ratio: 0.85, reserve: 33_000, prompt: compactPrompt },
  open(ctx) {
    // Qwen Code sends its startup context once, as the session started.
    const startupText = startupContext(ctx);
    const tools = qwenCodeTools(ctx);
    return {
      tools,
      render({ history, tools, ctx }) {
        const startup: Message = {
          role: "user",
          content: [{ type: "text", text: startupText }],
          asParts: true,
        };
        return {
          system: [{ type: "text", text: qwenSystemPrompt(ctx) }],
          messages: [
            startup,
            { role: "assistant", content: [{ type: "text", text: STARTUP_ACK }] },
            ...renderChatMessages(history, { tools, harness: "qwen-code" }).map(normalizeQwenMessage),
          ],
          tools: toolSpecs(tools),
          knobs: { maxTokens: QWEN_MAX_TOKENS },
        };
      },
    };
  },
};
