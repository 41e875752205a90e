import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUGGY_CALC as CALC, writeCalcProject } from "./support/calc-project.js";
import { chatRequests } from "./support/chat-requests.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { expectRoundTrip } from "./support/harness-round-trip.js";
import { type InProcessAgent, startInProcess } from "./support/in-process.js";

let model: FakeModel;
let oi: InProcessAgent;

afterEach(async () => {
  await oi?.close();
  await model?.close();
});

const { bodyOf, toolNames, toolResult } = chatRequests(() => model);

const OPENCODE_TOOLS = [
  "bash",
  "edit",
  "glob",
  "grep",
  "read",
  "skill",
  "task",
  "todowrite",
  "webfetch",
  "write",
];

describe("opencode end to end", () => {
  it("plans, reads, edits, runs the tests and answers through todowrite/read/edit/bash", async () => {
    model = await startFakeModel();
    oi = await startInProcess({ model, configToml: 'harness = "opencode"\n' });
    const { sessionId, cwd } = await oi.newSession();
    writeCalcProject(cwd);
    const calc = path.join(cwd, "calc.mjs");
    const todos = [{ content: "Fix add and run the tests", status: "in_progress", priority: "high" }];

    model.reply(
      { toolCalls: [{ id: "t1", name: "todowrite", arguments: { todos } }] },
      { toolCalls: [{ id: "c1", name: "read", arguments: { filePath: calc } }] },
      {
        toolCalls: [
          { id: "c2", name: "edit", arguments: { filePath: calc, oldString: "a - b", newString: "a + b" } },
        ],
      },
      { toolCalls: [{ id: "c3", name: "bash", arguments: { command: "node test.mjs" } }] },
      { text: "Fixed `add` in calc.mjs:2; the tests pass." },
    );
    expect(await oi.prompt(sessionId, "The add function is broken, fix it and run the tests.")).toBe(
      "end_turn",
    );

    expect(readFileSync(calc, "utf8")).toBe(CALC.replace("a - b", "a + b"));
    const first = model.requests[0]!.body;
    expect(toolNames(0)).toEqual(OPENCODE_TOOLS);
    expect(first).toMatchObject({ max_tokens: 32000, tool_choice: "auto" });
    expect(first.messages[0].role).toBe("system");
    expect(first.messages[0].content).toMatch(/^You are opencode, /);
    expect(first.messages[0].content).toContain(`<env>\n  Working directory: ${cwd}\n`);
    // opencode sends the prompt as a plain string.
    expect(first.messages.at(-1)).toEqual({
      role: "user",
      content: "The add function is broken, fix it and run the tests.",
    });
    expect(toolResult(1, "t1")?.content).toBe(JSON.stringify(todos, null, 2));
    expect(toolResult(2, "c1")?.content).toBe(
      `<path>${calc}</path>\n<type>file</type>\n<content>\n1: export function add(a, b) {\n2:   return a - b;\n3: }\n\n(End of file - total 3 lines)\n</content>`,
    );
    expect(toolResult(3, "c2")?.content).toBe("Edit applied successfully.");
    expect(toolResult(4, "c3")?.content).toBe("TESTS PASSED\n");
    // The assistant message that carries calls has empty text, as opencode's provider sends it.
    expect(bodyOf(4).messages.find((m) => m.tool_calls)?.content).toBe("");
    expect(oi.editor.text(sessionId)).toContain("the tests pass.");
    const plan = oi.editor.updates(sessionId).find((u) => u.sessionUpdate === "plan");
    expect(plan).toMatchObject({
      entries: [{ content: "Fix add and run the tests", status: "in_progress" }],
    });
    model.assertDone();
  });

  it("is listed by /harness with its pinned original, switches in and out keeping history, and replays after a restart", async () => {
    model = await startFakeModel();
    const replayedText = await expectRoundTrip({
      model,
      harness: "opencode",
      listed: "opencode 1.18.33 (npm:opencode-ai)",
      tools: OPENCODE_TOOLS,
      shell: "bash",
      command: "echo 3 >> count.txt",
      result: "(no output)",
    });
    expect(bodyOf(2).messages.map((m) => m.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    expect(replayedText).toContain("count.txt counts to 3");
    expect(toolNames(5)).toEqual(OPENCODE_TOOLS);
  });
});
