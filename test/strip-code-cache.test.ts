import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a build script in plain JavaScript, without types.
import { stripCodeCache } from "../scripts/strip-code-cache.mjs";
import { tempDir } from "./support/in-process.js";

const strip = stripCodeCache as (blob: Buffer) => Buffer | undefined;

/**
 * The snapshot's main: a node error's `code` (its class's constructor is compiled lazily, from
 * the heap image's scope data), a class field initializer, and a module that is not in the image.
 */
const BUILDER = `
const { startupSnapshot } = require("node:v8");
class Counter { count = 1; next = () => ++this.count; }
new Counter().next();
startupSnapshot.setDeserializeMainFunction(() => {
  let code;
  try { require("node:util").parseArgs({ args: ["--nope"], options: {}, strict: true }); }
  catch (error) { code = error.code; }
  const https = typeof require("node:https").request;
  console.log(JSON.stringify({ code, field: new Counter().next(), https }));
});
`;

const EXPECTED = { code: "ERR_PARSE_ARGS_UNKNOWN_OPTION", field: 2, https: "function" };

describe("stripCodeCache (scripts/strip-code-cache.mjs)", () => {
  it("drops node's code cache from a snapshot blob, which then starts and behaves the same", () => {
    const dir = tempDir("oi-strip-");
    const builder = path.join(dir, "main.js");
    writeFileSync(builder, BUILDER);
    const blob = path.join(dir, "snapshot.blob");
    execFileSync(process.execPath, ["--snapshot-blob", blob, "--build-snapshot", builder]);
    const run = (file: string) =>
      JSON.parse(execFileSync(process.execPath, ["--snapshot-blob", file], { encoding: "utf8" }));
    expect(run(blob)).toEqual(EXPECTED);

    const original = readFileSync(blob);
    const stripped = strip(original);
    expect(stripped).toBeDefined();
    // Node's cache for its own modules is megabytes; the heap image of this main is far less.
    expect(original.length - stripped!.length).toBeGreaterThan(1_000_000);
    expect(stripped!.subarray(0, stripped!.length - 8)).toEqual(original.subarray(0, stripped!.length - 8));
    expect(stripped!.subarray(-8)).toEqual(Buffer.alloc(8));
    const lean = path.join(dir, "lean.blob");
    writeFileSync(lean, stripped!);
    expect(run(lean)).toEqual(EXPECTED);
    // Nothing left to strip.
    expect(strip(stripped!)).toBeUndefined();
  });

  it("returns undefined for bytes that are not a blob with a code cache", () => {
    expect(strip(Buffer.from("not a snapshot blob at all"))).toBeUndefined();
    expect(strip(Buffer.alloc(64))).toBeUndefined();
  });
});
