import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { zcodeHarness } from "../src/harnesses/zcode/zcode-harness.js";
import { harnessContext } from "./support/harness-fixtures.js";
import { schemaShape } from "./support/schema-shape.js";

// ZCode is not published to a registry, so it cannot be captured: its reference is upstream Open
// Interpreter 0.0.40's `zcode_tools.json`, read from a local mirror of that repository when one is
// beside the checkout. Our tools must be its tools, in its order, with its schemas but for the
// descriptions (ours are our own words).

const MIRROR = path.resolve(import.meta.dirname, "../../.mirror/openinterpreter+openinterpreter/repo");
const FILE = "rust-v0.0.40:codex-rs/core/src/harness/zcode_tools.json";
const HAVE_MIRROR = existsSync(MIRROR);

/** The schema without prose: every `description` dropped, key order kept. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, v]) => !(key === "description" && typeof v === "string"))
      .map(([key, v]) => [key, shape(v)]),
  );
}

const TITLE = HAVE_MIRROR
  ? "zcode against upstream Open Interpreter 0.0.40's zcode_tools.json"
  : "zcode against upstream Open Interpreter 0.0.40's zcode_tools.json (skipped: no mirror of openinterpreter/openinterpreter beside the checkout)";

describe.skipIf(!HAVE_MIRROR)(TITLE, () => {
  const theirs = HAVE_MIRROR
    ? (JSON.parse(execFileSync("git", ["--git-dir", MIRROR, "show", FILE], { encoding: "utf8" })) as Array<{
        name: string;
        input_schema: unknown;
      }>)
    : [];
  const ours = zcodeHarness.open(harnessContext({ wire: "messages" })).tools;

  it("test/golden/zcode/tools.json is the json's shape, so the unit test holds the same schemas", () => {
    const golden = JSON.parse(readFileSync(new URL("./golden/zcode/tools.json", import.meta.url), "utf8"));
    expect(golden).toEqual(theirs.map((t) => ({ name: t.name, parameters: schemaShape(t.input_schema) })));
  });

  it("sends the same 14 tools in the same order", () => {
    expect(ours.map((t) => t.name)).toEqual(theirs.map((t) => t.name));
  });

  for (const tool of theirs) {
    it(`${tool.name}: the schema equals the original's but for the descriptions`, () => {
      const mine = ours.find((t) => t.name === tool.name)!;
      expect(JSON.stringify(shape(mine.parameters))).toBe(JSON.stringify(shape(tool.input_schema)));
    });
  }
});
