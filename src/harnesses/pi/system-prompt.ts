import { piPromptTail } from "../shared/pi-core/prompt-tail.js";
import type { HarnessContext } from "../types.js";

/**
 * The fixed part of pi's default prompt: identity, the tool list with one-line snippets, the
 * guidelines its four tools contribute. Our wording, pi's layout line for line. Kept in code
 * rather than a Markdown file because the formatter would add blank lines before the lists.
 */
const PROMPT = [
  "You are an expert coding assistant working inside pi, a coding agent harness. You help users by reading files, running commands, editing code and writing new files.",
  "",
  "Available tools:",
  "- read: Read the contents of files",
  "- bash: Run bash commands (ls, grep, find, etc.)",
  "- edit: Make precise edits by exact text replacement, including several separate edits in one call",
  "- write: Create or overwrite files",
  "",
  "Besides the tools above, the project may give you other custom tools.",
  "",
  "Guidelines:",
  "- Use bash for file operations like ls, rg, find",
  "- Use read to look at files instead of cat or sed.",
  "- Use edit for precise changes (edits[].oldText must match exactly)",
  "- To change several separate places in one file, make one edit call with several entries in edits[] rather than several edit calls",
  "- Each edits[].oldText is matched against the original file, not against the result of earlier edits. Never emit overlapping or nested edits; merge nearby changes into one edit.",
  "- Keep each edits[].oldText as short as possible while it stays unique in the file. Do not pad it with large unchanged regions.",
  "- Use write only for new files or complete rewrites.",
  "- Be concise in your responses",
  "- Show file paths clearly when working with files",
].join("\n");

/**
 * pi's system prompt (pi `core/system-prompt.ts`, `buildSystemPrompt`, as openinterpreter's
 * `harness/pi.rs` sends it): identity, the tool list, guidelines, then the project context
 * files under `# Project Context`, and the date and working directory last. pi's section on
 * its own documentation is left out: it points at pi's install folder, which does not exist here.
 */
export function piSystemPrompt(ctx: HarnessContext): string {
  let text = PROMPT;
  if (ctx.instructions) {
    text += "\n\n# Project Context\n\nProject-specific instructions and guidelines:\n\n";
    text += `## AGENTS.md\n\n${ctx.instructions}\n\n`;
  }
  return text + piPromptTail(ctx);
}
