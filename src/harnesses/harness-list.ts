import type { Wire } from "../providers/model-request.js";
import { claudeCodeInfo } from "./claude-code/claude-code-info.js";
import { claudeCodeBareInfo } from "./claude-code-bare/claude-code-bare-info.js";
import { codexInfo } from "./codex/codex-info.js";
import { deepseekTuiInfo } from "./deepseek-tui/deepseek-tui-info.js";
import { geminiCliInfo } from "./gemini-cli/gemini-cli-info.js";
import { hermesInfo } from "./hermes/hermes-info.js";
import { kimiCliInfo } from "./kimi-cli/kimi-cli-info.js";
import { kimiCodeInfo } from "./kimi-code/kimi-code-info.js";
import { littleCoderInfo } from "./little-coder/little-coder-info.js";
import { miniSweAgentInfo } from "./mini-swe-agent/mini-swe-agent-info.js";
import { minimalInfo } from "./minimal/minimal-info.js";
import { opencodeInfo } from "./opencode/opencode-info.js";
import { piInfo } from "./pi/pi-info.js";
import { qwenCodeInfo } from "./qwen-code/qwen-code-info.js";
import { sweAgentInfo } from "./swe-agent/swe-agent-info.js";
import { terminus2Info } from "./terminus-2/terminus-2-info.js";
import type { Harness, HarnessEntry, HarnessInfo } from "./types.js";
import { zcodeInfo } from "./zcode/zcode-info.js";

/** Upstream Open Interpreter's name for the Codex harness. */
const ALIASES: Record<string, string> = { native: "codex" };

const entry = (info: HarnessInfo, load: () => Promise<Harness>): HarnessEntry => ({ ...info, load });

/**
 * Every harness the daemon ships; a new harness is one folder plus one entry here. Only the
 * small `*-info.ts` modules are imported up front: a harness's code loads when a session uses it.
 */
export function builtinHarnesses(): HarnessEntry[] {
  let minimal: Promise<Harness> | undefined;
  return [
    entry(codexInfo, async () => (await import("./codex/codex-harness.js")).codexHarness),
    entry(
      claudeCodeInfo,
      async () => (await import("./claude-code/claude-code-harness.js")).claudeCodeHarness,
    ),
    entry(
      claudeCodeBareInfo,
      async () => (await import("./claude-code-bare/claude-code-bare-harness.js")).claudeCodeBareHarness,
    ),
    entry(kimiCodeInfo, async () => (await import("./kimi-code/kimi-code-harness.js")).kimiCodeHarness),
    entry(qwenCodeInfo, async () => (await import("./qwen-code/qwen-code-harness.js")).qwenCodeHarness),
    entry(geminiCliInfo, async () => (await import("./gemini-cli/gemini-cli-harness.js")).geminiCliHarness),
    entry(piInfo, async () => (await import("./pi/pi-harness.js")).piHarness),
    entry(opencodeInfo, async () => (await import("./opencode/opencode-harness.js")).opencodeHarness),
    entry(
      miniSweAgentInfo,
      async () => (await import("./mini-swe-agent/mini-swe-agent-harness.js")).miniSweAgentHarness,
    ),
    entry(hermesInfo, async () => (await import("./hermes/hermes-harness.js")).hermesHarness),
    entry(sweAgentInfo, async () => (await import("./swe-agent/swe-agent-harness.js")).sweAgentHarness),
    entry(terminus2Info, async () => (await import("./terminus-2/terminus-2-harness.js")).terminus2Harness),
    entry(
      littleCoderInfo,
      async () => (await import("./little-coder/little-coder-harness.js")).littleCoderHarness,
    ),
    entry(kimiCliInfo, async () => (await import("./kimi-cli/kimi-cli-harness.js")).kimiCliHarness),
    entry(
      deepseekTuiInfo,
      async () => (await import("./deepseek-tui/deepseek-tui-harness.js")).deepseekTuiHarness,
    ),
    // Upstream's minimal harness offers the native (Codex) harness's tools; built once per list.
    entry(
      minimalInfo,
      () =>
        (minimal ??= Promise.all([
          import("./minimal/minimal-harness.js"),
          import("./codex/codex-harness.js"),
        ]).then(([{ minimalHarness }, { codexHarness }]) => minimalHarness(codexHarness))),
    ),
    entry(zcodeInfo, async () => (await import("./zcode/zcode-harness.js")).zcodeHarness),
  ];
}

