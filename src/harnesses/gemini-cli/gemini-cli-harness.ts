import type { Message } from "../../providers/model-request.js";
import type { Tool } from "../../tools/types.js";
import { renderChatMessages } from "../shared/chat-messages.js";
import compactPrompt from "../shared/gemini-core/compact-prompt.md";
import { toolSpecs } from "../shared/tool-specs.js";
import type { Harness, HarnessContext } from "../types.js";
import { geminiCliInfo } from "./gemini-cli-info.js";
import { geminiSubagent, geminiSubagentTools } from "./gemini-subagents.js";
import { sessionContext } from "./session-context.js";
import { geminiSystemPrompt } from "./system-prompt.js";
import { toolFamily } from "./tool-family.js";
import { enterPlanModeTool } from "./tools/enter-plan-mode.js";
import { globTool } from "./tools/glob.js";
import { googleWebSearchTool } from "./tools/google-web-search.js";
import { grepSearchTool } from "./tools/grep-search.js";
import { invokeAgentTool } from "./tools/invoke-agent.js";
import { listBackgroundProcessesTool } from "./tools/list-background-processes.js";
import { listDirectoryTool } from "./tools/list-directory.js";
import { readBackgroundOutputTool } from "./tools/read-background-output.js";
import { readFileTool } from "./tools/read-file.js";
import { replaceTool } from "./tools/replace.js";
import { runShellCommandTool } from "./tools/run-shell-command.js";
import { webFetchTool } from "./tools/web-fetch.js";
import { writeFileTool } from "./tools/write-file.js";
import { writeTodosTool } from "./tools/write-todos.js";

/**
 * Gemini CLI 0.61's tools in its registration order, those we run: Gemini 3 models get no
 * write_todos. Around them 0.61 also sends update_topic (first) and activate_skill (last):
 * pending, see docs/harnesses.md.
 */
export function geminiCliTools(ctx: HarnessContext): Tool[] {
  const family = toolFamily(ctx.model);
  return [
    listDirectoryTool(),
    readFileTool(family, { images: ctx.images }),
    grepSearchTool(family),
    globTool(),
    replaceTool(family),
    writeFileTool(family),
    webFetchTool({ family, system: () => geminiSystemPrompt(ctx) }),
    runShellCommandTool({ scratchDir: ctx.scratchDir }),
    listBackgroundProcessesTool(),
    readBackgroundOutputTool(),
    googleWebSearchTool({ family }),
    ...(family === "default-legacy" ? [writeTodosTool()] : []),
    enterPlanModeTool(),
    invokeAgentTool(),
  ];
}

/**
 * Gemini CLI (google-gemini/gemini-cli): its tool surface with Gemini's result texts, the system
 * prompt in the section layout of the model's family, and the environment (date, OS, temp folder,
 * workspace trees) plus AGENTS.md as a `<session_context>` text part ahead of the first prompt in
 * the same user message, where Gemini CLI puts GEMINI.md project memory. Sampling as Gemini CLI's
 * chat models use it (temperature 1, top_p 0.95).
 */
export const geminiCliHarness: Harness = {
  ...geminiCliInfo,
  // Gemini CLI spills single-text MCP output above 40 000 characters to a file.
  output: { foreignMaxChars: 40_000 },
  // Gemini CLI: compress at 50 % of the window into a <state_snapshot>.
  compaction: { ratio: 0.5, prompt: compactPrompt },
  open(ctx) {
    // The first user message is fixed at session start, as Gemini CLI builds it once per chat.
    const context = sessionContext(ctx);
    // A subagent's session: its tools, and its own prompt where it has one.
    const agent = ctx.subagent && geminiSubagent(ctx.subagent.type);
    const tools = agent ? geminiSubagentTools(geminiCliTools(ctx), agent) : geminiCliTools(ctx);
    return {
      tools,
      render({ history, tools, ctx }) {
        return {
          system: [{ type: "text", text: agent?.prompt?.trimEnd() ?? geminiSystemPrompt(ctx) }],
          messages: withContext(context, renderChatMessages(history, { tools, harness: "gemini-cli" })),
          tools: toolSpecs(tools),
          knobs: { temperature: 1, topP: 0.95 },
        };
      },
    };
  },
};

/** The context is the first part of the first user message, as Gemini CLI sends its first turn. */
function withContext(context: string, messages: Message[]): Message[] {
  const part = { type: "text" as const, text: context };
  const [first, ...rest] = messages;
  if (first?.role !== "user") return [{ role: "user", content: [part] }, ...messages];
  return [{ ...first, content: [part, ...first.content], asParts: true }, ...rest];
}
