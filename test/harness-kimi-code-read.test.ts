import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { kimiCodeHarness } from "../src/harnesses/kimi-code/kimi-code-harness.js";
import { modelText } from "../src/harnesses/kimi-code/tool-result.js";
import { harnessContext, tempDir, toolContext, toolRunner } from "./support/harness-fixtures.js";
import { writeKimiReadFiles } from "./support/kimi-read-files.js";

// Kimi Code 2.1.0's own Read and Glob, recorded through its scripted-model loop on the files of
// kimi-read-files.ts: every recorded call is made again on the same files, and the text the
// model would get must be the same, character for character (long ones by length and digest).

interface Recorded {
  tool: "Read" | "Glob";
  args: Record<string, unknown>;
  text?: string;
  digest?: { chars: number; sha256: string; head: string; end: string };
}

const recorded: Recorded[] = JSON.parse(
  readFileSync(new URL("./golden/kimi-code/read-glob-2.1.0.json", import.meta.url), "utf8"),
);

let run: (tool: string, args: object) => Promise<string>;

beforeAll(() => {
  const dir = tempDir("oi-kimi-read-");
  writeKimiReadFiles(dir);
  const tools = kimiCodeHarness.open(
    harnessContext({ cwd: dir, scratchDir: tempDir("oi-kimi-scratch-") }),
  ).tools;
  const call = toolRunner(tools, toolContext(dir));
  run = async (tool, args) => {
    const result = await call(tool, args);
    const text = modelText(result.isError ? "failed" : "completed", result.output);
    return text.replace(/^Wall time: [0-9.]+ seconds\n/, "");
  };
});

describe("Kimi Code 2.1.0's recorded Read and Glob results, made again", () => {
  it.each(recorded.map((r) => [`${r.tool} ${JSON.stringify(r.args)}`, r] as const))("%s", async (_, r) => {
    const text = await run(r.tool, r.args);
    if (r.text !== undefined) return expect(text).toBe(r.text);
    const cut = text.lastIndexOf("\n<system>");
    expect({ head: text.slice(0, 120), end: text.slice(cut + 1), chars: text.length }).toEqual({
      head: r.digest?.head,
      end: r.digest?.end,
      chars: r.digest?.chars,
    });
    expect(createHash("sha256").update(text).digest("hex")).toBe(r.digest?.sha256);
  });
});
