import { ReadTracker } from "../../tools/fs/read-tracker.js";
import compactPrompt from "../shared/claude-code-core/compact-prompt.md";
import { contextReminders } from "../shared/claude-code-core/context-reminders.js";
import { toolUseError } from "../shared/claude-code-core/format.js";
import { gitStatusBlock, joinSections } from "../shared/claude-code-core/git-status-block.js";
import { CLAUDE_AGENT_IDENTITY } from "../shared/claude-code-core/identity.js";
import { renderClaudeCode } from "../shared/claude-code-core/render.js";
import { bashTool } from "../shared/claude-code-core/tools/bash.js";
import { editTool } from "../shared/claude-code-core/tools/edit.js";
import { FILE_UNCHANGED_STUB, readTool } from "../shared/claude-code-core/tools/read.js";
import type { Harness, HarnessContext } from "../types.js";
import { claudeCodeBareInfo } from "./claude-code-bare-info.js";

/**
 * The one-line descriptions Claude Code's minimal mode gives its three tools (OI
 * `claude_code.rs::build_tools` for the bare profile; ours say "text files" because Read here
 * reads text only).
 */
export const BARE_DESCRIPTIONS = {
  Bash: "execute shell commands",
  Read: "read text files",
  Edit: "modify file contents in place",
} as const;

/**
 * Claude Code's minimal mode, the upstream Open Interpreter choice for DeepSeek: only Bash, Read
 * and Edit with one-line descriptions, the Claude agent identity block (as upstream sends its SDK
 * identity), then `CWD:`, `Date:` and the git-status snapshot, and Edit refusing files that were
 * not Read. No `max_tokens` is sent: DeepSeek's chat models
 * reject values above their own output limit, and upstream sends none on the chat wire.
 */
export const claudeCodeBareHarness: Harness = {
  ...claudeCodeBareInfo,
  output: { unchangedRead: FILE_UNCHANGED_STUB, foreignMaxChars: 100_000 },
  compaction: { reserve: 33_000, prompt: compactPrompt },
  toolError: toolUseError,
  open(ctx) {
    const files = new ReadTracker();
    const tools = [
      bashTool({ scratchDir: ctx.scratchDir, description: BARE_DESCRIPTIONS.Bash }),
      readTool({ files, images: ctx.images, description: BARE_DESCRIPTIONS.Read }),
      editTool({ files, description: BARE_DESCRIPTIONS.Edit }),
    ];
    return {
      tools,
      render({ history, tools, ctx }) {
        return renderClaudeCode({
          history,
          tools,
          harness: "claude-code-bare",
          identity: CLAUDE_AGENT_IDENTITY,
          system: bareSystemPrompt(ctx),
          reminders: contextReminders(ctx, { date: false }),
          wire: ctx.wire,
          sessionId: ctx.sessionId,
        });
      },
    };
  },
};

/**
 * The system prompt of Claude Code's minimal mode after its identity block: cwd, date and the
 * git-status snapshot (OI `claude_code_prompt.rs::build_bare_system_prompt`).
 */
export function bareSystemPrompt(ctx: HarnessContext): string {
  return joinSections(`CWD: ${ctx.cwd}\nDate: ${ctx.currentDate}`, gitStatusBlock(ctx.git));
}
