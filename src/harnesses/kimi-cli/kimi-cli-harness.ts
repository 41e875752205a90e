import type { Knobs } from "../../providers/model-request.js";
import { planFile } from "../../tools/ask/plan-file.js";
import { toolSpecs } from "../shared/tool-specs.js";
import type { Harness } from "../types.js";
import compactPrompt from "./compact-prompt.md";
import { kimiCliInfo } from "./kimi-cli-info.js";
import { kimiCliSubagent, subagentTools } from "./kimi-subagents.js";
import { addPlanModeReminder } from "./plan-mode-reminder.js";
import { errorText, renderKimiCliMessages } from "./render.js";
import { kimiCliSystemPrompt } from "./system-prompt.js";
import { agentTool } from "./tools/agent.js";
import { askUserQuestionTool } from "./tools/ask-user-question.js";
import { enterPlanModeTool } from "./tools/enter-plan-mode.js";
import { exitPlanModeTool } from "./tools/exit-plan-mode.js";
import { fetchUrlTool } from "./tools/fetch-url.js";
import { globTool } from "./tools/glob.js";
import { grepTool } from "./tools/grep.js";
import { readFileTool } from "./tools/read-file.js";
import { readMediaFileTool } from "./tools/read-media-file.js";
import { searchWebTool } from "./tools/search-web.js";
import { setTodoListTool } from "./tools/set-todo-list.js";
import { shellTool } from "./tools/shell.js";
import { strReplaceFileTool } from "./tools/str-replace-file.js";
import { taskListTool } from "./tools/task-list.js";
import { taskOutputTool } from "./tools/task-output.js";
import { taskStopTool } from "./tools/task-stop.js";
import { writeFileTool } from "./tools/write-file.js";

/**
 * What Kimi CLI 1.49.0 sends beside the messages (`llm.py` `create_llm`, kosong `Kimi`):
 * `prompt_cache_key` is the session id; `max_completion_tokens` is 1.49.0's field (it renames
 * `max_tokens`), at 32 000 as upstream Open Interpreter's `kimi_cli.rs` and 1.49.0's cap for an
 * unknown window (1.49.0 gives what the window has left, which we do not know here); `thinking`
 * is on for models whose name says `thinking` or `reason` (always-thinking ones) and off
 * otherwise (its `default_thinking = false`); never a `reasoning_effort`. Upstream's
 * `harness_guidance` block is not sent: it is not Kimi CLI's text (docs/harnesses.md).
 */
function kimiCliKnobs(sessionId: string, model: string): Knobs {
  const thinking = /thinking|reason/i.test(model) ? "enabled" : "disabled";
  return {
    promptCacheKey: sessionId,
    extra: { chat: { max_completion_tokens: 32_000, thinking: { type: thinking } } },
  };
}

/**
 * Kimi CLI 1.49.0 (MoonshotAI/kimi-cli, the Python agent before Kimi Code): the default agent's
 * tools in its `agent.yaml` order under their own names and schemas, each result in its
 * `<system>` form, its system prompt rendered once per session with AGENTS.md merged in, its
 * compaction rule and prompt, and its request knobs. What is left out: docs/harnesses.md.
 */
export const kimiCliHarness: Harness = {
  ...kimiCliInfo,
  // 1.49.0 `config.py`: compact at 85 % of the window or when fewer than 50 000 tokens stay free.
  compaction: {
    ratio: 0.85,
    reserve: 50_000,
    prompt: compactPrompt,
    summaryPrefix: "<system>Previous context has been compacted. Here is the compaction output:</system>",
  },
  toolError: errorText,
  open(ctx) {
    const all = [
      agentTool(),
      askUserQuestionTool(),
      setTodoListTool(),
      shellTool({ scratchDir: ctx.scratchDir }),
      taskListTool(),
      taskOutputTool(),
      taskStopTool(),
      readFileTool(),
      // 1.49.0 registers it only for a model with image (or video) input.
      ...(ctx.images ? [readMediaFileTool()] : []),
      globTool(),
      grepTool(),
      writeFileTool(),
      strReplaceFileTool(),
      searchWebTool(),
      fetchUrlTool(),
      exitPlanModeTool(),
      enterPlanModeTool(),
    ];
    // A subagent's session: its profile's tools and its ROLE_ADDITIONAL.
    const agent = ctx.subagent && kimiCliSubagent(ctx.subagent.type);
    const tools = agent ? subagentTools(all, agent) : all;
    let system: string | undefined;
    return {
      tools,
      render({ history, tools, ctx }) {
        system ??= kimiCliSystemPrompt(ctx, agent?.role ?? "");
        const messages = renderKimiCliMessages(history, tools);
        // The root agent is reminded of plan mode on every step while it is on.
        if (ctx.mode === "plan" && !agent) addPlanModeReminder(messages, planFile(ctx.scratchDir));
        return {
          system: [{ type: "text", text: system }],
          messages,
          tools: toolSpecs(tools),
          knobs: kimiCliKnobs(ctx.sessionId, ctx.model),
        };
      },
    };
  },
};
