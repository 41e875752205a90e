import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { geminiCliHarness } from "../src/harnesses/gemini-cli/gemini-cli-harness.js";
import { writeCalcProject } from "./support/calc-project.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess } from "./support/in-process.js";

let model: FakeModel;
let oi: InProcessAgent;

afterEach(async () => {
  await oi?.close();
  await model?.close();
});

const CALC = "export function add(a, b) {\n  const sum = a - b;\n  return sum;\n}\n";

type Message = { role: string; content: unknown; tool_call_id?: string; tool_calls?: unknown[] };
const messagesOf = (i: number) => model.requests[i]!.body.messages as Message[];
const toolResult = (i: number, id: string) =>
  messagesOf(i).find((m) => m.role === "tool" && m.tool_call_id === id);

describe("gemini-cli end to end", () => {
  it("reads, fixes with a whitespace-drifted replace, runs the tests and answers", async () => {
    model = await startFakeModel();
    oi = await startInProcess({
      model,
      harnesses: [geminiCliHarness],
      configToml: 'harness = "gemini-cli"\n',
    });
    const { sessionId, cwd } = await oi.newSession();
    writeCalcProject(cwd, CALC);
    const calc = path.join(cwd, "calc.mjs");

    model.reply(
      { toolCalls: [{ id: "c1", name: "read_file", arguments: { file_path: "calc.mjs" } }] },
      {
        toolCalls: [
          {
            id: "c2",
            name: "replace",
            arguments: {
              file_path: calc,
              instruction: "In 'add', add the operands instead of subtracting them so add(2, 3) is 5.",
              // Four spaces where the file has two: only the tolerant matcher finds it, and it
              // re-indents new_string to the file's indentation.
              old_string: "    const sum = a - b;\n    return sum;",
              new_string: "    const sum = a + b;\n    return sum;",
            },
          },
        ],
      },
      {
        toolCalls: [
          {
            id: "c3",
            name: "run_shell_command",
            arguments: { command: "node test.mjs", description: "Run the tests" },
          },
        ],
      },
      { text: "Fixed `add` in calc.mjs; the tests pass." },
    );
    expect(await oi.prompt(sessionId, "add() is broken. Fix it and run the tests.")).toBe("end_turn");

    expect(readFileSync(calc, "utf8")).toBe(
      "export function add(a, b) {\n  const sum = a + b;\n  return sum;\n}\n",
    );

    const first = model.requests[0]!.body;
    expect(first.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      "list_directory",
      "read_file",
      "grep_search",
      "glob",
      "replace",
      "write_file",
      "web_fetch",
      "run_shell_command",
      "list_background_processes",
      "read_background_output",
      "google_web_search",
      "write_todos",
      "enter_plan_mode",
      "invoke_agent",
    ]);
    const replace = first.tools.find((t: { function: { name: string } }) => t.function.name === "replace");
    expect(replace.function.parameters.required).toEqual([
      "file_path",
      "instruction",
      "old_string",
      "new_string",
    ]);
    expect(first.temperature).toBe(1);
    expect(first.top_p).toBe(0.95);
    // As Gemini CLI's first turn: one user message, the session context and then the prompt.
    const [system, opening, ...rest] = messagesOf(0);
    expect(rest).toEqual([]);
    expect(system?.role).toBe("system");
    expect(String(system?.content)).toMatch(/^You are Gemini CLI, an interactive CLI agent/);
    expect(opening?.role).toBe("user");
    const [context, user] = opening!.content as Array<{ type: string; text: string }>;
    expect(context?.text).toMatch(/^<session_context>\nThis is the Gemini CLI\./);
    expect(context?.text).toContain(`${cwd}/\n├───calc.mjs\n└───test.mjs`);
    expect(user).toEqual({ type: "text", text: "add() is broken. Fix it and run the tests." });

    expect(toolResult(1, "c1")?.content).toBe(CALC);
    expect(toolResult(2, "c2")?.content).toBe(
      `Successfully modified file: ${calc} (1 replacements). Here is the updated code:\nexport function add(a, b) {\n  const sum = a + b;\n  return sum;\n}\n`,
    );
    expect(toolResult(3, "c3")?.content).toMatch(
      /^<untrusted_context>\nOutput: TESTS PASSED\nProcess Group PGID: \d+\n<\/untrusted_context>$/,
    );
    // The replayed call keeps the model's own arguments.
    const replayed = messagesOf(3).find((m) => m.role === "assistant" && JSON.stringify(m).includes('"c2"'));
    expect(replayed?.tool_calls?.[0]).toMatchObject({ id: "c2", function: { name: "replace" } });
    model.assertDone();
  });
});
