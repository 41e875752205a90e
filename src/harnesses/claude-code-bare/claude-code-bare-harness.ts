import { ReadTracker } from "../../tools/fs/read-tracker.js";
import compactPrompt from "../claude-code/compact-prompt.md";
import { bareSystemPrompt, contextReminders } from "../claude-code/context-blocks.js";
import { toolUseError } from "../claude-code/format.js";
import { renderClaudeCode } from "../claude-code/render.js";
import { bashTool } from "../claude-code/tools/bash.js";
import { editTool } from "../claude-code/tools/edit.js";
import { FILE_UNCHANGED_STUB, readTool } from "../claude-code/tools/read.js";
import type { Harness } from "../types.js";
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
 * and Edit with one-line descriptions, a system prompt of an identity line, `CWD:` and `Date:`,
 * and Edit refusing files that were not Read. No `max_tokens` is sent: DeepSeek's chat models
 * reject values above their own output limit, and upstream sends none on the chat wire.
 */
export const claudeCodeBareHarness: Harness = {
  ...claudeCodeBareInfo,
  output: { unchangedRead: FILE_UNCHANGED_STUB, foreignMaxChars: 100_000 },
  compaction: { reserve: 33_000, prompt: compactPrompt },
  toolError: toolUseError,
  open() {
    const files = new ReadTracker();
    const tools = [
      bashTool({ description: BARE_DESCRIPTIONS.Bash }),
      readTool({ files, description: BARE_DESCRIPTIONS.Read }),
      editTool({ files, description: BARE_DESCRIPTIONS.Edit }),
    ];
    return {
      tools,
      render({ history, tools, ctx }) {
        return renderClaudeCode({
          history,
          tools,
          harness: "claude-code-bare",
          system: bareSystemPrompt(ctx),
          reminders: contextReminders(ctx),
        });
      },
    };
  },
};
