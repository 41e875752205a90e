import compactPrompt from "../shared/claude-code-core/compact-prompt.md";
import { askUserQuestionTool } from "../shared/claude-code-core/tools/ask-user-question.js";
import { enterPlanModeTool } from "../shared/claude-code-core/tools/enter-plan-mode.js";
import { exitPlanModeTool } from "../shared/claude-code-core/tools/exit-plan-mode.js";
import { webFetchTool } from "../shared/claude-code-core/tools/web-fetch.js";
import type { Harness } from "../types.js";
import { askUserQuestionSchema, enterPlanModeSchema, exitPlanModeSchema } from "./interaction-schemas.js";
import { renderZCode } from "./render-zcode.js";
import { ZCODE_IDENTITY, zcodeSystem } from "./system-prompt.js";
import { webFetchSchema } from "./tool-schemas.js";
import { agentTool } from "./tools/agent.js";
import askUserQuestionDescription from "./tools/ask-user-question.md";
import { bashTool } from "./tools/bash.js";
import { editTool } from "./tools/edit.js";
import enterPlanModeDescription from "./tools/enter-plan-mode.md";
import exitPlanModeDescription from "./tools/exit-plan-mode.md";
import { readTool } from "./tools/read.js";
import { readSessionContextTool } from "./tools/read-session-context.js";
import { sendMessageTool } from "./tools/send-message.js";
import { skillTool } from "./tools/skill.js";
import { todoReadTool } from "./tools/todo-read.js";
import { todoWriteTool } from "./tools/todo-write.js";
import webFetchDescription from "./tools/web-fetch.md";
import { writeTool } from "./tools/write.js";
import { zcodeInfo } from "./zcode-info.js";
import { ZCodeState } from "./zcode-state.js";
import { EXPLORE_TOOLS } from "./zcode-subagents.js";

/**
 * ZCode 0.14.8 as upstream Open Interpreter 0.0.40 sends it on Anthropic Messages: its 14 tools
 * in `zcode_tools.json`'s order, three cached system blocks (identity, harness, environment),
 * the reminders of render-zcode.ts, `max_tokens: 64000` and `tool_choice: auto`. AskUserQuestion,
 * the plan-mode pair and WebFetch are Claude Code's executors with ZCode's surface. An Explore
 * agent's session gets its prompt and four tools.
 */
export const zcodeHarness: Harness = {
  ...zcodeInfo,
  // ZCode's compaction is Claude Code's (its prompt and the summary's framing).
  compaction: { reserve: 33_000, prompt: compactPrompt },
  open(ctx) {
    const state = new ZCodeState();
    const all = [
      agentTool(),
      askUserQuestionTool({ description: askUserQuestionDescription, parameters: askUserQuestionSchema }),
      bashTool({ scratchDir: ctx.scratchDir }),
      editTool({ state }),
      enterPlanModeTool({ description: enterPlanModeDescription, parameters: enterPlanModeSchema }),
      exitPlanModeTool({ description: exitPlanModeDescription, parameters: exitPlanModeSchema }),
      readTool({ state, images: ctx.images }),
      skillTool(ctx.skills),
      todoReadTool({ state }),
      todoWriteTool({ state }),
      webFetchTool({
        description: webFetchDescription,
        parameters: webFetchSchema,
        identity: ZCODE_IDENTITY,
      }),
      writeTool({ state }),
      sendMessageTool(),
      readSessionContextTool(),
    ];
    const explore = ctx.subagent?.type === "Explore";
    const tools = explore ? all.filter((tool) => EXPLORE_TOOLS.includes(tool.name)) : all;
    return {
      tools,
      render: ({ history, tools, ctx }) =>
        renderZCode({ history, tools, ctx, state, system: zcodeSystem(ctx, ctx.subagent?.type) }),
    };
  },
};
