import type { HarnessContext } from "../../types.js";

/**
 * The context Claude Code opens the conversation with, with its tags, headings and labels and our
 * own sentences: the skills and CLAUDE.md memory reminders at the start of the first user message
 * (`# claudeMd`, `Contents of …`). Both Claude Code profiles send them.
 */

/**
 * The `<system-reminder>`s that open the first user message, in Claude Code's order: the skills
 * list first, then the memory files. Empty when the session has neither.
 */
export function contextReminders(ctx: Pick<HarnessContext, "skills" | "instructions">): string[] {
  const reminders: string[] = [];
  if (ctx.skills?.length) reminders.push(skillsReminder(ctx.skills));
  if (ctx.instructions.trim()) reminders.push(claudeMdReminder(ctx.instructions));
  return reminders;
}

/**
 * Claude Code lists skills in a `<system-reminder>` as `- name: description` lines for its Skill
 * tool. There is no Skill tool here, so each line also names the SKILL.md file and the sentence
 * tells the model to Read it (as upstream Open Interpreter does for its bare profile).
 */
export function skillsReminder(skills: HarnessContext["skills"]): string {
  return [
    "<system-reminder>",
    "These skills are available through the Skill tool. When a task matches one, invoke it before starting the work:",
    "",
    ...skills.map((skill) => `- ${skill.name}: ${skill.description} (file: ${skill.path})`),
    "</system-reminder>",
  ].join("\n");
}

/**
 * AGENTS.md in the place Claude Code gives CLAUDE.md: a `<system-reminder>` at the start of the
 * first user message. The instructions arrive as one text, so the `Contents of` line names the
 * file kind rather than each file's path.
 */
export function claudeMdReminder(instructions: string): string {
  return [
    "<system-reminder>",
    "Use the following context when you answer the user's questions:",
    "# claudeMd",
    "The codebase and user instructions follow. Keep to them. IMPORTANT: they take precedence over your default behavior, and you MUST follow them exactly as written.",
    "",
    "Contents of AGENTS.md (project instructions, checked into the codebase):",
    "",
    instructions.trimEnd(),
    "",
    "      IMPORTANT: this context may or may not matter for your task. Do not respond to it unless it is highly relevant to what you are doing.",
    "</system-reminder>",
  ].join("\n");
}
