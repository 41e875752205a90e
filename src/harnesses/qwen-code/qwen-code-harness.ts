import type { Message } from "../../providers/model-request.js";
import type { Tool } from "../../tools/types.js";
import { renderChatMessages } from "../shared/chat-messages.js";
import compactPrompt from "../shared/gemini-core/compact-prompt.md";
import { toolSpecs } from "../shared/tool-specs.js";
import type { Harness, HarnessContext } from "../types.js";
import { normalizeQwenMessage } from "./argument-order.js";
import { dateReminder, openingReminders } from "./opening-reminders.js";
import { qwenCodeInfo } from "./qwen-code-info.js";
import { qwenSubagent, qwenSubagentTools } from "./qwen-subagents.js";
import { ReadLedger } from "./read-ledger.js";
import { qwenSystemPrompt } from "./system-prompt.js";
import { taskNotification } from "./task-notification.js";
import { agentTool } from "./tools/agent.js";
import { editTool } from "./tools/edit.js";
import { globTool } from "./tools/glob.js";
import { grepSearchTool } from "./tools/grep-search.js";
import { notebookEditTool } from "./tools/notebook-edit.js";
import { readFileTool } from "./tools/read-file.js";
import { runShellCommandTool } from "./tools/run-shell-command.js";
import { skillTool } from "./tools/skill.js";
import { writeFileTool } from "./tools/write-file.js";
import { TRUNCATE_THRESHOLD } from "./truncate.js";

/** Qwen Code 0.24.4's `max_tokens` on every request. */
export const QWEN_MAX_TOKENS = 32_000;

/**
 * Qwen Code 0.24.4's tools that exist here, in the order it registers them (by name). Its
 * list_agents, get_goal, update_goal, tool_search and tool_call belong to later work
 * (docs/harnesses.md). One read ledger per session.
 */
export function qwenCodeTools(ctx: HarnessContext): Tool[] {
  const ledger = new ReadLedger();
  return [
    agentTool(),
    editTool(ledger),
    globTool(),
    grepSearchTool(),
    notebookEditTool(ledger),
    readFileTool(ledger),
    runShellCommandTool({ scratchDir: ctx.scratchDir }),
    skillTool(ctx.skills),
    writeFileTool(ledger),
  ];
}

/**
 * Qwen Code 0.24.4 (`@qwen-code/qwen-code`) as the `qwen-code` harness: its system prompt's
 * outline with AGENTS.md after `---`, the opening `<system-reminder>`s at the head of the first
 * user message, the date reminder before the newest prompt, every user and tool message as text
 * parts, Qwen's tool names, schemas and result texts, replayed arguments in Qwen's key order, a
 * background shell's end as its `<task-notification>` with the next prompt, and
 * `max_tokens: 32000`.
 */
export const qwenCodeHarness: Harness = {
  ...qwenCodeInfo,
  // Qwen Code truncates and saves tool output over 25 000 characters (`truncateAndSaveToFile`).
  output: { foreignMaxChars: TRUNCATE_THRESHOLD },
  // Qwen Code: min(85 % of the window, window − 20k summary − 13k buffer), Gemini-style snapshot.
  compaction: { ratio: 0.85, reserve: 33_000, prompt: compactPrompt },
  open(ctx) {
    // Fixed at session start, so the first message stays byte-identical across requests.
    const opening = openingReminders(ctx);
    const date = dateReminder(ctx);
    // A subagent's session: its type's tools and prompt.
    const agent = ctx.subagent && qwenSubagent(ctx.subagent.type);
    const tools = agent ? qwenSubagentTools(qwenCodeTools(ctx), agent) : qwenCodeTools(ctx);
    return {
      tools,
      render({ history, tools, ctx }) {
        const messages = renderChatMessages(history, {
          tools,
          harness: "qwen-code",
          backgroundEnded: { text: taskNotification, at: "next-user" },
        }).map(normalizeQwenMessage);
        return {
          system: [{ type: "text", text: agent ? agent.prompt.trimEnd() : qwenSystemPrompt(ctx) }],
          messages: withReminders(messages, opening, date),
          tools: toolSpecs(tools),
          knobs: { maxTokens: QWEN_MAX_TOKENS },
        };
      },
    };
  },
};

/**
 * The opening reminders head the first user message and the date reminder heads the newest one
 * (in a one-prompt conversation, right before that prompt). User and tool messages go as parts.
 */
function withReminders(messages: Message[], opening: string[], date: string): Message[] {
  const firstUser = messages.findIndex((message) => message.role === "user");
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  return messages.map((message, index) => {
    if (message.role === "tool") return { ...message, asParts: true };
    if (message.role !== "user") return message;
    const before = [...(index === firstUser ? opening : []), ...(index === lastUser ? [date] : [])];
    return {
      ...message,
      content: [...before.map((text) => ({ type: "text" as const, text })), ...message.content],
      asParts: true,
    };
  });
}
