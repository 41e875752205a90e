import { claudeCodeHarness } from "./claude-code/claude-code-harness.js";
import { claudeCodeBareHarness } from "./claude-code-bare/claude-code-bare-harness.js";
import { codexHarness } from "./codex/codex-harness.js";
import { geminiCliHarness } from "./gemini-cli/gemini-cli-harness.js";
import { hermesHarness } from "./hermes/hermes-harness.js";
import { kimiCodeHarness } from "./kimi-code/kimi-code-harness.js";
import { miniSweAgentHarness } from "./mini-swe-agent/mini-swe-agent-harness.js";
import { piHarness } from "./pi/pi-harness.js";
import { qwenCodeHarness } from "./qwen-code/qwen-code-harness.js";
import type { Harness } from "./types.js";

/** Upstream Open Interpreter's name for the Codex harness. */
const ALIASES: Record<string, string> = { native: "codex" };

/** Every harness the daemon ships; a new harness is one folder plus one entry here. */
export function builtinHarnesses(): Harness[] {
  return [
    codexHarness,
    claudeCodeHarness,
    claudeCodeBareHarness,
    kimiCodeHarness,
    qwenCodeHarness,
    geminiCliHarness,
    piHarness,
    miniSweAgentHarness,
    hermesHarness,
  ];
}

export interface HarnessChoice {
  harness: Harness;
  /** Why this harness is active, for `/status`. */
  reason: string;
}

/** An explicit choice wins; otherwise the first harness whose family matches the model; else Codex. */
export function chooseHarness(options: {
  harnesses: Harness[];
  explicit?: string | null;
  model: string;
}): HarnessChoice {
  const { harnesses, explicit, model } = options;
  if (explicit) {
    const id = ALIASES[explicit] ?? explicit;
    const harness = harnesses.find((h) => h.id === id);
    if (harness) return { harness, reason: "chosen explicitly" };
  }
  const fallback = harnesses.find((h) => h.id === "codex") ?? harnesses[0]!;
  const matched = harnesses.find((h) => h.matches(model));
  if (matched)
    return { harness: matched, reason: `automatic: ${model} belongs to the ${matched.title} family` };
  return { harness: fallback, reason: `automatic: default for ${model}` };
}

export function findHarness(harnesses: Harness[], id: string): Harness | undefined {
  const resolved = ALIASES[id] ?? id;
  return harnesses.find((h) => h.id === resolved);
}
