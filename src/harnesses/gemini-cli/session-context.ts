import { longDate } from "../shared/gemini-core/long-date.js";
import type { HarnessContext } from "../types.js";
import { folderStructure } from "./folder-structure.js";

/**
 * Gemini CLI's first user message (google-gemini/gemini-cli
 * `packages/core/src/utils/environmentContext.ts::getEnvironmentContext`): date, OS, temp dir,
 * workspace folders with their capped trees, then the project memory (here AGENTS.md) inside
 * `<loaded_context><project_context>`. The opening sentence is kept as Gemini CLI sends it: it
 * marks the message as set-up context rather than a request.
 */
export function sessionContext(ctx: HarnessContext): string {
  const roots = ctx.roots.length > 0 ? ctx.roots : [ctx.cwd];
  const directoryContext = `- **Workspace Directories:**\n${roots.map((dir) => `  - ${dir}`).join("\n")}
- **Directory Structure:**

${roots.map((dir) => folderStructure(dir)).join("\n")}`;
  return `
<session_context>
This is the Gemini CLI. We are setting up the context for our chat.
Today's date is ${longDate(ctx.currentDate)} (formatted according to the user's locale).
My operating system is: ${ctx.platform}
The project's temporary directory is: ${ctx.scratchDir}
${directoryContext}

${projectMemory(ctx.instructions)}
</session_context>`.trim();
}

/** Gemini CLI's tier-2 memory block; each file is framed the way its memory loader frames GEMINI.md. */
export function projectMemory(instructions: string): string {
  const text = instructions.trim();
  if (!text) return "";
  const framed = `--- Context from: AGENTS.md ---\n${text}\n--- End of Context from: AGENTS.md ---`;
  return `\n<loaded_context>\n<project_context>\n${framed}\n</project_context>\n</loaded_context>`;
}
