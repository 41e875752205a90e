import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { qwenCodeHarness } from "../src/harnesses/qwen-code/qwen-code-harness.js";
import { BUGGY_CALC as CALC, writeCalcProject } from "./support/calc-project.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess } from "./support/in-process.js";

let model: FakeModel;
let oi: InProcessAgent;

afterEach(async () => {
  await oi?.close();
  await model?.close();
});

type Message = { role: string; content: unknown; tool_call_id?: string; tool_calls?: unknown[] };
const messagesOf = (i: number) => model.requests[i]!.body.messages as Message[];
const toolResult = (i: number, id: string) =>
  messagesOf(i).find((m) => m.role === "tool" && m.tool_call_id === id);

describe("qwen-code end to end", () => {
  it("reads, edits, runs the tests and answers through read_file/edit/run_shell_command", async () => {
    model = await startFakeModel();
    oi = await startInProcess({ model, harnesses: [qwenCodeHarness], configToml: 'harness = "qwen-code"\n' });
    const { sessionId, cwd } = await oi.newSession();
    writeCalcProject(cwd);
    const calc = path.join(cwd, "calc.mjs");

    model.reply(
      { toolCalls: [{ id: "c1", name: "read_file", arguments: { file_path: calc } }] },
      {
        toolCalls: [
          {
            id: "c2",
            name: "edit",
            // Keys in an unusual order: the replayed call is re-serialized in Qwen's order.
            arguments: { new_string: "return a + b;", old_string: "return a - b;", file_path: calc },
          },
        ],
      },
      {
        toolCalls: [
          {
            id: "c3",
            name: "run_shell_command",
            arguments: { description: "Run the tests", command: "node test.mjs" },
          },
        ],
      },
      { text: "Fixed `add` in calc.mjs; the tests pass." },
    );
    expect(await oi.prompt(sessionId, "add() is broken. Fix it and run the tests.")).toBe("end_turn");

    expect(readFileSync(calc, "utf8")).toBe(CALC.replace("a - b", "a + b"));

    const first = model.requests[0]!.body;
    expect(first.max_tokens).toBe(32000);
    expect(first.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      "agent",
      "edit",
      "glob",
      "grep_search",
      "notebook_edit",
      "read_file",
      "run_shell_command",
      "skill",
      "write_file",
    ]);
    const edit = first.tools.find((t: { function: { name: string } }) => t.function.name === "edit");
    expect(Object.keys(edit.function.parameters.properties)).toEqual([
      "file_path",
      "old_string",
      "new_string",
      "replace_all",
    ]);
    // No startup turn and no acknowledgement: the context opens the one user message.
    const [system, user, ...rest] = messagesOf(0);
    expect(rest).toEqual([]);
    expect(String(system?.content)).toMatch(/^You are Qwen Code/);
    const parts = user?.content as Array<{ type: string; text: string }>;
    expect(parts.map((part) => part.text.split("\n")[0])).toEqual([
      "<system-reminder>",
      "<system-reminder>",
      "add() is broken. Fix it and run the tests.",
    ]);
    expect(parts[0]?.text).toContain(`${cwd}/\n├───calc.mjs\n└───test.mjs`);
    expect(parts[1]?.text).toContain("Today is");

    // Qwen Code 0.24.4 sends every tool result as text parts.
    const text = (t: string) => [{ type: "text", text: t }];
    expect(toolResult(1, "c1")?.content).toEqual(text(CALC));
    expect(toolResult(2, "c2")?.content).toEqual(
      text(
        `The file: ${calc} has been updated. Showing lines 1-4 of 4 from the edited file:\n\n---\n\n${CALC.replace("a - b", "a + b")}`,
      ),
    );
    expect(toolResult(3, "c3")?.content).toEqual(
      text(
        "Command: node test.mjs\nDirectory: (root)\nOutput: TESTS PASSED\nError: (none)\nExit Code: 0\nSignal: (none)\nProcess Group PGID: (none)",
      ),
    );
    const calls = messagesOf(3)
      .filter((m) => m.role === "assistant" && m.tool_calls)
      .flatMap((m) => m.tool_calls as Array<{ function: { name: string; arguments: string } }>);
    expect(calls.map((c) => c.function.arguments)).toEqual([
      JSON.stringify({ file_path: calc }),
      JSON.stringify({ file_path: calc, old_string: "return a - b;", new_string: "return a + b;" }),
      JSON.stringify({ command: "node test.mjs", description: "Run the tests" }),
    ]);
    expect(
      messagesOf(3)
        .filter((m) => m.role === "assistant" && m.tool_calls)
        .every((m) => m.content === null),
    ).toBe(true);
    model.assertDone();
  });
});
