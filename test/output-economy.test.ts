import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { claudeCodeHarness } from "../src/harnesses/claude-code/claude-code-harness.js";
import { codexHarness } from "../src/harnesses/codex/codex-harness.js";
import { builtinHarnesses } from "../src/harnesses/harness-list.js";
import { kimiCodeHarness } from "../src/harnesses/kimi-code/kimi-code-harness.js";
import { FILE_UNCHANGED_STUB } from "../src/harnesses/shared/claude-code-core/tools/read.js";
import { economizer, FOREIGN_MAX_CHARS, SAFETY_MAX_CHARS } from "../src/sessions/output-economy.js";
import type { HistoryEvent, HistoryEventOf } from "../src/store/events.js";
import { spillWithPreview } from "../src/tools/fs/spill-output.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { harnessContext, tempDir } from "./support/harness-fixtures.js";
import { type InProcessAgent, startInProcess } from "./support/in-process.js";

let model: FakeModel;
let oi: InProcessAgent;

afterEach(async () => {
  await oi?.close();
  await model?.close();
});

const call = (
  name: string,
  over: Partial<HistoryEventOf<"tool_call">> = {},
): HistoryEventOf<"tool_call"> => ({
  type: "tool_call",
  turnId: "t",
  step: 1,
  callId: `c-${Math.random()}`,
  name,
  harness: "h",
  capability: "other",
  arguments: "{}",
  title: name,
  kind: "other",
  locations: [],
  display: [],
  ...over,
});

/** Lines `line 1` ... `line N`: the head and the tail are recognisable. */
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");

describe("tool output economy", () => {
  it("spills an oversized result to a file and keeps its head and tail", async () => {
    const dir = tempDir("oi-spill-");
    const text = numbered(20_000);
    const preview = await spillWithPreview({ text, dir, name: "out.txt", maxChars: 10_000 });
    expect(preview.length).toBeLessThan(5_000);
    expect(preview).toContain(`The full output is saved in ${path.join(dir, "out.txt")}`);
    expect(preview).toMatch(/^\[Output too long: \d+ characters, shown as its first and last 2000\./);
    expect(preview).toContain("line 1\nline 2\n");
    expect(preview).toContain("line 20000");
    expect(preview).toMatch(/\[… \d+ characters omitted …\]/);
    expect(readFileSync(path.join(dir, "out.txt"), "utf8")).toBe(text);
    expect(await spillWithPreview({ text: "short", dir, name: "x.txt", maxChars: 10 })).toBe("short");
  });

  it.each(builtinHarnesses().map((h) => [h.id, h] as const))(
    "%s: MCP output over the harness's cap is spilled, within it untouched",
    async (_id, entry) => {
      const harness = await entry.load();
      const scratchDir = tempDir("oi-econ-");
      const ownSession = harness.open(harnessContext({ scratchDir }));
      const own = ownSession.tools;
      const economize = economizer({ harness, own, scratchDir, history: () => [] });
      const cap = harness.output?.foreignMaxChars ?? FOREIGN_MAX_CHARS;
      const mcp = call("mcp__files__dump");
      const big = "x".repeat(cap + 1);
      const spilled = await economize(mcp, { output: big, display: [{ type: "text", text: "shown" }] });
      expect(spilled.output.length).toBeLessThan(cap);
      expect(spilled.display).toEqual([{ type: "text", text: "shown" }]);
      const [file] = readdirSync(path.join(scratchDir, "tool-results"));
      expect(file).toMatch(/^mcp__files__dump-.*\.txt$/);
      expect(spilled.output).toContain(path.join(scratchDir, "tool-results", file!));
      const fits = "y".repeat(cap);
      expect((await economize(mcp, { output: fits })).output).toBe(fits);
      // The harness's own tools keep their own caps; only the safety net applies to them.
      const mine = call(own[0]!.name);
      const medium = "z".repeat(Math.max(cap + 1, 60_000));
      expect((await economize(mine, { output: medium })).output).toBe(medium);
      const huge = "z".repeat(SAFETY_MAX_CHARS + 1);
      expect((await economize(mine, { output: huge })).output.length).toBeLessThan(10_000);
    },
  );

  it("answers a repeated identical read with the harness's stub only where its original does", async () => {
    const read = (id: string) =>
      call("Read", {
        callId: id,
        capability: "read",
        arguments: '{"file_path":"/w/a.ts"}',
        harness: "claude-code",
      });
    const history: HistoryEvent[] = [
      read("r1"),
      {
        type: "tool_result",
        turnId: "t",
        callId: "r1",
        status: "completed",
        output: "1\tconst a = 1;",
        display: [],
      },
    ];
    const economize = (harness: typeof claudeCodeHarness) =>
      economizer({ harness, own: [], scratchDir: tempDir("oi-econ-"), history: () => history });
    // Same arguments in another key order and spacing are the same read.
    const again = read("r2");
    again.arguments = '{ "file_path": "/w/a.ts" }';
    history.push(again);
    expect((await economize(claudeCodeHarness)(again, { output: "1\tconst a = 1;" })).output).toBe(
      FILE_UNCHANGED_STUB,
    );
    // A changed file is returned in full.
    expect((await economize(claudeCodeHarness)(again, { output: "1\tconst a = 2;" })).output).toBe(
      "1\tconst a = 2;",
    );
    // Codex and Kimi Code have no such rule.
    for (const harness of [codexHarness, kimiCodeHarness]) {
      expect((await economize(harness)(again, { output: "1\tconst a = 1;" })).output).toBe("1\tconst a = 1;");
    }
    // After a compaction the earlier result is gone from the context: the content comes back.
    history.splice(2, 0, { type: "compaction", summary: "s", replaced: 2 });
    expect((await economize(claudeCodeHarness)(again, { output: "1\tconst a = 1;" })).output).toBe(
      "1\tconst a = 1;",
    );
  });

  it("claude-code end to end: the second Read of an unchanged file is a stub, after an edit it is content", async () => {
    model = await startFakeModel();
    oi = await startInProcess({
      model,
      harnesses: [claudeCodeHarness],
      configToml: 'mode = "full-access"\n',
    });
    const { sessionId, cwd } = await oi.newSession();
    const file = path.join(cwd, "a.ts");
    writeFileSync(file, "export const a = 1;\n");
    const readCall = { name: "Read", arguments: { file_path: file } };
    model.reply(
      { toolCalls: [readCall] },
      { toolCalls: [readCall] },
      { toolCalls: [{ name: "Edit", arguments: { file_path: file, old_string: "1", new_string: "2" } }] },
      { toolCalls: [readCall] },
      { text: "done" },
    );
    expect(await oi.prompt(sessionId, "look twice")).toBe("end_turn");
    const results = oi.runtime.store
      .events(sessionId)
      .map((e) => e.event)
      .filter((e): e is HistoryEventOf<"tool_result"> => e.type === "tool_result")
      .map((e) => e.output);
    expect(results[0]).toContain("export const a = 1;");
    expect(results[1]).toBe(FILE_UNCHANGED_STUB);
    expect(results[3]).toContain("export const a = 2;");
    // The model is sent the stub, not the content twice.
    const last = model.requests[4]!.body.messages as Array<{ role: string; content: string }>;
    expect(last.filter((m) => m.role === "tool" && m.content.includes("export const a = 1;"))).toHaveLength(
      1,
    );
    model.assertDone();
  });
});
