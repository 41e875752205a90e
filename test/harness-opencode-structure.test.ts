import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { captureOurs, type Facets, facets, HAVE_SHARED, originalSummary } from "./support/fidelity.js";

// opencode picks its prompt by the model id. test/harness-structure.test.ts holds the default
// family to the shared capture (mock-model); this file holds the Claude family to a capture of
// opencode 1.18.33 run the same way with `OPENCODE_MODEL=claude-sonnet-4-5` (the recipe's
// run-opencode.sh, reduced by reduce.mjs and checked prose-free by check-prose.mjs), kept here.

const CLAUDE = JSON.parse(
  readFileSync(new URL("./golden/opencode/opencode-1.18.33-claude-sonnet-4-5.json", import.meta.url), "utf8"),
);
const TURN_ONE = ["shell_exit3", "read_notes", "shell_seq", "shell_true"];

describe.skipIf(!HAVE_SHARED)(
  "opencode's Claude family vs opencode 1.18.33 run with claude-sonnet-4-5",
  () => {
    let ours: Facets;
    const theirs = facets(CLAUDE);
    const ownTools = () => new Set(Object.keys(ours.schemas));

    it("runs the originals' scripted plan against the recording mock", async () => {
      ours = facets(
        await captureOurs({ harness: "opencode", model: "claude-sonnet-4-5", wire: "chat", skill: true }),
      );
      expect(Object.keys(ours.results)).toEqual(expect.arrayContaining(TURN_ONE));
    }, 60_000);

    it("outline: equal (the Claude prompt's sections, not the default's)", () => {
      expect(ours.outline).toEqual(theirs.outline);
      expect(ours.outline).toContain("# Professional objectivity");
      expect(ours.outline).not.toEqual(facets(originalSummary("opencode-1.18.33.json")).outline);
    });

    it("tools and schemas: the default family's, task pending", () => {
      expect(ours.tools).toEqual(theirs.tools.filter((t) => ownTools().has(t.split(":")[0] as string)));
      expect(theirs.tools).toContain("task:function");
      for (const name of ownTools()) expect(ours.schemas[name]).toEqual(theirs.schemas[name]);
    });

    for (const call of TURN_ONE) {
      it(`results.${call}: equal`, () => expect(ours.results[call]).toBe(theirs.results[call]));
    }

    it("knobs: equal but max_tokens (32000; the capture's model declared 8192)", () => {
      expect({ ...ours.knobs, max_tokens: 8192 }).toEqual(theirs.knobs);
    });
  },
);
