import type { Knobs } from "../../providers/model-request.js";
import { planFile } from "../../tools/ask/plan-file.js";
import { toolSpecs } from "../shared/tool-specs.js";
import type { Harness } from "../types.js";
import compactPrompt from "./compact-prompt.md";
import { kimiCodeInfo } from "./kimi-code-info.js";
import { kimiSubagent, kimiSubagentTools } from "./kimi-subagents.js";
import { planModeReminder } from "./plan-mode-reminder.js";
import { renderKimiMessages } from "./render.js";
import summaryPrefix from "./summary-prefix.md";
import { kimiSystemPrompt } from "./system-prompt.js";
import { timed } from "./tool-result.js";
import { agentTool } from "./tools/agent.js";
import { askUserQuestionTool } from "./tools/ask-user-question.js";
import { bashTool } from "./tools/bash.js";
import { editTool } from "./tools/edit.js";
import { enterPlanModeTool } from "./tools/enter-plan-mode.js";
import { exitPlanModeTool } from "./tools/exit-plan-mode.js";
import { fetchUrlTool } from "./tools/fetch-url.js";
import { globTool } from "./tools/glob.js";
import { grepTool } from "./tools/grep.js";
import { readTool } from "./tools/read.js";
import { readMediaFileTool } from "./tools/read-media-file.js";
import { taskListTool } from "./tools/task-list.js";
import { taskOutputTool } from "./tools/task-output.js";
import { taskStopTool } from "./tools/task-stop.js";
import { todoListTool } from "./tools/todo-list.js";
import { waitForTool } from "./tools/wait-for.js";
import { writeTool } from "./tools/write.js";

/** Request knobs Kimi Code sends (OI `kimi_code.rs` `build_request`); the provider adds `stream` and usage. */
export function kimiKnobs(sessionId: string): Knobs {
  return {
    promptCacheKey: `session_${sessionId}`,
    // Kimi's own names: `max_completion_tokens`, and `thinking` with its `keep` switch.
    extra: { chat: { max_completion_tokens: 32768, thinking: { type: "enabled", keep: "all" } } },
  };
}

/**
 * Kimi Code (MoonshotAI/kimi-code, the TypeScript agent Kimi K2/K3 are tuned on): its core
 * tools under their own names (Agent, Bash, Edit, FetchURL, Glob, Grep, Read, TaskList, TaskOutput,
 * TaskStop, TodoList, WaitFor, Write, in the order of Kimi Code's alphabetical tool list; a
 * subagent's session keeps its profile's, kimi-subagents.ts), its
 * system prompt layout rendered once per session, the auto-mode `<system-reminder>` after each
 * user message, its `<notification>` user message where a background task's end arrived, and its
 * request knobs.
 */
export const kimiCodeHarness: Harness = {
  ...kimiCodeInfo,
  // Kimi Code: compact at 85 % of the window or when fewer than 50k tokens stay free. The
  // instruction asks for a free-form first-person note and the prefix is plain text, as in
  // Kimi Code; its paragraphs on the on-disk log pointer and the re-attached TODO list are left
  // out because we append neither.
  compaction: { ratio: 0.85, reserve: 50_000, prompt: compactPrompt, summaryPrefix: summaryPrefix.trim() },
  open(ctx) {
    const all = [
      agentTool(),
      askUserQuestionTool(),
      timed(bashTool({ scratchDir: ctx.scratchDir })),
      editTool(),
      enterPlanModeTool(),
      exitPlanModeTool(),
      timed(fetchUrlTool({ scratchDir: ctx.scratchDir })),
      timed(globTool({ scratchDir: ctx.scratchDir })),
      timed(grepTool()),
      readTool({ images: ctx.images }),
      // Kimi Code registers it only for a model with image (or video) input.
      ...(ctx.images ? [readMediaFileTool()] : []),
      taskListTool(),
      taskOutputTool(),
      taskStopTool(),
      todoListTool(),
      waitForTool(),
      writeTool(),
    ];
    // A subagent's session: its profile's tools, and its overlay after the system prompt.
    const agent = ctx.subagent && kimiSubagent(ctx.subagent.type);
    const tools = agent ? kimiSubagentTools(all, agent) : all;
    // Like OI's cache key: the prompt is rendered again only if the directory or skills change.
    const prompts = new Map<string, string>();
    return {
      tools,
      render({ history, tools, ctx }) {
        const key = `${ctx.cwd}\n${ctx.skills.map((skill) => `${skill.name}:${skill.path}`).join("\n")}`;
        let system = prompts.get(key);
        if (system === undefined) {
          system = agent?.overlay
            ? `${kimiSystemPrompt(ctx)}\n\n${agent.overlay.trimEnd()}`
            : kimiSystemPrompt(ctx);
          prompts.set(key, system);
        }
        const messages = renderKimiMessages(history, { harness: "kimi-code", tools, date: ctx.currentDate });
        // 2.1.0 injects its plan-mode reminder before the model's next request while plan mode is on.
        if (ctx.mode === "plan") messages.push(planModeReminder(planFile(ctx.scratchDir)));
        return {
          system: [{ type: "text", text: system }],
          messages,
          tools: toolSpecs(tools),
          knobs: kimiKnobs(ctx.sessionId),
        };
      },
    };
  },
};
