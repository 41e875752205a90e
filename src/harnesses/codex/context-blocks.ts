import type { Mode } from "../../config/types.js";

/**
 * The context messages Codex injects ahead of the conversation, with Codex's tags and layout:
 * `<environment_context>` (user role), the AGENTS.md block (user role) and
 * `<permissions instructions>` (developer role; chat servers usually want it in the system prompt).
 * Sources: codex-rs `core/src/context/world_state/environment.rs`,
 * `core/src/context/user_instructions.rs`, `prompts/src/permissions_instructions.rs`.
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
 * Our modes in Codex's vocabulary: sandbox_mode + approval_policy, one sentence for the sandbox,
 * one section for approvals, then the writable roots. The wording is ours; the shape, the names
 * (`sandbox_mode`, `approval_policy`, their values) and the tags are Codex's.
 */
export function permissionsBlock(input: {
  mode: Mode;
  writableRoots?: string[];
  /** False when no OS sandbox works: `auto` then asks like `workspace-write` and says so. */
  sandboxed?: boolean;
}): string {
  const mode = input.mode === "auto" && input.sandboxed === false ? "workspace-write" : input.mode;
  const sections = [SANDBOX[mode], APPROVAL[mode]];
  const roots = [...(input.writableRoots ?? [])].sort();
  if (roots.length > 0 && mode !== "full-access" && mode !== "read-only") {
    const list = roots.map((root) => `\`${root}\``);
    sections.push(
      list.length === 1 ? ` The writable root is ${list[0]}.` : ` The writable roots are ${list.join(", ")}.`,
    );
  }
  return `<permissions instructions>\n${sections.join("\n")}\n</permissions instructions>`;
}

const SANDBOX_PREFIX = "Filesystem sandboxing decides which files your commands may read and write.";
const ESCALATE =
  ' To run one command outside the sandbox (network, files outside the writable roots), call `shell_command` with `sandbox_permissions` set to `"require_escalated"` and a one-sentence `justification`; the user decides.';

const SANDBOX: Record<Mode, string> = {
  "read-only": `${SANDBOX_PREFIX} \`sandbox_mode\` is \`read-only\`: commands may read files but not change them. Network access is restricted.${ESCALATE}`,
  "workspace-write": `${SANDBOX_PREFIX} \`sandbox_mode\` is \`workspace-write\`: commands may read anywhere and write inside \`cwd\` and the \`writable_roots\`; writing anywhere else needs approval. Network access is restricted.${ESCALATE}`,
  auto: `${SANDBOX_PREFIX} \`sandbox_mode\` is \`workspace-write\`: commands may read anywhere and write inside \`cwd\` and the \`writable_roots\`; writing anywhere else needs approval. Network access is restricted.${ESCALATE}`,
  "full-access": `${SANDBOX_PREFIX} \`sandbox_mode\` is \`danger-full-access\`: nothing is sandboxed, every command can touch any file. Network access is enabled.`,
};

const UNLESS_TRUSTED =
  "Approvals are how the user consents to actions beyond what is already allowed. `approval_policy` is `unless-trusted`: apart from a short list of known read-only commands, every command and every file edit is shown to the user for approval before it runs.";

const UNLESS_TRUSTED_EDITS =
  "Approvals are how the user consents to actions beyond what is already allowed. `approval_policy` is `unless-trusted`: apart from a short list of known read-only commands, every command is shown to the user for approval before it runs. File edits inside the writable roots apply without asking.";

const ON_REQUEST = `# Escalation Requests

Commands and file edits run inside the sandbox without asking. Anything the sandbox does not allow is sent to the user for approval first, and the user's answer decides whether it runs.

## When escalation is needed

- A command has to write outside the writable roots (for example a tool that writes to a system cache).
- A command needs the network (installing dependencies, fetching from a registry, calling an API).
- A command opens a GUI application or a browser.
- An important command failed because of the sandbox or with what looks like a sandbox-related network error (DNS resolution, registry access, a failed download): run it again as it is so the user can approve it, rather than working around the restriction.
- You are about to do something destructive the user did not ask for, such as \`rm -rf\` or \`git reset --hard\`: say so first.
- Escalate only when the task needs it, and never try to slip past an approval by using a different tool.`;

const NEVER =
  "`approval_policy` is `never`: commands run without asking the user, and nothing can be escalated. When something fails, the failure comes straight back to you; work with it.";

const APPROVAL: Record<Mode, string> = {
  "read-only": UNLESS_TRUSTED,
  "workspace-write": UNLESS_TRUSTED_EDITS,
  auto: ON_REQUEST,
  "full-access": NEVER,
};

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
