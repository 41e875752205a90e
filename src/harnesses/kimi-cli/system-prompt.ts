import { loadKimiAgentsMd } from "../../context/kimi-agents-md.js";
import { workDirListing } from "../shared/work-dir-listing.js";
import type { HarnessContext } from "../types.js";
import { isWithinRoots } from "./paths.js";
import { fillSlots } from "./slots.js";
import template from "./system-prompt.md";

/**
 * Kimi CLI 1.49.0's system prompt (`agents/default/system.md`): our text in its sections, its
 * `${…}` slots filled as `soul/agent.py` fills them, and its two Jinja conditionals (the Windows
 * hint, the additional directories) rendered with its `trim_blocks` settings. A subagent's
 * `ROLE_ADDITIONAL` comes from its profile.
 */
export function kimiCliSystemPrompt(ctx: HarnessContext, roleAdditional = ""): string {
  const os = osLabel(ctx.platform);
  const extra = ctx.roots.filter((root) => root !== ctx.cwd);
  const slots: Record<string, string> = {
    ROLE_ADDITIONAL: roleAdditional,
    KIMI_OS: os,
    // Commands run through `/bin/bash -c` whatever the user's login shell is.
    KIMI_SHELL: "bash (`/bin/bash`)",
    // The session's start date: it keeps the prefix stable, and the prompt sends the model to Shell for the time.
    KIMI_NOW: ctx.currentDate,
    KIMI_WORK_DIR: ctx.cwd,
    KIMI_WORK_DIR_LS: workDirListing(ctx.cwd, { order: "codepoint" }),
    KIMI_ADDITIONAL_DIRS_INFO: extra
      .map((dir) => `### \`${dir}\`\n\n\`\`\`\n${workDirListing(dir, { order: "codepoint" })}\n\`\`\``)
      .join("\n\n"),
    KIMI_AGENTS_MD: loadKimiAgentsMd(ctx.cwd),
    KIMI_SKILLS: skills(ctx),
  };
  const rendered = template
    .trim()
    .replace(/\{% if KIMI_OS == "Windows" %\}([\s\S]*?)\{% endif \+%\}/g, (_, body: string) =>
      os === "Windows" ? body : "",
    )
    .replace(/\{% if KIMI_ADDITIONAL_DIRS_INFO %\}\n([\s\S]*?)\{% endif %\}\n/g, (_, body: string) =>
      slots.KIMI_ADDITIONAL_DIRS_INFO ? body : "",
    );
  return fillSlots(rendered, slots);
}

function osLabel(platform: string): string {
  if (platform === "darwin") return "macOS";
  if (platform === "linux") return "Linux";
  if (platform === "win32") return "Windows";
  return platform;
}

/** 1.49.0's listing: one heading per scope, the name, then its path and description indented. */
function skills(ctx: HarnessContext): string {
  if (ctx.skills.length === 0) return "No skills found.";
  const scopes = new Map<string, string[]>();
  for (const skill of ctx.skills) {
    const scope = isWithinRoots(skill.path, ctx.roots) ? "Project" : "User";
    const lines = scopes.get(scope) ?? [];
    lines.push(`- ${skill.name}\n  - Path: ${skill.path}\n  - Description: ${skill.description}`);
    scopes.set(scope, lines);
  }
  return ["Project", "User"]
    .filter((scope) => scopes.has(scope))
    .map((scope) => `### ${scope}\n${scopes.get(scope)!.join("\n")}`)
    .join("\n\n");
}