export interface HarnessChoice {
  harness: HarnessEntry;
  /** Why this harness is active, for `/status`. */
  reason: string;
}

/** The harness each wire falls back to when no harness of the model's family runs on it. */
const WIRE_DEFAULTS: Record<Wire, string> = { chat: "codex", responses: "codex", messages: "claude-code" };

/**
 * An explicit choice wins; otherwise the first harness whose family matches the model, among
 * those that run on the endpoint's wire (the routing table is each harness's `wires`); else
 * the wire's default (Codex, or Claude Code on Anthropic Messages).
 */
export function chooseHarness(options: {
  harnesses: HarnessEntry[];
  explicit?: string | null;
  model: string;
  /** The endpoint's wire (default `chat`). */
  wire?: Wire;
}): HarnessChoice {
  const { explicit, model } = options;
  const wire = options.wire ?? "chat";
  if (explicit) {
    const id = ALIASES[explicit] ?? explicit;
    const harness = options.harnesses.find((h) => h.id === id);
    if (harness) return { harness, reason: "chosen explicitly" };
  }
  const harnesses = options.harnesses.filter((h) => h.wires.includes(wire));
  const fallback =
    harnesses.find((h) => h.id === WIRE_DEFAULTS[wire]) ?? harnesses[0] ?? options.harnesses[0]!;
  const matched = harnesses.find((h) => h.matches(model));
  if (matched)
    return { harness: matched, reason: `automatic: ${model} belongs to the ${matched.title} family` };
  return {
    harness: fallback,
    reason: model ? `automatic: default for ${model}` : "automatic: the default while no model is configured",
  };
}

/** What a user reads for an id that names no harness: where it came from and the ids that exist. */
export function unknownHarnessMessage(options: {
  id: string;
  source: string;
  harnesses: ReadonlyArray<{ id: string }>;
}): string {
  const known = options.harnesses.map((h) => h.id).join(", ");
  return `${options.source}: unknown harness ${JSON.stringify(options.id)}; known harnesses: ${known}`;
}

/**
 * Why `id` cannot be the harness on `wire`: it names no harness, or its original does not
 * speak that wire (never a silent fallback). Undefined when it can.
 */
export function harnessProblem(options: {
  id: string;
  source: string;
  harnesses: ReadonlyArray<HarnessInfo>;
  wire: Wire;
}): string | undefined {
  const harness = options.harnesses.find((h) => h.id === (ALIASES[options.id] ?? options.id));
  if (!harness) return unknownHarnessMessage(options);
  if (harness.wires.includes(options.wire)) return undefined;
  const able = options.harnesses.filter((h) => h.wires.includes(options.wire)).map((h) => h.id);
  return `${options.source}: harness ${JSON.stringify(harness.id)} does not run on wire_api = "${options.wire}" (it runs on ${harness.wires.join(", ")}); harnesses for "${options.wire}": ${able.join(", ")}`;
}

/** What a user reads about a harness's original: `Codex CLI 0.163.0 (npm:@openai/codex)`. */
export function pinnedText(info: Pick<HarnessInfo, "original">): string {
  const o = info.original;
  return o ? `${o.name} ${o.version} (${o.source})` : "not pinned to a version yet";
}

export function findHarness(harnesses: HarnessEntry[], id: string): HarnessEntry | undefined {
  const resolved = ALIASES[id] ?? id;
  return harnesses.find((h) => h.id === resolved);
}
