import os from "node:os";
import type { HarnessContext } from "../types.js";

/**
 * The context Claude Code puts around the conversation, with its tags, headings and labels and
 * our own sentences: the `<env>` block closing the system prompt (1.0.x layout: working
 * directory, git repo Yes/No, platform, OS version, today's date, then the model line), the
 * skills and CLAUDE.md memory reminders that open the first user message (`# claudeMd`,
 * `Contents of …`), and the bare prompt (`CWD:` / `Date:`, OI `claude_code_prompt.rs::build_bare_system_prompt`).
 */

export function environmentBlock(ctx: HarnessContext): string {
  const name = modelDisplayName(ctx.model);
  const modelLine =
    name === ctx.model
      ? `You are powered by the model ${ctx.model}.`
      : `You are powered by the model named ${name}. The exact model ID is ${canonicalModelId(ctx.model)}.`;
  return [
    "Facts about the environment you are working in:",
    "<env>",
    `Working directory: ${ctx.cwd}`,
    `Is directory a git repo: ${ctx.isGitRepo ? "Yes" : "No"}`,
    `Platform: ${ctx.platform}`,
    `OS Version: ${os.type()} ${os.release()}`,
    `Today's date: ${ctx.currentDate}`,
    "</env>",
    modelLine,
  ].join("\n");
}

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

/** The whole system prompt of Claude Code's minimal ("bare") mode: identity, cwd, date. */
export function bareSystemPrompt(ctx: HarnessContext): string {
  return `You are a software engineering agent running in Open Interpreter.\n\nCWD: ${ctx.cwd}\nDate: ${ctx.currentDate}`;
}

/** `claude-sonnet-4-5-20250929` → `Sonnet 4.5`; ids that are not Claude's come back unchanged. */
export function modelDisplayName(model: string): string {
  const slug = canonicalModelId(model);
  const match = /^claude-(opus|sonnet|haiku)-(\d+)(?:[-.](\d{1,2}))?(?:-\d{8})?$/.exec(slug);
  if (!match) return model;
  const family = match[1]!.charAt(0).toUpperCase() + match[1]!.slice(1);
  return match[3] ? `${family} ${match[2]}.${match[3]}` : `${family} ${match[2]}`;
}

/** Drops a provider prefix (`anthropic/`) and a variant suffix (`:thinking`). */
function canonicalModelId(model: string): string {
  return (model.split(":")[0] ?? model).split("/").at(-1) ?? model;
}
