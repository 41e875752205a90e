import type { HarnessContext } from "../types.js";
import prompt from "./prompt.md";

/**
 * Qwen Code 0.24.4's system prompt outline (its `-p` mode): mandates, workflows, operational
 * guidelines, the sandbox and git sections, examples in the bracketed `[tool_call: ...]` style,
 * a final reminder and the output-language section. Its auto-memory section is left out: there
 * is no memory store here. Our wording; their structure. AGENTS.md follows after `---`, where
 * Qwen Code appends its QWEN.md memory.
 */
export function qwenSystemPrompt(ctx: HarnessContext): string {
  const base = prompt
    .replace("{{SANDBOX}}", ctx.mode === "full-access" ? OUTSIDE_SANDBOX : SANDBOX)
    .replace("{{GIT}}", ctx.isGitRepo ? GIT : "")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd();
  const memory = ctx.instructions.trim();
  if (!memory) return base;
  return `${base}\n\n---\n\n--- Context from: AGENTS.md ---\n${memory}\n--- End of Context from: AGENTS.md ---`;
}

const OUTSIDE_SANDBOX = `# Outside of Sandbox
You are running outside of a sandbox, directly on the user's system. For critical commands that are especially likely to change the system outside the project directory or the system temp directory, remind the user to consider sandboxing when you explain the command (per the Explain Critical Commands rule above).`;

const SANDBOX = `# Sandbox
Commands may run in a sandbox with limited access to files outside the project directory and the system temp directory, and without network access. If a command fails with 'Operation not permitted' or a similar error that could come from the sandbox, say so when you report the error, explain why you think the sandbox is the cause, and tell the user how they could allow it.`;

const GIT = `# Git Repository
- The current working (project) directory is a git repository.
- When asked to commit or to prepare a commit, first collect information with shell commands:
  - \`git status\` to make sure every relevant file is tracked and staged, using \`git add ...\` as needed.
  - \`git diff HEAD\` to review every change (staged or not) to tracked files since the last commit.
    - \`git diff --staged\` to review only the staged changes when a partial commit makes sense or was asked for.
  - \`git log -n 3\` to see recent commit messages and match their style (length, formatting, sign-off lines, etc.)
- Combine shell commands where you can to save steps, e.g. \`git status && git diff HEAD && git log -n 3\`.
- Always propose a draft commit message. Never just ask the user to write the whole message.
- Prefer clear, concise commit messages that explain "why" more than "what".
- Keep the user informed and ask for clarification or confirmation where needed.
- After each commit, check that it worked by running \`git status\`.
- If a commit fails, do not try to work around the problem unless asked to.
- Never push to a remote repository unless the user explicitly asks.

## Git as Source of Truth
- What the repository says beats what you remember: check \`git status\`, \`git log\` or \`git diff\` rather than assuming what changed, was committed or is still pending.
- Before you say work is done, look at the diff to confirm that the changes you describe are really there, and that nothing unrelated slipped in.`;
