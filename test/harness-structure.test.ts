import { describe, expect, it } from "vitest";
import { captureOurs, type Facets, facets, HAVE_SHARED, originalSummary } from "./support/fidelity.js";

// Each harness against a capture of its pinned original, facet by facet: our daemon runs the
// originals' scripted plan against the same recording mock, our requests go through the same
// reducer, and the two summaries are compared without prose. A facet is either held equal or
// listed with the reason it differs; a listed difference that disappears fails too, so this
// table (and the one in docs/harnesses.md) stays true.

type Facet = Exclude<keyof Facets, "results"> | `results.${string}`;

interface Pair {
  harness: string;
  /** The family of models the capture stands for, e.g. `unknown models`. */
  family: string;
  capture: string;
  wire: "chat" | "responses" | "messages";
  model: string;
  equal: Facet[];
  differs: Partial<Record<Facet, string>>;
}

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
    harness: "codex",
    family: "models outside Codex's catalog",
    capture: "codex-0.163.0-mock-model.json",
    wire: "responses",
    model: "mock-model",
    equal: [],
    differs: {
      tools:
        "Codex 0.163's unified exec surface (exec_command, write_stdin, view_image, web_search, goals, sub-agents) is not built; ours is the shell_command / apply_patch / update_plan set",
      schemas: "follows from the tool set",
      knobs: "no client_metadata, reasoning summary or prompt_cache_key for models outside the OpenAI family",
      layout:
        "permissions and AGENTS.md go in the system text and user messages, not in two developer messages",
      outline: "the 2025 prompt's sections (planning, sandbox, tool guides), not 0.163's (skills)",
      "results.shell_exit3":
        "shell_command's result header, not exec_command's (Chunk ID, Process exited with code)",
      "results.shell_seq": "shell_command's truncation, not exec_command's token-count header",
      "results.shell_true": "shell_command's result header",
    },
  },
];

function facetValue(f: Facets, facet: Facet): unknown {
  if (facet.startsWith("results.")) return f.results[facet.slice("results.".length)];
  return f[facet as Exclude<keyof Facets, "results">];
}

describe.skipIf(!HAVE_SHARED)("each harness against a capture of its pinned original", () => {
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
      for (const facet of pair.equal) {
        it(`${facet}: equal`, () => expect(facetValue(ours, facet)).toEqual(facetValue(theirs, facet)));
      }
      for (const [facet, why] of Object.entries(pair.differs)) {
        it(`${facet}: differs (${why})`, () =>
          expect(facetValue(ours, facet as Facet)).not.toEqual(facetValue(theirs, facet as Facet)));
      }
    });
  }
});

it.runIf(!HAVE_SHARED)(
  "skips the comparison: ../shared with the captures and the recording mock is absent",
  () => {
    expect(HAVE_SHARED).toBe(false);
  },
);
