import os from "node:os";
import type { HarnessContext } from "../types.js";

/**
 * The `<env>` block closing Claude Code's system prompt, in its 1.0.x layout: working directory,
 * git repo Yes/No, platform, OS version, today's date, then the model line.
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
