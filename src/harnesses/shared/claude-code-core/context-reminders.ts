import type { HarnessContext } from "../../types.js";

/**
 * The context Claude Code opens the conversation with, with its tags, headings and labels and our
 * own sentences: the skills reminder, then the user-context reminder whose `# claudeMd` and
 * `# currentDate` keys 2.1.44 sends at the start of the first user message. Both Claude Code
 * profiles send them.
 */

/**
 * The `<system-reminder>`s that open the first user message, in Claude Code's order: the skills
 * list (when there are skills), then the user context: memory files when there are any, and
 * today's date unless the system prompt already carries it (`date: false`, the bare profile).
 */
export function contextReminders(
  ctx: Pick<HarnessContext, "skills" | "instructions" | "currentDate">,
  options: { date: boolean } = { date: true },
): string[] {
  const reminders: string[] = [];
  if (ctx.skills?.length) reminders.push(skillsReminder(ctx.skills));
  if (options.date || ctx.instructions.trim()) reminders.push(userContextReminder(ctx, options));
  return reminders;
}

/**
 * Claude Code lists skills in a `<system-reminder>` as `- name: description` lines for its Skill
 * tool; each line also names the SKILL.md file, so a model can Read it directly.
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
 * One reminder with a `# key` section per piece of context, as 2.1.44 sends it: `# claudeMd`
 * (AGENTS.md in the place Claude Code gives CLAUDE.md) when the session has instructions, then
 * `# currentDate`. The instructions arrive as one text, so the `Contents of` line names the file
 * kind rather than each file's path.
 */
export function userContextReminder(
  ctx: Pick<HarnessContext, "instructions" | "currentDate">,
  options: { date: boolean } = { date: true },
): string {
  const memory = ctx.instructions.trim()
    ? [
        "# claudeMd",
        "The codebase and user instructions follow. Keep to them. IMPORTANT: they take precedence over your default behavior, and you MUST follow them exactly as written.",
        "",
        "Contents of AGENTS.md (project instructions, checked into the codebase):",
        "",
        ctx.instructions.trimEnd(),
      ]
    : [];
  return [
    "<system-reminder>",
    "Use the following context when you answer the user's questions:",
    ...memory,
    ...(options.date ? ["# currentDate", `The date today is ${ctx.currentDate}.`] : []),
    "",
    "      IMPORTANT: this context may or may not matter for your task. Do not respond to it unless it is highly relevant to what you are doing.",
    "</system-reminder>",
  ].join("\n");
}
