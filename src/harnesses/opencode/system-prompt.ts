import type { HarnessContext } from "../types.js";
import prompt from "./prompt.md";
import beastPrompt from "./prompt-beast.md";
import claudePrompt from "./prompt-claude.md";
import codexPrompt from "./prompt-codex.md";
import geminiPrompt from "./prompt-gemini.md";
import gptPrompt from "./prompt-gpt.md";
import gpt6Prompt from "./prompt-gpt6.md";
import kimiPrompt from "./prompt-kimi.md";
import musePrompt from "./prompt-muse.md";
import trinityPrompt from "./prompt-trinity.md";

/**
 * The prompt opencode 1.18.33 picks for a model id (`SystemPrompt.provider`, checked in its
 * order): `muse` its Muse prompt naming Muse Spark or Muse Glimmer; `gpt-4`, `o1`, `o3` its autonomous ("beast") prompt; other ids with
 * `gpt` its GPT prompt, `gpt-6` its short harness prompt, `codex` its Codex prompt;
 * `gemini-` its Gemini prompt; `claude` its Claude prompt; `trinity` in any case its Trinity
 * prompt; `kimi` in any case its Kimi prompt (1.18.33 also picks it by the provider, Moonshot's
 * or Kimi For Coding's, which a model id does not name); its default prompt for every other model.
 */
export function opencodeFamilyPrompt(model: string): string {
  const lower = model.toLowerCase();
  if (model.includes("muse"))
    return musePrompt.replaceAll(
      "{{MODEL_NAME}}",
      model.includes("muse-glimmer") ? "Muse Glimmer" : "Muse Spark",
    );
  if (["gpt-4", "o1", "o3"].some((part) => model.includes(part))) return beastPrompt;
  if (model.includes("gpt")) {
    if (model.includes("gpt-6")) return gpt6Prompt;
    return model.includes("codex") ? codexPrompt : gptPrompt;
  }
  if (model.includes("gemini-")) return geminiPrompt;
  if (model.includes("claude")) return claudePrompt;
  if (lower.includes("trinity")) return trinityPrompt;
  if (lower.includes("kimi")) return kimiPrompt;
  return prompt;
}

/**
 * opencode 1.18.33's system message: the family's prompt, the environment (`SystemPrompt.environment`),
 * each instruction file as `Instructions from: <path>` (`Instruction.system`), then the skills
 * (`SystemPrompt.skills`), joined by single newlines into one system message, as
 * `LLMRequestPrep.prepare` joins them. Our wording of the prompt; opencode's lines, tags and order.
 */
export function opencodeSystemPrompt(ctx: HarnessContext, agentPrompt?: string): string {
  // An agent with a prompt of its own (a subagent's) replaces the family's, as 1.18.33's does.
  const parts = [agentPrompt ?? opencodeFamilyPrompt(ctx.model), environment(ctx)];
  if (ctx.instructions) parts.push(`Instructions from: ${instructionsPath(ctx)}\n${ctx.instructions}`);
  parts.push(skills(ctx.skills));
  return parts.join("\n");
}

/** opencode's environment block: the model line, then `<env>`; the date in `Date.toDateString()` form. */
function environment(ctx: HarnessContext): string {
  return [
    `You are powered by the model named ${ctx.model}. The exact model ID is ${provider(ctx.model)}/${ctx.model}`,
    "Here is some useful information about the environment you are running in:",
    "<env>",
    `  Working directory: ${ctx.cwd}`,
    `  Workspace root folder: ${ctx.roots[0] ?? ctx.cwd}`,
    `  Is directory a git repo: ${ctx.isGitRepo ? "yes" : "no"}`,
    `  Platform: ${ctx.platform}`,
    `  Today's date: ${dateString(ctx.currentDate)}`,
    "</env>",
  ].join("\n");
}

/** opencode's skills section (verbose form), or its sentence for none. */
function skills(list: HarnessContext["skills"]): string {
  const head = [
    "Skills provide specialized instructions and workflows for specific tasks.",
    "Use the skill tool to load a skill when a task matches its description.",
  ];
  if (list.length === 0) return [...head, "No skills are currently available."].join("\n");
  const sorted = [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return [
    ...head,
    "<available_skills>",
    ...sorted.flatMap((skill) => [
      "  <skill>",
      `    <name>${skill.name}</name>`,
      `    <description>${skill.description}</description>`,
      `    <location>${escapeXml(skill.path)}</location>`,
      "  </skill>",
    ]),
    "</available_skills>",
  ].join("\n");
}

/** The provider half of opencode's `provider/model` id: a `provider/` prefix of ours, else the endpoint's stand-in. */
function provider(model: string): string {
  const slash = model.indexOf("/");
  return slash > 0 ? model.slice(0, slash) : "openai-compatible";
}

/** Where AGENTS.md was found: opencode names the file; we name the workspace's. */
function instructionsPath(ctx: HarnessContext): string {
  return `${ctx.cwd.replace(/\/$/, "")}/AGENTS.md`;
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** `YYYY-MM-DD` as JavaScript's `toDateString()` writes it (`Sun Dec 06 2026`), computed without Intl. */
function dateString(isoDate: string): string {
  const [y, m, d] = isoDate.split("-").map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return `${DAYS[day]} ${MONTHS[m - 1]} ${String(d).padStart(2, "0")} ${y}`;
}

function escapeXml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}
