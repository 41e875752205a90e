import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { captureOurs, type Facets, facets, HAVE_SHARED, originalSummary } from "./support/fidelity.js";

// opencode picks its prompt by the model id. test/harness-structure.test.ts holds the default
// family to the shared capture (mock-model); this file holds the other families we build to
// captures of opencode 1.18.33 run the same way with `OPENCODE_MODEL=<id>` (the recipe's
// run-opencode.sh, reduced by reduce.mjs and checked prose-free by check-prose.mjs), kept here.

const TURN_ONE = ["shell_exit3", "read_notes", "shell_seq", "shell_true"];
const DEFAULT_OUTLINE = HAVE_SHARED ? facets(originalSummary("opencode-1.18.33.json")).outline : [];

const FAMILIES = [
  { family: "Claude", model: "claude-sonnet-4-5", heading: "# Professional objectivity" },
  { family: "Kimi", model: "kimi-k2-0905-preview", heading: "# General Guidelines for Coding" },
  { family: "GPT", model: "gpt-oss-120b", heading: "## Autonomy and persistence" },
  { family: "GPT with apply_patch", model: "gpt-5.5", heading: "## Autonomy and persistence" },
];

for (const { family, model, heading } of FAMILIES) {
  const file = `./golden/opencode/opencode-1.18.33-${model}.json`;
  const theirs = facets(JSON.parse(readFileSync(new URL(file, import.meta.url), "utf8")));

  describe.skipIf(!HAVE_SHARED)(`opencode's ${family} family vs opencode 1.18.33 run with ${model}`, () => {
    let ours: Facets;
    const ownTools = () => new Set(Object.keys(ours.schemas));

    it("runs the originals' scripted plan against the recording mock", async () => {
      ours = facets(await captureOurs({ harness: "opencode", model, wire: "chat", skill: true }));
      expect(Object.keys(ours.results)).toEqual(expect.arrayContaining(TURN_ONE));
    }, 60_000);

    it(`outline: equal (the ${family} prompt's sections, not the default's)`, () => {
      expect(ours.outline).toEqual(theirs.outline);
      expect(ours.outline).toContain(heading);
      expect(ours.outline).not.toEqual(DEFAULT_OUTLINE);
    });

    it("tools and schemas: the family's (apply_patch for gpt-5.5, edit and write otherwise), task pending", () => {
      expect(ours.tools).toEqual(theirs.tools.filter((t) => ownTools().has(t.split(":")[0] as string)));
      expect(theirs.tools).toContain("task:function");
      for (const name of ownTools()) expect(ours.schemas[name]).toEqual(theirs.schemas[name]);
    });

    for (const call of TURN_ONE) {
      it(`results.${call}: equal`, () => expect(ours.results[call]).toBe(theirs.results[call]));
    }

    it("knobs: equal but max_tokens (32000; the capture's model declared 8192), reasoning_effort included", () => {
      expect({ ...ours.knobs, max_tokens: 8192 }).toEqual(theirs.knobs);
    });
  });
}
