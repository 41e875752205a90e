import { describe, expect, it } from "vitest";
import { captureOurs, type Facets, facets, HAVE_SHARED, originalSummary } from "./support/fidelity.js";

// Each harness against a capture of its pinned original, facet by facet: our daemon runs the
// originals' scripted plan against the same recording mock, our requests go through the same
// reducer, and the two summaries are compared without prose. A facet is either held equal or
// listed with the reason it differs; a listed difference that disappears fails too, so this
// table (and the one in docs/harnesses.md) stays true.

/**
 * `tools` and `schemas` are the whole surface; `tools-shared` and `schemas-shared` only the
 * tools we implement, which must be the original's in its order with its schemas, while the
 * rest are pending (docs/harnesses.md). Knobs compare without key order (bodies are JSON
 * objects); schemas with it (the model reads them as serialized).
 */
type Facet = Exclude<keyof Facets, "results"> | "tools-shared" | "schemas-shared" | `results.${string}`;

interface Pair {
  harness: string;
  /** The family of models the capture stands for, e.g. `unknown models`. */
  family: string;
  capture: string;
  wire: "chat" | "responses" | "messages";
  model: string;
  equal: Facet[];
  differs: Partial<Record<Facet, string>>;
  /** Top-level request fields the original sends and we leave out on purpose, with the reason; `knobs` compares the rest. */
  knobsLeftOut?: Record<string, string>;
  /** Run ours with one skill: the original always lists skills it bundles. */
  skill?: boolean;
}

/** Codex's own telemetry for OpenAI's backend, not a setting of the model's. */
const CODEX_METADATA = {
  client_metadata:
    "Codex's telemetry for OpenAI's backend (installation, window and turn ids, workspace git state): nothing of it reaches a model, and we send no telemetry",
};

const TURN_ONE = ["shell_exit3", "read_notes", "shell_seq", "shell_true"] as const;
const results = (...calls: string[]): Facet[] => calls.map((call) => `results.${call}` as Facet);

const PAIRS: Pair[] = [
  {
    harness: "pi",
    family: "every model (pi has one prompt)",
    capture: "pi-0.73.1.json",
    wire: "chat",
    model: "mock-model",
    equal: ["tools", "schemas", "knobs", "layout", "outline", ...results(...TURN_ONE)],
    differs: {},
  },
  {
    harness: "opencode",
    family: "models outside opencode's named families (its default prompt)",
    capture: "opencode-1.18.33.json",
    wire: "chat",
    model: "mock-model",
    skill: true,
    equal: ["tools", "schemas", "outline", ...results(...TURN_ONE)],
    differs: {
      knobs:
        "max_tokens 32000: opencode sends min(the model's output limit, 32000) and the capture's model declared 8192; we know no model's output limit",
      layout:
        "`opencode run` wraps a prompt with spaces in double quotes (the capture's user text is the prompt quoted); an editor's prompt reaches opencode unquoted, as ours does",
    },
  },
  {
    harness: "claude-code",
    family: "Claude models without thinking",
    capture: "claude-code-2.1.44.json",
    wire: "messages",
    model: "claude-sonnet-4-5-20250929",
    equal: ["tools-shared", "schemas-shared", "knobs", "layout", "outline", ...results(...TURN_ONE)],
    differs: {
      tools: "pending: Skill only with skills",
      schemas: "follows from the pending tools",
    },
  },
  {
    harness: "qwen-code",
    family: "every model (Qwen Code has one prompt)",
    capture: "qwen-code-0.24.4.json",
    wire: "chat",
    model: "mock-model",
    equal: ["tools-shared", "schemas-shared", "knobs", ...results(...TURN_ONE)],
    differs: {
      tools: "pending: list_agents, get_goal, update_goal, tool_search, tool_call",
      layout: "no bundled skills in the test workspace, and the pending tools' reminder is not sent",
      outline: "no auto-memory sections: there is no memory store",
    },
  },
  {
    harness: "kimi-code",
    family: "Kimi models",
    capture: "kimi-code-2.1.0.json",
    wire: "chat",
    model: "kimi-for-coding",
    equal: ["tools-shared", "schemas-shared", "layout", ...results(...TURN_ONE)],
    differs: {
      tools:
        "pending: AgentSwarm, CreateGoal, GetGoal, UpdateGoal, SetGoalBudget, CronCreate, CronList, CronDelete, Skill",
      schemas: "follows from the pending tools",
      knobs:
        "max_completion_tokens 32768: 2.1.0 sends its model's whole window (262144 for kimi-for-coding), which servers that check max_tokens against the window (vLLM) refuse",
      outline:
        "2.1.0's sections in its order, but no `# Skills` / `## Available skills` / `### Built-in`: it lists its bundled skills, we have none and Skill is pending",
    },
  },
  {
    harness: "codex",
    family: "models outside Codex's catalog",
    capture: "codex-0.171.0-mock-model.json",
    wire: "responses",
    model: "mock-model",
    skill: true,
    equal: ["tools-shared", "schemas-shared", "knobs", "layout", "outline", ...results(...TURN_ONE)],
    differs: {
      tools:
        "pending: multi_agent_v1 (sub-agents), get_goal, create_goal, update_goal (goals), web_search (search)",
      schemas: "follows from the pending tools",
    },
    knobsLeftOut: CODEX_METADATA,
  },
  {
    harness: "codex",
    family: "the gpt-5 family (gpt-5.5)",
    capture: "codex-0.171.0-gpt-5.5.json",
    wire: "responses",
    model: "gpt-5.5",
    skill: true,
    equal: ["tools-shared", "schemas-shared", "knobs", "outline", ...results(...TURN_ONE)],
    differs: {
      tools:
        "pending: get_goal, create_goal, update_goal (goals), tool_search (deferred tools), web_search (search)",
      schemas: "follows from the pending tools",
      layout:
        "no `<tools>` block of deferred namespaces: its one namespace, multi_agent_v1 (sub-agents), is pending",
    },
    knobsLeftOut: CODEX_METADATA,
  },
];

