import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  captureOurs,
  type Facets,
  facets,
  HAVE_SHARED,
  originalSummary,
  type Summary,
} from "./support/fidelity.js";

// opencode picks its prompt by the model id. test/harness-structure.test.ts holds the default
// family to the shared capture (mock-model) facet by facet; this file holds every family we build,
// sections and examples included, the others to captures of opencode 1.18.33 run the same way with `OPENCODE_MODEL=<id>` (the recipe's
// run-opencode.sh, reduced by reduce.mjs and checked prose-free by check-prose.mjs), kept here.

const TURN_ONE = ["shell_exit3", "read_notes", "shell_seq", "shell_true"];

interface Family {
  family: string;
  model: string;
  /** The shared capture instead of one kept here. */
  shared?: string;
  /** Scripted calls whose captured result is not 1.18.33's steady behaviour, with the reason. */
  raced?: Record<string, string>;
}

const FAMILIES: Family[] = [
  { family: "default", model: "mock-model", shared: "opencode-1.18.33.json" },
  { family: "Claude", model: "claude-sonnet-4-5" },
  { family: "Kimi", model: "kimi-k2-0905-preview" },
  { family: "GPT", model: "gpt-oss-120b" },
  { family: "GPT with apply_patch", model: "gpt-5.5" },
  { family: "gpt-6", model: "gpt-6" },
  { family: "Codex", model: "gpt-5.1-codex" },
  { family: "gpt-4, o1, o3", model: "gpt-4.1" },
  { family: "Gemini", model: "gemini-2.5-pro" },
  { family: "Muse", model: "muse-spark" },
  {
    family: "Trinity",
    model: "trinity-large",
    raced: {
      shell_seq:
        "in this run 1.18.33 answered when seq exited, before its output stream was read to the end (the tail stops mid-line at 6192); our runner reads the output to its end",
    },
  },
];

/** The first main request's system text as sections: `# heading` lines and `<tag>` blocks in order. */
function sections(summary: Summary): string[] {
  const first = (summary.requests as Summary[]).find((r) => r.kind === "main");
  const ref = JSON.stringify(first?.layout ?? []).match(/"outline_ref":"([0-9a-f]{8})"/)?.[1] ?? "";
  return ((summary.texts?.[ref]?.outline ?? []) as Summary[]).map((o) => o.h ?? `<${o.tag}>`);
}

for (const { family, model, shared, raced = {} } of FAMILIES) {
  if (shared && !HAVE_SHARED) continue;
  const file = `./golden/opencode/opencode-1.18.33-${model}.json`;
  const summary = shared
    ? originalSummary(shared)
    : (JSON.parse(readFileSync(new URL(file, import.meta.url), "utf8")) as Summary);
  const theirs = facets(summary);

  describe.skipIf(!HAVE_SHARED)(`opencode's ${family} family vs opencode 1.18.33 run with ${model}`, () => {
    let ourSummary: Summary;
    let ours: Facets;
    const ownTools = () => new Set(Object.keys(ours.schemas));

    it("runs the originals' scripted plan against the recording mock", async () => {
      ourSummary = await captureOurs({ harness: "opencode", model, wire: "chat", skill: true });
      ours = facets(ourSummary);
      expect(Object.keys(ours.results)).toEqual(expect.arrayContaining(TURN_ONE));
    }, 60_000);

    it("outline: equal, examples and closing tags included", () => {
      expect(sections(ourSummary)).toEqual(sections(summary));
      expect(sections(summary).at(-2)).toBe("<env>");
    });

    it("tools and schemas: the family's (apply_patch for gpt- ids, edit and write otherwise), task among them", () => {
      expect(ours.tools).toEqual(theirs.tools);
      expect(theirs.tools).toContain("task:function");
      for (const name of ownTools()) expect(ours.schemas[name]).toEqual(theirs.schemas[name]);
    });

    for (const call of TURN_ONE) {
      const why = raced[call];
      if (why)
        it(`results.${call}: differs (${why})`, () => {
          expect(ours.results[call]).not.toBe(theirs.results[call]);
          expect(ours.results[call]?.endsWith("\n100000\n")).toBe(true);
          expect(theirs.results[call]?.endsWith("\n")).toBe(false);
        });
      else it(`results.${call}: equal`, () => expect(ours.results[call]).toBe(theirs.results[call]));
    }

    it("knobs: equal but max_tokens (32000; the capture's model declared 8192)", () => {
      expect({ ...ours.knobs, max_tokens: 8192 }).toEqual(theirs.knobs);
    });
  });
}
