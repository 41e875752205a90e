import { workDirListing } from "../shared/work-dir-listing.js";
import type { HarnessContext } from "../types.js";
import { isWithin } from "./path-access.js";
import template from "./system-prompt.md";

/**
 * Kimi Code 2.1.0's system prompt: our text in the sections of its `agentProfileCatalog/
 * system.md`: role, Communicating with the user, Tool use, Coding, Risky actions, Delivering
 * work, Context management, Environment (OS and shell, working directory with its capped listing,
 * additional directories), Project information (AGENTS.md), Skills (only when there are some).
 * The date is not here: 2.1.0 tells it in a reminder after the first prompt (render.ts).
 * The product-name slot names us, as upstream's `product_name` lets an embedder do.
 */
export function kimiSystemPrompt(ctx: HarnessContext): string {
  const slots: Record<string, string> = {
    KIMI_OS: osLabel(ctx.platform),
    // Commands run through `/bin/bash -c` whatever the user's login shell is.
    KIMI_SHELL: "bash (`/bin/bash`)",
    KIMI_WORK_DIR: ctx.cwd,
    KIMI_WORK_DIR_LS: workDirListing(ctx.cwd, { collapseHiddenDirs: true }),
    KIMI_ADDITIONAL_DIRS_SECTION: additionalDirsSection(ctx),
    KIMI_AGENTS_MD: ctx.instructions.trim(),
    KIMI_SKILLS_SECTION: skillsSection(ctx),
  };
  return template.replace(/\{\{ ([A-Z_]+) \}\}/g, (match, name: string) => slots[name] ?? match).trimEnd();
}

function osLabel(platform: string): string {
  if (platform === "darwin") return "macOS";
  if (platform === "linux") return "Linux";
  if (platform === "win32") return "Windows";
  return platform;
}

function additionalDirsSection(ctx: HarnessContext): string {
  const extra = ctx.roots.filter((root) => root !== ctx.cwd);
  if (extra.length === 0) return "";
  const info = extra.map((dir) => `### ${dir}\n${workDirListing(dir)}`).join("\n\n");
  return (
    "\n## Additional Directories\n\n" +
    "These directories were added to the workspace as well. Reading, writing, searching and globbing files in them is within your workspace scope.\n\n" +
    `${info}\n`
  );
}

/** Kimi Code's listing shape: one heading per scope, `- name: description` and an indented `Path:`. */
function skillsSection(ctx: HarnessContext): string {
  if (ctx.skills.length === 0) return "";
  const scopes = new Map<string, string[]>();
  for (const skill of ctx.skills) {
    const scope = ctx.roots.some((root) => isWithin(skill.path, root)) ? "Project" : "User";
    const lines = scopes.get(scope) ?? [];
    lines.push(`- ${skill.name}: ${skill.description}\n  Path: ${skill.path}`);
    scopes.set(scope, lines);
  }
  const listing = ["Project", "User"]
    .filter((scope) => scopes.has(scope))
    .map((scope) => `### ${scope}\n${scopes.get(scope)!.join("\n")}`)
    .join("\n\n");
  return (
    "\n# Skills\n\n" +
    "Skills are reusable capabilities that extend what you can do. Each one is either a directory holding a `SKILL.md` file or a single `.md` file, with instructions, examples or reference material.\n\n" +
    "Pick out the skills that matter for the task at hand and read their skill file for instructions; read further skill material only when you need it, to save context.\n\n" +
    "## Available skills\n\n" +
    'Skills are grouped by scope (`Project`, `User`) so you can tell where each one comes from. When the user speaks of "the skill in this project" or "the user-scope skill", the scope heading tells them apart. When two scopes define a skill with the same name, the more specific scope wins: **Project overrides User**.\n\n' +
    `${listing}\n`
  );
}