/** The facet of `f`, narrowed to the tools of `ours` for the `-shared` facets, knobs without those left out. */
function facetValue(f: Facets, facet: Facet, ours: Facets, leftOut: string[] = []): unknown {
  if (facet.startsWith("results.")) return f.results[facet.slice("results.".length)];
  const names = new Set(Object.keys(ours.schemas));
  if (facet === "tools-shared") return f.tools.filter((t) => names.has(t.split(":")[0] as string));
  if (facet === "schemas-shared")
    return Object.fromEntries(Object.entries(f.schemas).filter(([n]) => names.has(n)));
  if (facet === "knobs")
    return sorted(Object.fromEntries(Object.entries(f.knobs).filter(([key]) => !leftOut.includes(key))));
  return f[facet as Exclude<keyof Facets, "results">];
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
  );
}

const TITLE = HAVE_SHARED
  ? "each harness against a capture of its pinned original"
  : "each harness against a capture of its pinned original (skipped: ../shared with the captures and the recording mock is absent)";

describe.skipIf(!HAVE_SHARED)(TITLE, () => {
  for (const pair of PAIRS) {
    describe(`${pair.harness} (${pair.family}) vs ${pair.capture}`, () => {
      let ours: Facets;
      let theirs: Facets;
      it("runs the originals' scripted plan against the recording mock", async () => {
        ours = facets(await captureOurs(pair));
        theirs = facets(originalSummary(pair.capture));
        expect(Object.keys(ours.results)).toEqual(
          expect.arrayContaining([...TURN_ONE].filter((c) => c in theirs.results)),
        );
      }, 60_000);
      const leftOut = Object.keys(pair.knobsLeftOut ?? {});
      for (const facet of pair.equal) {
        it(`${facet}: equal`, () =>
          expect(JSON.stringify(facetValue(ours, facet, ours, leftOut))).toBe(
            JSON.stringify(facetValue(theirs, facet, ours, leftOut)),
          ));
      }
      for (const [knob, why] of Object.entries(pair.knobsLeftOut ?? {})) {
        it(`knob ${knob}: left out (${why})`, () => {
          expect(theirs.knobs).toHaveProperty([knob]);
          expect(ours.knobs).not.toHaveProperty([knob]);
        });
      }
      for (const [facet, why] of Object.entries(pair.differs)) {
        it(`${facet}: differs (${why})`, () =>
          expect(JSON.stringify(facetValue(ours, facet as Facet, ours))).not.toBe(
            JSON.stringify(facetValue(theirs, facet as Facet, ours)),
          ));
      }
    });
  }
});
