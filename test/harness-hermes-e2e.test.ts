import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { codexHarness } from "../src/harnesses/codex/codex-harness.js";
import { hermesHarness } from "../src/harnesses/hermes/hermes-harness.js";
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

describe("hermes end to end", () => {
  it("runs a task from <tool_call> text: JSON, Qwen3 XML, a malformed block, two calls in one reply", async () => {
    model = await startFakeModel();
    oi = await startInProcess({ model, harnesses: [hermesHarness], configToml: 'harness = "hermes"\n' });
    const { sessionId, cwd } = await oi.newSession();
    writeCalcProject(cwd);

    const look =
      'I will read the code.\n<tool_call>\n{"name": "shell_command", "arguments": {"command": "cat calc.mjs"}}\n</tool_call>';
    const patch = [
      "<tool_call>",
      "<function=apply_patch>",
      "<parameter=input>",
      "*** Begin Patch",
      "*** Update File: calc.mjs",
      "@@",
      " export function add(a, b) {",
      "-  return a - b;",
      "+  return a + b;",
      " }",
      "*** End Patch",
      "</parameter>",
      "</function>",
      "</tool_call>",
    ].join("\n");
    const malformed =
      '<tool_call>\n{"name": "shell_command", "arguments": {"command": "node test.mjs"\n</tool_call>';
    const twoCalls = [
      '<tool_call>\n{"name": "shell_command", "arguments": {"command": "node test.mjs", "workdir": "."}}\n</tool_call>',
      '<tool_call>\n{"name": "update_plan", "arguments": {"plan": [{"step": "Fix add", "status": "completed"}]}}\n</tool_call>',
    ].join("\n");
    model.reply(
      { text: look },
      { text: patch },
      { text: malformed },
      { text: twoCalls },
      { text: "Fixed `add` in calc.mjs; the tests pass." },
    );

    expect(await oi.prompt(sessionId, "Fix the add function and run the tests.")).toBe("end_turn");
    expect(readFileSync(path.join(cwd, "calc.mjs"), "utf8")).toBe(CALC.replace("a - b", "a + b"));
    expect(model.requests).toHaveLength(5);
    for (const request of model.requests) expect(request.body.tools).toBeUndefined();

    const first = messagesOf(0);
    expect(first.map((m) => m.role)).toEqual(["system", "user"]);
    expect(first[0]!.content).toContain(
      '<tools>\n{"type": "function", "function": {"name": "shell_command", ',
    );
    expect(first[0]!.content).toContain('"name": "apply_patch"');
    expect(first[0]!.content).toContain('"name": "update_plan"');

    const afterLook = messagesOf(1).slice(-2);
    expect(afterLook[0]).toEqual({ role: "assistant", content: look });
    expect(afterLook[1]!.role).toBe("user");
    expect(afterLook[1]!.content).toMatch(
      /^<tool_response>\nExit code: 0\nWall time: [\d.]+ seconds\nOutput:\n/,
    );
    expect(afterLook[1]!.content.endsWith(`${CALC}\n</tool_response>`)).toBe(true);

    const afterPatch = messagesOf(2).slice(-2);
    expect(afterPatch[0]).toEqual({ role: "assistant", content: patch });
    expect(afterPatch[1]!.content).toContain("M calc.mjs");

    const afterMalformed = messagesOf(3).slice(-2);
    expect(afterMalformed[0]).toEqual({ role: "assistant", content: malformed });
    expect(afterMalformed[1]!.role).toBe("user");
    expect(afterMalformed[1]!.content).toMatch(
      /^Your last reply could not be read as a function call, so nothing was run:\n- <tool_call> block 1: its content is not valid JSON/,
    );

    const afterTwo = messagesOf(4).slice(-2);
    expect(afterTwo[0]).toEqual({ role: "assistant", content: twoCalls });
    const responses = afterTwo[1]!.content.split("\n</tool_response>\n<tool_response>\n");
    expect(responses).toHaveLength(2);
    expect(responses[0]).toContain("TESTS PASSED");
    expect(responses[1]).toBe("Plan updated\n</tool_response>");

    const plan = oi.editor.updates(sessionId).find((u) => u.sessionUpdate === "plan");
    expect(plan).toMatchObject({ entries: [{ content: "Fix add", status: "completed" }] });
    expect(oi.editor.text(sessionId)).toContain("the tests pass.");
    model.assertDone();
  });

  it("takes over automatically when the endpoint rejects native tools", async () => {
    model = await startFakeModel();
    oi = await startInProcess({ model, harnesses: [codexHarness, hermesHarness] });
    const { sessionId, cwd } = await oi.newSession();
    model.reply(
      { status: 400, body: { error: { message: "registry.ollama.ai/library/x does not support tools" } } },
      {
        text: '<tool_call>\n{"name": "shell_command", "arguments": {"command": "echo hi > note.txt"}}\n</tool_call>',
      },
      { text: "Wrote note.txt." },
    );
    expect(await oi.prompt(sessionId, "write hi to note.txt")).toBe("end_turn");

    // Codex's native tools first; hermes describes its own (Codex's older trio) in the prompt.
    expect(model.requests[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(
      ["exec_command", "write_stdin", "request_user_input", "view_image"],
    );
    expect(model.requests[1]!.body.tools).toBeUndefined();
    expect(messagesOf(1)[0]!.content).toContain("<tools>\n");
    expect(messagesOf(1)[0]!.content).toContain(
      '{"type": "function", "function": {"name": "shell_command", ',
    );
    expect(messagesOf(1).at(-1)).toEqual({ role: "user", content: "write hi to note.txt" });
    expect(messagesOf(2).at(-1)!.content).toMatch(/^<tool_response>\nExit code: 0\n/);
    expect(readFileSync(path.join(cwd, "note.txt"), "utf8")).toBe("hi\n");
    expect(oi.editor.text(sessionId)).toContain("Switched to the `hermes` harness");
    model.assertDone();
  });
});
