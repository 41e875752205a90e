/**
 * The context messages Codex injects ahead of the conversation, with Codex's tags and layout:
 * `<environment_context>` (user role), the AGENTS.md block (user role) and the skills section.
 * Sources: codex-rs `core/src/context/world_state/environment.rs`,
 * `core/src/context/user_instructions.rs`.
 */

export interface EnvironmentContextInput {
  cwd: string;
  /** Shell name as Codex prints it: `bash`, `zsh`, `sh`, `powershell`, `cmd`. */
  shell?: string;
  /** Local date, `YYYY-MM-DD`. */
  currentDate?: string;
  /** IANA zone, e.g. `Europe/Berlin`. */
  timezone?: string;
  /** Only when a network allow/deny list is configured; Codex omits the element otherwise. */
  network?: { allowedDomains: string[]; deniedDomains: string[] };
}

export function environmentContext(input: EnvironmentContextInput): string {
  const lines = ["<environment_context>", element("cwd", input.cwd)];
  if (input.shell !== undefined) lines.push(element("shell", input.shell));
  if (input.currentDate !== undefined) lines.push(element("current_date", input.currentDate));
  if (input.timezone !== undefined) lines.push(element("timezone", input.timezone));
  if (input.network) {
    const { allowedDomains, deniedDomains } = input.network;
    const allowed = allowedDomains.length > 0 ? `<allowed>${allowedDomains.join(",")}</allowed>` : "";
    const denied = deniedDomains.length > 0 ? `<denied>${deniedDomains.join(",")}</denied>` : "";
    lines.push(`  <network enabled="true">${allowed}${denied}</network>`);
  }
  lines.push("</environment_context>");
  return lines.join("\n");
}

function element(name: string, value: string): string {
  return `  <${name}>${escapeXml(value)}</${name}>`;
}

function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch] ?? ch);
}

const XML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/**
 * All AGENTS.md instructions in one user message. `directory` is the session cwd (Codex names the
 * cwd, not each file's folder); without it the heading has no `for` part, as Codex renders
 * global-only instructions. `text` is the concatenation from `loadAgentsMd`.
 */
export function agentsMdBlock(input: { directory?: string; text: string }): string {
  const heading = input.directory
    ? `# AGENTS.md instructions for ${input.directory}`
    : "# AGENTS.md instructions";
  return `${heading}\n\n<INSTRUCTIONS>\n${input.text}\n</INSTRUCTIONS>`;
}

/**
 * Codex's skills section (a user message wrapped in `<skills_instructions>`): the catalog of
 * name, description and path, then how to use a skill. Empty when there are no skills.
 */
export function skillsBlock(skills: Array<{ name: string; description: string; path: string }>): string {
  if (skills.length === 0) return "";
  const lines = skills.map((s) => `- ${s.name}: ${s.description} (file: ${s.path})`);
  return [
    "<skills_instructions>",
    "## Skills",
    "A skill is a folder of instructions and optional scripts for one kind of task, described in its SKILL.md.",
    "### Available skills",
    ...lines,
    "### How to use skills",
    "- When a task matches a skill's description, or the user names it, open its SKILL.md before you start and follow it.",
    "- Resolve paths mentioned in SKILL.md against the skill's folder; open referenced files only when you need them.",
    "- Prefer running a skill's bundled scripts over rewriting them.",
    "</skills_instructions>",
  ].join("\n");
}
