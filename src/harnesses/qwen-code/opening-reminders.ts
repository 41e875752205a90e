import { readdirSync } from "node:fs";
import { longDate } from "../shared/gemini-core/long-date.js";
import type { HarnessContext } from "../types.js";

/** Qwen Code shows at most this many top-level entries in its startup context. */
export const STARTUP_LISTING_LIMIT = 20;

/**
 * The reminders that open Qwen Code 0.24.4's first user message, in its order: the skills
 * catalog (when there are skills), then the environment. The date goes with the newest prompt
 * instead (`dateReminder`). Its deferred-tools reminder has no counterpart until tool search
 * exists here. Tags and order are Qwen's; the sentences are ours.
 */
export function openingReminders(ctx: HarnessContext): string[] {
  const reminders: string[] = [];
  if (ctx.skills.length > 0) reminders.push(skillsReminder(ctx.skills));
  reminders.push(environmentReminder(ctx));
  return reminders;
}

/** The `<available_skills>` catalog Qwen Code's `skill` tool draws on, one `<skill>` block each. */
export function skillsReminder(skills: HarnessContext["skills"]): string {
  const entries = skills.map((skill) =>
    [
      "<skill>",
      `<name>${skill.name}</name>`,
      `<description>${skill.description}</description>`,
      `<location>${skill.path}</location>`,
      "</skill>",
    ].join("\n"),
  );
  return `<system-reminder>
Skills below can be loaded with the skill tool when a task fits one; load it before you start that work.
<available_skills>
${entries.join("\n")}
</available_skills>
</system-reminder>`;
}

/** Operating system, working directory and its first entries, set up once per session. */
export function environmentReminder(ctx: HarnessContext): string {
  return `<system-reminder>
Session context, not a request from the user.
Operating system: ${ctx.platform}
Working directory: ${ctx.cwd}
Top of the working directory (at most ${STARTUP_LISTING_LIMIT} entries):

${folderListing(ctx.cwd)}
</system-reminder>`;
}

/** The date Qwen Code puts right before the newest prompt, to be trusted over the model's own guess. */
export function dateReminder(ctx: HarnessContext): string {
  return `<system-reminder>
Today is ${longDate(ctx.currentDate)}. Take this date as correct when a task depends on it, even where it differs from what your training suggests.
</system-reminder>`;
}

/** `cwd/` then its non-hidden entries, sorted, folders marked with `/`, tree connectors. */
export function folderListing(cwd: string): string {
  const lines = [`${cwd}/`];
  let names: string[] = [];
  try {
    names = readdirSync(cwd, { withFileTypes: true })
      .filter((entry) => !entry.name.startsWith("."))
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  } catch {
    // An unreadable folder shows just its own name, as upstream does.
  }
  const shown = names.slice(0, STARTUP_LISTING_LIMIT);
  for (const [i, name] of shown.entries()) lines.push(`${i === shown.length - 1 ? "└───" : "├───"}${name}`);
  return lines.join("\n");
}
