import type { Mode } from "../../config/types.js";
import type { HarnessContext } from "../types.js";
import gemini3Prompt from "./prompt.gemini-3.md";
import legacyPrompt from "./prompt.legacy.md";
import { toolFamily } from "./tool-family.js";

/**
 * Gemini CLI's system prompt for the model's family (google-gemini/gemini-cli
 * `packages/core/src/prompts/snippets.ts` for Gemini 3, `snippets.legacy.ts` for every other
 * model). Gemini 3: preamble with the approval mode, Core Mandates in subsections (Security &
 * System Integrity, Context Efficiency, Engineering Standards), Primary Workflows (Development
 * Lifecycle, New Applications), Operational Guidelines, Git Repository. Others: one flat Core
 * Mandates list, Software Engineering Tasks, shell output efficiency, the sandbox section and a
 * Final Reminder. The skills catalog sits where Gemini CLI puts it, after the mandates. Gemini CLI
 * loads a skill with its `activate_skill` tool; here the model reads the skill's file itself.
 * Topic updates, sub-agents and hooks have no counterpart here, so their sections are left out.
 * Our wording, their sections and slots. AGENTS.md is not appended here: Gemini CLI puts
 * project memory in the first user message.
 */
export function geminiSystemPrompt(ctx: HarnessContext): string {
  const mode = MODES[ctx.mode];
  const legacy = toolFamily(ctx.model) === "default-legacy";
  const text = (legacy ? legacyPrompt : gemini3Prompt)
    .replace("{{MODE}}", mode)
    .replace("{{SKILL_GUIDANCE}}", ctx.skills.length > 0 ? SKILL_GUIDANCE : "")
    .replace("{{SKILLS}}", skillsSection(ctx.skills))
    .replace("{{SANDBOX}}", ctx.sandboxed ? SANDBOX : OUTSIDE_SANDBOX)
    .replace("{{YOLO}}", mode === "YOLO" ? YOLO : "")
    .replace("{{GIT}}", ctx.isGitRepo ? GIT : "");
  // Gemini CLI squeezes the blank lines left by empty sections.
  return text.replace(/\n{3,}/g, "\n\n").trim();
}

/** Our modes in Gemini CLI's approval-mode names. */
const MODES: Record<Mode, string> = {
  "read-only": "Default",
  plan: "Plan",
  "workspace-write": "Auto-Edit",
  auto: "YOLO",
  "full-access": "YOLO",
};

const SKILL_GUIDANCE = `
- **Skill Guidance:** When a listed skill fits the task, read its file at the given \`location\` with \`read_file\` before you start. Treat its instructions as expert procedural guidance that takes precedence over your general defaults for the duration of the task, and use any resources it points to as needed, while still upholding your core safety and security standards.`;

/** Gemini CLI's `<available_skills>` catalog (`renderAgentSkills`), tags and fields as upstream. */
function skillsSection(skills: HarnessContext["skills"]): string {
  if (skills.length === 0) return "";
  const entries = skills
    .map(
      (skill) => `  <skill>
    <name>${skill.name}</name>
    <description>${skill.description}</description>
    <location>${skill.path}</location>
  </skill>`,
    )
    .join("\n");
  return `# Available Agent Skills

You can use the following specialized skills. To use one, read the file at its \`location\` with the \`read_file\` tool; it holds the skill's detailed instructions.

<available_skills>
${entries}
</available_skills>`;
}

const SANDBOX = `# Sandbox

You run inside a sandbox with limited access to files outside the project folder and to system resources. When a command fails with an error such as "Operation not permitted", tell the user the sandbox may be the cause and how they could change the setup.`;

const OUTSIDE_SANDBOX = `# Outside of Sandbox

You run directly on the user's system, not in a sandbox. Before a command that changes the system outside the project folder or the system's temporary folder, remind the user of that when you explain the command, and suggest running in a sandbox.`;

const YOLO = `# Autonomous Mode (YOLO)

You are working in **autonomous mode**: the user wants as few interruptions as possible.

**Stop to ask the user only when:**
- A wrong choice would mean a lot of rework
- The request is ambiguous at its core and has no sensible default
- The user explicitly asked you to confirm or to ask questions

**Otherwise, keep working on your own:**
- Decide sensibly from the context and the existing code
- Follow the project's established conventions
- When several approaches are valid, pick the most robust one`;

const GIT = `# Git Repository

- The current working (project) directory is a git repository.
- **NEVER** stage or commit your changes unless you are explicitly told to commit. For example:
  - "Commit the change" -> add the changed files and commit.
  - "Wrap up this PR for me" -> do not commit.
- When asked to commit or to prepare a commit, first collect information with shell commands:
  - \`git status\` to make sure every relevant file is tracked and staged, using \`git add <file>...\` for specific files as needed.
  - \`git diff HEAD\` to review every change (staged or not) to tracked files since the last commit.
    - \`git diff --staged\` to review only the staged changes when a partial commit makes sense or was asked for.
  - \`git log -n 3\` to see recent commit messages and match their style (length, formatting, sign-off lines, etc.)
- Do not run \`git add .\` or \`git add -A\` unprompted; they can stage unwanted or untracked files. Stage only the files you changed or created for the task.
- Combine shell commands where you can to save steps, e.g. \`git status && git diff HEAD && git log -n 3\`.
- Always propose a draft commit message. Never just ask the user to write the whole message.
- Prefer clear, concise commit messages that explain "why" more than "what".
- Keep the user informed and ask for clarification or confirmation where needed.
- After each commit, check that it worked by running \`git status\`.
- If a commit fails, do not try to work around the problem unless asked to.
- Never push to a remote repository unless the user explicitly asks.`;
