import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { piHarness } from "../src/harnesses/pi/pi-harness.js";
import { BUGGY_CALC as CALC, writeCalcProject } from "./support/calc-project.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess } from "./support/in-process.js";

let model: FakeModel;
let oi: InProcessAgent;

afterEach(async () => {
  await oi?.close();
  await model?.close();
});

type Message = { role: string; content: unknown; tool_call_id?: string };
const messagesOf = (i: number) => model.requests[i]!.body.messages as Message[];
const toolResult = (i: number, id: string) =>
  messagesOf(i).find((m) => m.role === "tool" && m.tool_call_id === id);

describe("pi end to end", () => {
  it("reads, edits, runs the tests and answers through read/edit/bash", async () => {
    model = await startFakeModel();
    oi = await startInProcess({ model, harnesses: [piHarness], configToml: 'harness = "pi"\n' });
    const { sessionId, cwd } = await oi.newSession();
    writeCalcProject(cwd);

    model.reply(
      { toolCalls: [{ id: "c1", name: "read", arguments: { path: "calc.mjs" } }] },
      {
        toolCalls: [
          {
            id: "c2",
            name: "edit",
            arguments: { path: "calc.mjs", edits: [{ oldText: "return a - b;", newText: "return a + b;" }] },
          },
        ],
      },
      { toolCalls: [{ id: "c3", name: "bash", arguments: { command: "node test.mjs" } }] },
      { text: "Fixed `add` in calc.mjs; the tests pass." },
    );
    expect(await oi.prompt(sessionId, "The add function is broken, fix it and run the tests.")).toBe(
      "end_turn",
    );

    expect(readFileSync(path.join(cwd, "calc.mjs"), "utf8")).toBe(CALC.replace("a - b", "a + b"));
    const first = model.requests[0]!.body;
    expect(first.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      "read",
      "bash",
      "edit",
      "write",
    ]);
    expect(first.messages[0].role).toBe("system");
    expect(first.messages[0].content).toContain("working inside pi, a coding agent harness");
    expect(first.messages[0].content).toContain(`Current working directory: ${cwd}`);
    // pi sends user text as parts, and its own knobs.
    expect(first.messages.at(-1)).toEqual({
      role: "user",
      content: [{ type: "text", text: "The add function is broken, fix it and run the tests." }],
    });
    expect(first).toMatchObject({ store: false, max_completion_tokens: 32000 });
    expect(toolResult(1, "c1")?.content).toBe(CALC);
    expect(toolResult(2, "c2")?.content).toBe("Successfully replaced 1 block(s) in calc.mjs.");
    expect(toolResult(3, "c3")?.content).toBe("TESTS PASSED\n");
    expect(oi.editor.text(sessionId)).toContain("the tests pass.");
    // Only the command asked: edits inside the workspace run in workspace-write mode.
    expect(oi.editor.permissions.map((p) => p.toolCall.title)).toEqual(["node test.mjs"]);
    model.assertDone();
  });

  it("feeds a failing edit back as pi's error text and lets the model recover", async () => {
    model = await startFakeModel();
    oi = await startInProcess({ model, harnesses: [piHarness], configToml: 'harness = "pi"\n' });
    const { sessionId, cwd } = await oi.newSession();
    writeFileSync(path.join(cwd, "calc.mjs"), CALC);
    model.reply(
      {
        toolCalls: [
          {
            id: "e1",
            name: "edit",
            arguments: { path: "calc.mjs", edits: [{ oldText: "a-b", newText: "a+b" }] },
          },
        ],
      },
      {
        toolCalls: [
          { id: "e2", name: "edit", arguments: { path: "calc.mjs", oldText: "a - b", newText: "a + b" } },
        ],
      },
      { text: "Done." },
    );
    expect(await oi.prompt(sessionId, "fix add")).toBe("end_turn");
    expect(toolResult(1, "e1")?.content).toBe(
      "Could not find the exact text in calc.mjs. The old text must match exactly including all whitespace and newlines.",
    );
    expect(toolResult(2, "e2")?.content).toBe("Successfully replaced 1 block(s) in calc.mjs.");
    expect(readFileSync(path.join(cwd, "calc.mjs"), "utf8")).toContain("return a + b;");
    model.assertDone();
  });
});
