import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUGGY_CALC as CALC, writeCalcProject } from "./support/calc-project.js";
import { chatRequests } from "./support/chat-requests.js";
import { DEEPSEEK_TUI_TOOLS } from "./support/deepseek-tui-tools.js";
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

describe("deepseek-tui end to end", () => {
  it("tracks, runs the failing tests, reads, edits and verifies through CodeWhale's tools", async () => {
    model = await startFakeModel();
    oi = await startInProcess({
      model,
      cli: { model: "deepseek-v4-pro" },
      configToml: 'harness = "deepseek-tui"\n',
    });
    const { sessionId, cwd } = await oi.newSession();
    writeCalcProject(cwd);
    const todos = [{ content: "Fix add and run the tests", status: "in_progress" }];

    model.reply(
      {
        reasoning: "Track it first.",
        toolCalls: [{ id: "t1", name: "checklist_write", arguments: { todos } }],
      },
      {
        text: "Running the tests.",
        toolCalls: [{ id: "c0", name: "exec_shell", arguments: { command: "node test.mjs" } }],
      },
      { toolCalls: [{ id: "c1", name: "read_file", arguments: { path: "calc.mjs" } }] },
      {
        toolCalls: [
          { id: "c2", name: "edit_file", arguments: { path: "calc.mjs", search: "a - b", replace: "a + b" } },
        ],
      },
      { toolCalls: [{ id: "c3", name: "exec_shell", arguments: { command: "node test.mjs" } }] },
      { text: "Fixed `add` in calc.mjs; the tests pass." },
    );
    expect(
      await oi.prompt(sessionId, "The add function in calc.mjs is broken, fix it and run the tests."),
    ).toBe("end_turn");

    const calc = path.join(cwd, "calc.mjs");
    expect(readFileSync(calc, "utf8")).toBe(CALC.replace("a - b", "a + b"));
    const first = model.requests[0]!.body;
    expect(toolNames(0)).toEqual(DEEPSEEK_TUI_TOOLS);
    expect(first).toMatchObject({ model: "deepseek-v4-pro", max_tokens: 64000, tool_choice: "auto" });
    expect(first.messages[0].content).toMatch(/^## CONSTITUTION OF CODEWHALE\n/);
    expect(first.messages[0].content).toContain(`- pwd: ${cwd}`);
    expect(first.messages[1].content).toMatch(
      /^<turn_meta>\nCurrent local date: \d{4}-\d\d-\d\d\n## Repo Working Set\n[\s\S]*- calc\.mjs \(file\)\n[\s\S]*<\/turn_meta>\nThe add function in calc\.mjs is broken, fix it and run the tests\.$/,
    );
    expect(toolResult(1, "t1")?.content).toMatch(/^Todo list updated \(1 items, 0% complete\)\n/);
    expect(toolResult(2, "c0")?.content).toBe(
      "Command failed (exit code: Some(1))\n\nSTDOUT:\nTESTS FAILED\n\n\nSTDERR:",
    );
    expect(toolResult(3, "c1")?.content).toBe(CALC.trimEnd());
    expect(toolResult(4, "c2")?.content).toBe(
      `--- a/${calc}\n+++ b/${calc}\n@@ -1,3 +1,3 @@\n export function add(a, b) {\n-  return a - b;\n+  return a + b;\n }\n\nReplaced 1 occurrence in ${calc}`,
    );
    expect(toolResult(5, "c3")?.content).toBe("TESTS PASSED");
    // Reasoning goes back as it came; calls that came without it carry CodeWhale's placeholder.
    const assistants = bodyOf(5).messages.filter((m) => m.role === "assistant");
    expect(assistants.map((m) => [m.content, m.reasoning_content])).toEqual([
      ["", "Track it first."],
      ["Running the tests.", "(reasoning omitted)"],
      ["", "(reasoning omitted)"],
      ["", "(reasoning omitted)"],
      ["", "(reasoning omitted)"],
    ]);
    expect(oi.editor.text(sessionId)).toContain("the tests pass.");
    // /compact asks for CodeWhale's carry-forward briefing, as a plain last message.
    model.reply({ text: "<carry_forward>\nadd fixed, tests pass\n</carry_forward>" });
    await oi.prompt(sessionId, "/compact");
    const ask = bodyOf(6).messages.at(-1);
    expect(ask?.role).toBe("user");
    expect(ask?.content).toMatch(/^# Cycle Handoff Briefing\n[\s\S]*<carry_forward>/);
    const plan = oi.editor.updates(sessionId).find((u) => u.sessionUpdate === "plan");
    expect(plan).toMatchObject({
      entries: [{ content: "Fix add and run the tests", status: "in_progress" }],
    });
    model.assertDone();
  });

  it("is listed by /harness with its pinned original, switches in and out keeping history, and replays after a restart", async () => {
    model = await startFakeModel();
    await expectRoundTrip({
      model,
      harness: "deepseek-tui",
      listed: "CodeWhale (DeepSeek-TUI) 0.8.44 (github:Hmbown/CodeWhale)",
      tools: DEEPSEEK_TUI_TOOLS,
      shell: "exec_shell",
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
    expect(bodyOf(2).messages[0]?.content).toContain("## Mode: YOLO");
    expect(toolNames(5)).toEqual(DEEPSEEK_TUI_TOOLS);
  });
});
