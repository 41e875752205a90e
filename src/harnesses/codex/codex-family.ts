import type { Knobs } from "../../providers/model-request.js";
import type { TruncationPolicy } from "./exec-output.js";
import gpt5Prompt from "./prompt.gpt-5.md";
import fallbackPrompt from "./prompt.md";

/**
 * A group of models Codex 0.171 treats alike, from the catalog bundled in its binary: the
 * base prompt, how tool output is cut, whether `apply_patch` is a freeform tool, the skills
 * guidance and the request knobs. Models outside the catalog get the fallback metadata.
 */
export interface CodexFamily {
  id: "fallback" | "gpt-5";
  prompt: string;
  policy: TruncationPolicy;
  /** `apply_patch` as a freeform (custom, Lark grammar) tool; otherwise patches go through the shell. */
  freeformPatch: boolean;
  /** The skills section ends with the rules for using them (`include_skills_usage_instructions`). */
  skillsHowTo: boolean;
  knobs: Knobs;
}

const FALLBACK: CodexFamily = {
  id: "fallback",
  prompt: fallbackPrompt,
  policy: { mode: "bytes", limit: 10_000 },
  freeformPatch: false,
  skillsHowTo: false,
  knobs: { reasoning: { summary: "auto" } },
};

const GPT_5: CodexFamily = {
  id: "gpt-5",
  prompt: gpt5Prompt,
  policy: { mode: "tokens", limit: 10_000 },
  freeformPatch: true,
  skillsHowTo: true,
  knobs: { reasoning: { effort: "medium" }, extra: { responses: { text: { verbosity: "low" } } } },
};

/**
 * The slugs of Codex 0.171's catalog. Only gpt-5.5 has its own entry here; the others run in
 * Codex's code mode (no function tools), which is not built, so they get gpt-5.5's surface.
 */
const CATALOG = [
  "gpt-6.2-sol",
  "gpt-6.2-astra",
  "gpt-6.1-sol",
  "gpt-6.1-terra",
  "gpt-6-astra",
  "gpt-6-sol",
  "gpt-6-luna",
  "gpt-5.6-sol",
  "gpt-5.6-terra",
  "gpt-5.6-luna",
  "gpt-daybreak-blue-latest",
  "gpt-daybreak-red-latest",
  "gpt-5.5",
  "codex-auto-review",
];

/**
 * Codex's lookup: the longest catalog slug the model id starts with, tried again once without
 * a `provider/` prefix; anything else is outside the catalog.
 */
export function codexFamily(model: string): CodexFamily {
  const id = model.toLowerCase();
  const found = (candidate: string) => CATALOG.some((slug) => candidate.startsWith(slug));
  const slash = id.indexOf("/");
  if (found(id) || (slash >= 0 && found(id.slice(slash + 1)))) return GPT_5;
  return FALLBACK;
}
