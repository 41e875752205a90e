import type { Message } from "../../providers/model-request.js";
import { renderChatMessages } from "../shared/chat-messages.js";
import { toolSpecs } from "../shared/tool-specs.js";
import type { Harness } from "../types.js";
import { adoptDeepseekCall } from "./adopt-deepseek-call.js";
import { deepseekTuiInfo } from "./deepseek-tui-info.js";
import handoffPrompt from "./handoff-prompt.md";
import { deepseekTuiSystemPrompt } from "./system-prompt.js";
import { applyPatchTool } from "./tools/apply-patch.js";
import { Checklist } from "./tools/checklist-state.js";
import { checklistTools } from "./tools/checklist-tools.js";
import { editFileTool } from "./tools/edit-file.js";
import { execShellTool } from "./tools/exec-shell.js";
import { fetchUrlTool } from "./tools/fetch-url.js";
import { fileSearchTool } from "./tools/file-search.js";
import { gitHistoryTools } from "./tools/git-history-tools.js";
import { gitTools } from "./tools/git-tools.js";
import { grepFilesTool } from "./tools/grep-files.js";
import { listDirTool } from "./tools/list-dir.js";
import { readFileTool } from "./tools/read-file.js";
import { requestUserInputTool } from "./tools/request-user-input.js";
import { shellCancelTool, shellWaitTool } from "./tools/shell-tasks.js";
import { updatePlanTool } from "./tools/update-plan.js";
import { webSearchTool } from "./tools/web-search.js";
import { writeFileTool } from "./tools/write-file.js";
import { turnMeta } from "./workspace-context.js";

/** Upstream Open Interpreter's output cap for this harness (`DEEPSEEK_TUI_DEFAULT_MAX_TOKENS`). */
export const DEEPSEEK_TUI_MAX_TOKENS = 64_000;
/** What CodeWhale sends as `reasoning_content` beside calls that came with none (DeepSeek refuses it missing). */
export const REASONING_OMITTED = "(reasoning omitted)";
/** CodeWhale's stand-in for turn metadata identical to the last one sent in full. */
export const TURN_META_UNCHANGED = "<turn_meta_unchanged />";

/**
 * CodeWhale 0.8.44 (DeepSeek-TUI; `github:Hmbown/CodeWhale`, read from its source: its npm
 * package fetches a binary from GitHub releases): the implemented tools in the order of its tool
 * list, one system message in its layers, `<turn_meta>` before each user message, assistant text
 * and the calls after it as one message with `(reasoning omitted)` where reasoning is missing,
 * compact call arguments, `max_tokens` and `tool_choice: auto`.
 */
export const deepseekTuiHarness: Harness = {
  ...deepseekTuiInfo,
  // CodeWhale ends a context cycle with its carry-forward briefing (upstream sends it to
  // deepseek-v4-flash with its own state block); here it is the session's compaction instruction,
  // on the session's model and threshold.
  compaction: { prompt: handoffPrompt },
  open(ctx) {
    const model = { model: ctx.model };
    const checklist = new Checklist();
    const tools = [
      applyPatchTool(model),
      ...checklistTools(checklist),
      editFileTool(model),
      execShellTool(model),
      shellCancelTool(),
      shellWaitTool({ name: "exec_shell_wait", ...model }),
      shellWaitTool({ name: "exec_wait", ...model }),
      fetchUrlTool(model),
      fileSearchTool(model),
      ...[...gitTools(model), ...gitHistoryTools(model)].sort((a, b) => (a.name < b.name ? -1 : 1)),
      grepFilesTool(model),
      listDirTool(model),
      readFileTool(model),
      requestUserInputTool(),
      ...checklistTools(checklist, "todo"),
      updatePlanTool(),
      webSearchTool(model),
      writeFileTool(model),
    ];
    // Rendered once per directory and mode, so the prefix stays byte-identical across requests.
    const prompts = new Map<string, string>();
    // Each user message's metadata, fixed when first sent (CodeWhale stores it with the message).
    const metas = new Map<string, string>();
    return {
      tools,
      render({ history, tools, ctx }) {
        const key = `${ctx.cwd}\n${ctx.mode}`;
        let system = prompts.get(key);
        if (system === undefined) {
          system = deepseekTuiSystemPrompt(ctx);
          prompts.set(key, system);
        }
        const messages = renderChatMessages(history, {
          harness: "deepseek-tui",
          tools,
          adopt: adoptDeepseekCall,
          callArguments: compactJson,
        });
        let lastFull: string | undefined;
        let n = 0;
        for (const message of messages) {
          if (message.role === "assistant") withPlaceholders(message);
          if (message.role !== "user" || message.content[0]?.type !== "text") continue;
          const first = message.content[0];
          // The handoff request is not a user turn: CodeWhale sends it without turn metadata.
          if (first.text === handoffPrompt) continue;
          const metaKey = `${n++}\n${first.text}`;
          let meta = metas.get(metaKey);
          if (meta === undefined) {
            meta = turnMeta({ cwd: ctx.cwd, date: ctx.currentDate, userText: first.text });
            metas.set(metaKey, meta);
          }
          const sent = meta === lastFull ? TURN_META_UNCHANGED : meta;
          lastFull = meta;
          message.content[0] = { ...first, text: `${sent}\n${first.text}` };
        }
        return {
          system: [{ type: "text", text: system }],
          messages,
          tools: toolSpecs(tools),
          knobs: { maxTokens: DEEPSEEK_TUI_MAX_TOKENS, extra: { chat: { tool_choice: "auto" } } },
        };
      },
    };
  },
};

/** An assistant message with calls gets `""` for missing text and the placeholder for missing reasoning. */
function withPlaceholders(message: Extract<Message, { role: "assistant" }>): void {
  if (!message.content.some((part) => part.type === "tool_call")) return;
  if (!message.content.some((part) => part.type === "reasoning"))
    message.content.unshift({ type: "reasoning", text: REASONING_OMITTED });
  if (!message.content.some((part) => part.type === "text"))
    message.content.unshift({ type: "text", text: "" });
}

/** CodeWhale re-serializes call arguments as compact JSON; unreadable ones stay as they were. */
function compactJson(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json));
  } catch {
    return json;
  }
}
