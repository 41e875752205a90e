import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUGGY_CALC as CALC, writeCalcProject } from "./support/calc-project.js";
import { chatRequests } from "./support/chat-requests.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { expectRoundTrip } from "./support/harness-round-trip.js";
import { type InProcessAgent, startInProcess, tempDir } from "./support/in-process.js";
import { needs } from "./support/requires.js";

let model: FakeModel;
let oi: InProcessAgent;

afterEach(async () => {
  await oi?.close();
  await model?.close();
});

const { toolNames, toolResult } = chatRequests(() => model);

const LITTLE_CODER_TOOLS = [
  "read",
  "bash",
  "edit",
  "write",
  "EvidenceAdd",
  "EvidenceGet",
  "EvidenceList",
  "glob",
  "webfetch",
  "websearch",
  "ShellSession",
  "ShellSessionCwd",
  "ShellSessionReset",
];

describe("little-coder end to end", () => {
  needs("tmux").it(
    "is steered from write to edit by the guard, then runs the tests in its shell session",
    async () => {
      model = await startFakeModel();
      oi = await startInProcess({ model, configToml: 'harness = "little-coder"\n' });
      const { sessionId, cwd } = await oi.newSession();
      writeCalcProject(cwd);
      const calc = path.join(cwd, "calc.mjs");

      model.reply(
        { toolCalls: [{ id: "c1", name: "read", arguments: { path: calc } }] },
        // A small model's habit: rewrite the whole file. The guard refuses and shows the edit call.
        { toolCalls: [{ id: "c2", name: "write", arguments: { path: calc, content: "broken" } }] },
        {
          toolCalls: [
            {
              id: "c3",
              name: "edit",
              arguments: { path: calc, edits: [{ oldText: "return a - b;", newText: "return a + b;" }] },
            },
          ],
        },
        { toolCalls: [{ id: "c4", name: "ShellSession", arguments: { command: "node test.mjs" } }] },
        { text: "Fixed `add` in calc.mjs; the tests pass." },
      );
      expect(await oi.prompt(sessionId, "The add function is broken, fix it and run the tests.")).toBe(
        "end_turn",
      );

      expect(readFileSync(calc, "utf8")).toBe(CALC.replace("a - b", "a + b"));
      const first = model.requests[0]!.body;
      expect(toolNames(0)).toEqual(LITTLE_CODER_TOOLS);
      expect(first).toMatchObject({ temperature: 0.3, store: false, max_completion_tokens: 32000 });
      expect(first.messages[0].content).toMatch(/^# little-coder\n/);
      expect(first.messages[0].content).toContain(
        `Current working directory: ${cwd}\n\n## Tool Usage Guidance`,
      );
      expect(toolResult(1, "c1")?.content).toBe(CALC);
      expect(toolResult(2, "c2")?.content).toMatch(new RegExp(`^Write refused — ${calc} already exists\\.`));
      expect(toolResult(3, "c3")?.content).toBe(`Successfully replaced 1 block(s) in ${calc}.`);
      expect(toolResult(4, "c4")?.content).toBe(
        `TESTS PASSED\n\n[exit=0 cwd=${cwd} timed_out=false backend=tmux-proxy]`,
      );
      expect(oi.editor.text(sessionId)).toContain("the tests pass.");
      model.assertDone();
    },
    60_000,
  );

  needs("tmux", "bwrap").it(
    "confines the session's shell as any command: the workspace is writable, the rest is not",
    async () => {
      model = await startFakeModel();
      oi = await startInProcess({ model, configToml: 'harness = "little-coder"\n' });
      const { sessionId, cwd } = await oi.newSession();
      const outside = tempDir("oi-outside-");
      model.reply(
        {
          toolCalls: [
            {
              id: "s1",
              name: "ShellSession",
              arguments: { command: `touch inside.txt; touch ${outside}/escaped.txt` },
            },
          ],
        },
        { text: "done" },
      );
      expect(await oi.prompt(sessionId, "write two files")).toBe("end_turn");
      expect(existsSync(path.join(cwd, "inside.txt"))).toBe(true);
      expect(existsSync(path.join(outside, "escaped.txt"))).toBe(false);
      expect(toolResult(1, "s1")?.content).toMatch(/\[exit=1 cwd=\S+ timed_out=false backend=tmux-proxy\]$/);
    },
    60_000,
  );

  it("is listed by /harness with its pinned original, switches in and out keeping history, and replays after a restart", async () => {
    model = await startFakeModel();
    // The earlier Codex command is shown as pi's bash call.
    await expectRoundTrip({
      model,
      harness: "little-coder",
      listed: "little-coder 1.14.0 (github:itayinbarr/little-coder@v1.14.0",
      tools: LITTLE_CODER_TOOLS,
      shell: "bash",
      command: "echo 3 >> count.txt",
      result: "(no output)",
    });
    expect(toolNames(5)).toEqual(LITTLE_CODER_TOOLS);
  });
});
