import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  instancePrompt,
  miniSweAgentHarness,
} from "../src/harnesses/mini-swe-agent/mini-swe-agent-harness.js";
import { formatErrorText } from "../src/harnesses/mini-swe-agent/parse-action.js";
import { BUGGY_CALC as CALC, writeCalcProject } from "./support/calc-project.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess } from "./support/in-process.js";

let model: FakeModel;
let oi: InProcessAgent;

afterEach(async () => {
  await oi?.close();
  await model?.close();
});

type Message = { role: string; content: string };
const messagesOf = (i: number) => model.requests[i]!.body.messages as Message[];

describe("mini-swe-agent end to end", () => {
  it("drives a fix through bash blocks in plain text, recovers from a malformed reply and submits", async () => {
    model = await startFakeModel();
    oi = await startInProcess({
      model,
      harnesses: [miniSweAgentHarness],
      configToml: 'harness = "mini-swe-agent"\n',
    });
    const { sessionId, cwd } = await oi.newSession();
    writeCalcProject(cwd);

    const look = "THOUGHT: Let me read the implementation first.\n\n```bash\ncat calc.mjs\n```";
    const fix =
      "THOUGHT: `add` subtracts; fix the operator.\n\n```bash\nsed -i 's/a - b/a + b/' calc.mjs\n```";
    const malformed = "Now I will run the tests to check the fix.";
    const test = "THOUGHT: Run the tests.\n\n```bash\nnode test.mjs\n```";
    const submit = "THOUGHT: The tests pass.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```";
    model.reply({ text: look }, { text: fix }, { text: malformed }, { text: test }, { text: submit });

    expect(await oi.prompt(sessionId, "Fix the add function.")).toBe("end_turn");
    expect(readFileSync(path.join(cwd, "calc.mjs"), "utf8")).toBe(CALC.replace("a - b", "a + b"));
    expect(model.requests).toHaveLength(5);
    for (const request of model.requests) expect(request.body.tools).toBeUndefined();

    const first = messagesOf(0);
    expect(first.map((m) => m.role)).toEqual(["system", "user"]);
    expect(first[0]!.content).toContain("exactly ONE bash code block");
    expect(first[1]!.content).toBe(instancePrompt("Fix the add function."));

    expect(messagesOf(1).slice(2)).toEqual([
      { role: "assistant", content: look },
      { role: "user", content: `<returncode>0</returncode>\n<output>\n${CALC}</output>` },
    ]);
    expect(messagesOf(2).slice(-2)).toEqual([
      { role: "assistant", content: fix },
      { role: "user", content: "<returncode>0</returncode>\n<output>\n</output>" },
    ]);
    expect(messagesOf(3).slice(-2)).toEqual([
      { role: "assistant", content: malformed },
      { role: "user", content: formatErrorText(0) },
    ]);
    expect(messagesOf(4).slice(-2)).toEqual([
      { role: "assistant", content: test },
      { role: "user", content: "<returncode>0</returncode>\n<output>\nTESTS PASSED\n</output>" },
    ]);
    // cat is known read-only; sed -i and node are asked (and allowed by the test editor).
    expect(oi.editor.permissions.map((p) => p.toolCall.title)).toEqual([
      "sed -i 's/a - b/a + b/' calc.mjs",
      "node test.mjs",
    ]);
    expect(oi.editor.text(sessionId)).toContain("THOUGHT: The tests pass.");
    model.assertDone();
  });

  it("continues the session: a second prompt is sent as is, after the first turn's history", async () => {
    model = await startFakeModel();
    oi = await startInProcess({
      model,
      harnesses: [miniSweAgentHarness],
      configToml: 'harness = "mini-swe-agent"\n',
    });
    const { sessionId } = await oi.newSession();
    const submit = "Nothing to do.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```";
    model.reply({ text: submit }, { text: submit });
    expect(await oi.prompt(sessionId, "first task")).toBe("end_turn");
    expect(await oi.prompt(sessionId, "second task")).toBe("end_turn");
    expect(messagesOf(1).slice(1)).toEqual([
      { role: "user", content: instancePrompt("first task") },
      { role: "assistant", content: submit },
      { role: "user", content: "second task" },
    ]);
    model.assertDone();
  });
});
