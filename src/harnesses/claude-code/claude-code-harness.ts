import { ReadTracker } from "../../tools/fs/read-tracker.js";
import type { Tool } from "../../tools/types.js";
import compactPrompt from "../shared/claude-code-core/compact-prompt.md";
import { contextReminders } from "../shared/claude-code-core/context-reminders.js";
import { toolUseError } from "../shared/claude-code-core/format.js";
import { gitStatusBlock, joinSections } from "../shared/claude-code-core/git-status-block.js";
import { CLAUDE_AGENT_IDENTITY } from "../shared/claude-code-core/identity.js";
import { renderClaudeCode } from "../shared/claude-code-core/render.js";
import { webFetchSchema } from "../shared/claude-code-core/tool-schemas.js";
import { askUserQuestionTool } from "../shared/claude-code-core/tools/ask-user-question.js";
import { bashTool } from "../shared/claude-code-core/tools/bash.js";
import { editTool } from "../shared/claude-code-core/tools/edit.js";
import { enterPlanModeTool } from "../shared/claude-code-core/tools/enter-plan-mode.js";
import { exitPlanModeTool } from "../shared/claude-code-core/tools/exit-plan-mode.js";
import { FILE_UNCHANGED_STUB, readTool } from "../shared/claude-code-core/tools/read.js";
import { webFetchTool } from "../shared/claude-code-core/tools/web-fetch.js";
import type { Harness } from "../types.js";
import { claudeCodeInfo } from "./claude-code-info.js";
import { claudeSubagent, subagentPrompt, subagentTools } from "./claude-subagents.js";
import { ClaudeTasks } from "./claude-tasks.js";
import { environmentBlock } from "./environment-block.js";
import { withPlanReminder } from "./plan-reminder.js";
import prompt from "./prompt.md";
import { taskNotification } from "./task-notification.js";
import askUserQuestionDescription from "./tools/ask-user-question.md";
import enterPlanModeDescription from "./tools/enter-plan-mode.md";
import exitPlanModeDescription from "./tools/exit-plan-mode.md";
import { globTool } from "./tools/glob.js";
import { grepTool } from "./tools/grep.js";
import { notebookEditTool } from "./tools/notebook-edit.js";
import { askUserQuestionSchema, enterPlanModeSchema, exitPlanModeSchema } from "./tools/plan-schemas.js";
import { skillTool } from "./tools/skill.js";
import { taskTool } from "./tools/task.js";
import { taskOutputTool } from "./tools/task-output.js";
import { taskStopTool } from "./tools/task-stop.js";
import { todoWriteTool } from "./tools/todo-write.js";
import webFetchDescription from "./tools/web-fetch.md";
import { webSearchTool } from "./tools/web-search.js";
import { writeTool } from "./tools/write.js";

/** Claude Code's default `max_tokens` (OI `claude_code.rs::CLAUDE_CODE_DEFAULT_MAX_TOKENS`). */
export const CLAUDE_CODE_MAX_TOKENS = 32_000;

/**
 * Claude Code 2.1.44's harness with its whole tool surface, in its order (Task, TaskOutput, Bash,
 * Glob, Grep, ExitPlanMode, Read, Edit, Write, NotebookEdit, WebFetch, TodoWrite, WebSearch,
 * TaskStop, AskUserQuestion, Skill, EnterPlanMode); a subagent's session gets its type's prompt
 * and tool subset instead (claude-subagents.ts):
 * the identity block, then the system prompt in 2.1.44's sections with the `<env>` block and the
 * `gitStatus` snapshot; skills, AGENTS.md and the date as the reminders Claude Code opens the
 * conversation with; `max_tokens: 32000`, `temperature: 1`. The Read tracker and the background
 * tasks' line counts belong to what `open` returns, so Read-before-Edit holds per session and
 * model. A background shell that ended is told as 2.1.44's `<task-notification>` with the next
 * prompt (2.1.44 sends it once the turn is over).
 */
export const claudeCodeHarness: Harness = {
  ...claudeCodeInfo,
  // Claude Code: Read dedup, and MCP output capped at 25 000 tokens (~100 000 characters).
  output: { unchangedRead: FILE_UNCHANGED_STUB, foreignMaxChars: 100_000 },
  // Claude Code: window − 20k (summary output) − 13k buffer.
  compaction: { reserve: 33_000, prompt: compactPrompt },
  toolError: toolUseError,
  open(ctx) {
    const files = new ReadTracker();
    const tasks = new ClaudeTasks({ scratchDir: ctx.scratchDir });
    const skills = ctx.skills.length > 0 ? [skillTool(ctx.skills)] : [];
    const all = [
      taskTool(),
      taskOutputTool(),
      bashTool({ scratchDir: ctx.scratchDir, background: (args, tool) => tasks.start(args, tool) }),
      globTool(),
      grepTool(),
      exitPlanModeTool({ description: exitPlanModeDescription, parameters: exitPlanModeSchema }),
      readTool({ files, images: ctx.images }),
      editTool({ files }),
      writeTool({ files }),
      notebookEditTool(),
      webFetchTool({ description: webFetchDescription, parameters: webFetchSchema }),
      todoWriteTool(),
      webSearchTool(),
      taskStopTool(),
      askUserQuestionTool({ description: askUserQuestionDescription, parameters: askUserQuestionSchema }),
      ...skills,
      enterPlanModeTool({ description: enterPlanModeDescription, parameters: enterPlanModeSchema }),
    ].map((tool) => tasks.withReminders(tool as Tool));
    // A subagent's session: its type's tools and prompt (the Task tool checked the type).
    const agent = ctx.subagent && claudeSubagent(ctx.subagent.type);
    const tools = agent ? subagentTools(all, agent) : all;
    return {
      tools,
      render({ history, tools, ctx }) {
        const request = renderClaudeCode({
          history,
          tools,
          harness: "claude-code",
          identity: CLAUDE_AGENT_IDENTITY,
          system: agent
            ? joinSections(subagentPrompt(agent), environmentBlock(ctx))
            : joinSections(prompt, environmentBlock(ctx), gitStatusBlock(ctx.git)),
          reminders: contextReminders(ctx),
          knobs: { maxTokens: CLAUDE_CODE_MAX_TOKENS, temperature: 1 },
          wire: ctx.wire,
          sessionId: ctx.sessionId,
          backgroundEnded: { text: taskNotification, at: "next-user" },
        });
        return ctx.mode === "plan" ? withPlanReminder(request, ctx.scratchDir) : request;
      },
    };
  },
};
