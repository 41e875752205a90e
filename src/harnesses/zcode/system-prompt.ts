import os from "node:os";
import type { TextPart } from "../../providers/model-request.js";
import type { HarnessContext } from "../types.js";
import prompt from "./prompt.md";
import explorePrompt from "./prompt-explore.md";

/** The first system block: ZCode's one-line identity (also the WebFetch side request's system). */
export const ZCODE_IDENTITY = "You are ZCode, an interactive coding agent";

/**
 * ZCode 0.14.8's system prompt as upstream Open Interpreter 0.0.40 renders it (`zcode.rs`):
 * three cached blocks, the identity, the harness section, then the environment section with its
 * headings, labels and the `gitStatus` snapshot; our sentences. An Explore subagent gets the
 * identity and its own prompt with an `<env>` block instead.
 */
export function zcodeSystem(ctx: HarnessContext, subagent?: string): TextPart[] {
  const block = (text: string): TextPart => ({ type: "text", text, cache: true });
  if (subagent === "Explore") return [block(ZCODE_IDENTITY), block(exploreSystem(ctx))];
  return [block(ZCODE_IDENTITY), block(prompt.trimEnd()), block(environmentSection(ctx))];
}

function environmentSection(ctx: HarnessContext): string {
  return [
    "Write code that fits the code around it: its amount of comments, its naming and its idioms.",
    "",
    "Before an action that is hard to undo or reaches outside this machine, check with the user unless they have authorized it for good or told you to go ahead without asking; a yes in one situation does not carry over to the next. Sending content to an outside service publishes it, and it may be cached or indexed even if deleted later. Before deleting or overwriting, look at the target: if it is not what it was described as, or you did not create it, say so instead of going on. Report results truthfully: if tests fail, say so and show the output; if you skipped a step, say that; when something is done and checked, say so plainly.",
    "",
    "# Session-specific guidance",
    "- When the user types `/<skill-name>`, run it with Skill. Use only skills from the list of user-invocable skills; never guess one.",
    "",
    "# Environment",
    "You are running in this environment:",
    `- Primary working directory: ${ctx.cwd}`,
    `- Is a git repository: ${ctx.isGitRepo ? "yes" : "no"}`,
    `- Platform: ${ctx.platform}`,
    `- Shell: ${ctx.shell}`,
    `- OS Version: ${osVersion(ctx)}`,
    `- You are powered by the model named ${environmentModel(ctx.model)}.`,
    "",
    "# Context management",
    "When the conversation gets long, some or all of it is summarized, and the summary with whatever was not summarized opens the next context window, so the work goes on: there is no need to wrap up early or hand over halfway.",
    "",
    gitStatus(ctx),
  ].join("\n");
}

function exploreSystem(ctx: HarnessContext): string {
  return [
    explorePrompt.trimEnd(),
    "<env>",
    `Working directory: ${ctx.cwd}`,
    `Is directory a git repo: ${ctx.isGitRepo ? "Yes" : "No"}`,
    `Platform: ${ctx.platform}`,
    `Shell: ${ctx.shell}`,
    `OS Version: ${osVersion(ctx)}`,
    "</env>",
    `- You are powered by the model named ${environmentModel(ctx.model)}.`,
  ].join("\n");
}

/**
 * The snapshot taken at session start with ZCode's labels; its `Git user:` line is left out (the
 * session's snapshot does not read git's config). Outside a repository, ZCode's one line.
 */
function gitStatus(ctx: HarnessContext): string {
  const git = ctx.git;
  if (!git) return "gitStatus: unavailable";
  return [
    "gitStatus: The repository as it was when this conversation started. It is a snapshot and does not change during the conversation.",
    "",
    `Current branch: ${git.branch}`,
    "",
    `Main branch (you will usually use this for PRs): ${git.mainBranch}`,
    "",
    "Status:",
    git.status.trim() || "(clean)",
    "",
    "Recent commits:",
    git.recentCommits.trim(),
  ].join("\n");
}

/** ZCode names the model with its provider, `zai/` for a bare id. */
function environmentModel(model: string): string {
  return model.includes("/") ? model : `zai/${model}`;
}

/** `linux 6.8.0-49-generic x64`: ZCode's platform, the kernel release and the architecture. */
function osVersion(ctx: HarnessContext): string {
  const arch = process.arch === "arm64" ? "arm64" : process.arch === "x64" ? "x86_64" : process.arch;
  return `${ctx.platform} ${os.release()} ${arch}`;
}
