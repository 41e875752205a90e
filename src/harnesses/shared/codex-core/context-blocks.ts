import path from "node:path";

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
  /** Codex 0.171's `<filesystem>` element, one line of XML, last (see the codex harness). */
  filesystem?: string;
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
  if (input.filesystem !== undefined) lines.push(`  ${input.filesystem}`);
  lines.push("</environment_context>");
  return lines.join("\n");
}

function element(name: string, value: string): string {
  return `  <${name}>${escapeXml(value)}</${name}>`;
}

export function escapeXml(value: string): string {
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
 * Codex's skills section (`<skills_instructions>`): what a skill is, a table of short aliases for
 * the folders holding them (`r0`, `r1`, ...), then the catalog as name, description and
 * alias-relative path. `howTo` adds the usage rules Codex gives its catalog families. Empty when
 * there are no skills.
 */
export function skillsBlock(
  skills: Array<{ name: string; description: string; path: string }>,
  options: { howTo?: boolean } = {},
): string {
  if (skills.length === 0) return "";
  const roots = [...new Set(skills.map((s) => path.dirname(path.dirname(s.path))))];
  const short = (file: string) => {
    const root = roots.indexOf(path.dirname(path.dirname(file)));
    return `r${root}/${path.relative(roots[root] ?? "", file)}`;
  };
  return [
    "<skills_instructions>",
    "## Skills",
    "A skill is a folder of instructions (its `SKILL.md`) and optional scripts for one kind of task. These skills are available; each entry gives a name, a description and a short path whose alias the skill roots table expands.",
    "### Skill roots",
    ...roots.map((root, index) => `- \`r${index}\` = \`${root}\``),
    "### Available skills",
    ...skills.map((s) => `- ${s.name}: ${s.description} (file: ${short(s.path)})`),
    ...(options.howTo ? HOW_TO : []),
    "</skills_instructions>",
  ].join("\n");
}

const HOW_TO = [
  "### How to use skills",
  "- Finding them: the list above is every skill of this session. Expand a short path with its alias from `### Skill roots` to find the skill on disk.",
  "- When to use one: when the user names a skill (as `$name` or in words) or the task plainly fits a description above, use that skill in this turn; several named means all of them. A skill does not carry over to later turns unless named again.",
  "- If a named skill is missing or its file cannot be read, say so in a sentence and go on as well as you can without it.",
  "- Using a skill, step by step:",
  "  1) Expand its path and read its whole `SKILL.md` before acting; if a read stops early, keep reading to the end.",
  "  2) Resolve relative paths in `SKILL.md` (such as `scripts/run.py`) against the folder of that `SKILL.md` first.",
  "  3) When it points to more folders (such as `references/`), follow its directions to the files the task needs and read those yourself before acting on them; never hand the reading of skill instructions to a subagent (subagents may still do task work where the skill allows).",
  "  4) Prefer running or patching its `scripts/` over typing large blocks of code again.",
  "  5) Reuse its `assets/` and templates instead of rebuilding them.",
  "- Several skills: pick the smallest set that covers the request and say in which order you use them.",
  "- Say in one short line which skills you use and why; if you skip one that obviously fits, say why.",
  "- Keep the context lean: choose files selectively, but read a chosen instruction file completely; do not load unrelated references, scripts or assets; do not chase references beyond what `SKILL.md` links unless you are stuck; where variants exist (frameworks, providers), open only the one that applies and say which.",
  "- If a skill cannot be applied cleanly (missing files, unclear steps), name the problem, take the next best approach and keep going.",
];
