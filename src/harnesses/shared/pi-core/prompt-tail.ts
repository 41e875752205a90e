import type { HarnessContext } from "../../types.js";

/**
 * What pi appends to any system prompt, its own or one given with `--system-prompt`
 * (`buildSystemPrompt`): the skills list, the date, the working directory with forward slashes.
 */
export function piPromptTail(ctx: HarnessContext): string {
  const cwd = ctx.cwd.replace(/\\/g, "/");
  return `${skillsSection(ctx.skills)}\nCurrent date: ${ctx.currentDate}\nCurrent working directory: ${cwd}`;
}

/**
 * pi's skills list (pi `core/skills.ts`, `formatSkillsForPrompt`): three lines on how to use
 * skills, then `<available_skills>` with one `<skill>` (name, description, location) each.
 */
function skillsSection(skills: HarnessContext["skills"]): string {
  if (skills.length === 0) return "";
  const lines = [
    "\n\nThe skills below hold specialized instructions for particular tasks.",
    "When a task matches a skill's description, load its file with the read tool.",
    "Relative paths inside a skill file are relative to the skill's directory (the folder holding SKILL.md); turn them into absolute paths before using them in tool calls.",
    "",
    "<available_skills>",
  ];
  for (const skill of skills) {
    lines.push("  <skill>");
    lines.push(`    <name>${escapeXml(skill.name)}</name>`);
    lines.push(`    <description>${escapeXml(skill.description)}</description>`);
    lines.push(`    <location>${escapeXml(skill.path)}</location>`);
    lines.push("  </skill>");
  }
  lines.push("</available_skills>");
  return lines.join("\n");
}

function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "apos" }[ch]};`,
  );
}
