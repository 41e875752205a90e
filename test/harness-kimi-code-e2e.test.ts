import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { kimiCodeHarness } from "../src/harnesses/kimi-code/kimi-code-harness.js";
import { AUTO_MODE_REMINDER } from "../src/harnesses/kimi-code/render.js";
import { BUGGY_CALC as CALC, writeCalcProject } from "./support/calc-project.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess } from "./support/in-process.js";

let model: FakeModel;
let oi: InProcessAgent;

afterEach(async () => {
  await oi?.close();
  await model?.close();
});

type Message = {
  role: string;
  content: unknown;
  tool_call_id?: string;
  reasoning_content?: string;
  tool_calls?: unknown[];
};
const body = (i: number) => model.requests[i]!.body;
const messagesOf = (i: number) => body(i).messages as Message[];
const toolResult = (i: number, id: string) =>
  messagesOf(i).find((m) => m.role === "tool" && m.tool_call_id === id)?.content;

async function start() {
  model = await startFakeModel();
  oi = await startInProcess({ model, harnesses: [kimiCodeHarness], configToml: 'harness = "kimi-code"\n' });
  return oi.newSession();
}

describe("kimi-code end to end", () => {
  it("reads, edits, runs the tests and answers through Read/Edit/Bash, with Kimi's ids and knobs", async () => {
    const { sessionId, cwd } = await start();
    writeCalcProject(cwd);
    model.reply(
      {
        reasoning: "Look at calc.mjs first.",
        toolCalls: [{ id: "functions.Read:0", name: "Read", arguments: { path: "calc.mjs" } }],
      },
      {
        toolCalls: [
          {
            id: "functions.Edit:1",
            name: "Edit",
            arguments: '{"path": "calc.mjs", "old_string": "a - b", "new_string": "a + b"}',
          },
        ],
      },
      { toolCalls: [{ id: "functions.Bash:2", name: "Bash", arguments: { command: "node test.mjs" } }] },
      { text: "Fixed `add` in calc.mjs; the tests pass." },
    );
    expect(await oi.prompt(sessionId, "The add function is broken, fix it and run the tests.")).toBe(
      "end_turn",
    );

    expect(readFileSync(path.join(cwd, "calc.mjs"), "utf8")).toBe(CALC.replace("a - b", "a + b"));
    const first = body(0);
    expect(first.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      "Agent",
      "AskUserQuestion",
      "Bash",
      "Edit",
      "EnterPlanMode",
      "ExitPlanMode",
      "FetchURL",
      "Glob",
      "Grep",
      "Read",
      "ReadMediaFile",
      "TaskList",
      "TaskOutput",
      "TaskStop",
      "TodoList",
      "WaitFor",
      "Write",
    ]);
    expect(first).toMatchObject({
      max_completion_tokens: 32768,
      prompt_cache_key: `session_${sessionId}`,
      thinking: { type: "enabled", keep: "all" },
    });
    expect(first.reasoning_effort).toBeUndefined();
    const system = first.messages[0];
    expect(system.role).toBe("system");
    expect(system.content).toContain(`The current working directory is \`${cwd}\`.`);
    expect(system.content).toContain("```\n├── calc.mjs\n└── test.mjs\n```");
    expect(first.messages.slice(1)).toEqual([
      { role: "user", content: "The add function is broken, fix it and run the tests." },
      // Kimi Code 2.1.0: the date reminder, then the auto-mode one, after the first prompt only.
      { role: "user", content: expect.stringMatching(/^<system-reminder>\nIt is \d{4}-\d{2}-\d{2} today\./) },
      { role: "user", content: AUTO_MODE_REMINDER },
    ]);

    expect(messagesOf(1)[4]).toEqual({
      role: "assistant",
      content: null,
      reasoning_content: "Look at calc.mjs first.",
      tool_calls: [
        {
          id: "functions.Read_0",
          type: "function",
          function: { name: "Read", arguments: '{"path":"calc.mjs"}' },
        },
      ],
    });
    expect(toolResult(1, "functions.Read_0")).toBe(
      "1\texport function add(a, b) {\n2\t  return a - b;\n3\t}\n<system>3 lines read from file starting from line 1. Total lines in file: 3. Requested range complete. Effective max_chars: 100000. End of file reached.</system>",
    );
    const editCall = messagesOf(2)[6] as {
      tool_calls: Array<{ function: { arguments: string } }>;
      reasoning_content: string;
    };
    expect(editCall.reasoning_content).toBe("");
    expect(editCall.tool_calls[0]?.function.arguments).toBe(
      '{"path":"calc.mjs","old_string":"a - b","new_string":"a + b"}',
    );
    expect(toolResult(2, "functions.Edit_1")).toBe("Replaced 1 occurrence in calc.mjs");
    // Kimi Code 2.1.0 heads a Bash result with its wall time.
    expect(toolResult(3, "functions.Bash_2")).toMatch(/^Wall time: \d+\.\d{3} seconds\nTESTS PASSED\n$/);
    // The system prompt stays byte-identical across the turn (prompt cache).
    expect(new Set(model.requests.map((r) => r.body.messages[0].content)).size).toBe(1);
    expect(oi.editor.text(sessionId)).toContain("the tests pass.");
    // Only the command asked: edits inside the workspace run in workspace-write mode.
    expect(oi.editor.permissions.map((p) => p.toolCall.title)).toEqual(["node test.mjs"]);
    model.assertDone();
  });

  it("spills oversized Bash output, then places the reminder after each user message in the next turn", async () => {
    const { sessionId } = await start();
    const command =
      "node -e \"for (let i = 0; i < 30; i++) console.log(String(i).padStart(3, '0') + '-'.repeat(1996))\"";
    model.reply(
      { toolCalls: [{ id: "functions.Bash:0", name: "Bash", arguments: { command } }] },
      { text: "That was long." },
    );
    expect(await oi.prompt(sessionId, "print a lot")).toBe("end_turn");

    const output = toolResult(1, "functions.Bash_0") as string;
    const lines = output.split("\n");
    expect(lines[0]).toMatch(/^Wall time: \d+\.\d{3} seconds$/);
    expect(lines.slice(1, 5)).toEqual([
      "Tool output exceeded 50000 characters; the full output was saved to a file.",
      "tool_name: Bash",
      "tool_call_id: functions.Bash:0",
      "output_size_chars: 60000",
    ]);
    const file = /\noutput_path: (.+\/tasks\/bash-[0-9a-z]{8}\/output\.log)\n/.exec(output)?.[1] ?? "";
    expect(readFileSync(file, "utf8").split("\n")).toHaveLength(31);
    // 4 096 characters of head (two lines and the start of the third), 1 024 of tail.
    expect(output).toContain(`\n[preview: chars [0, 4096)]\n000${"-".repeat(1996)}\n`);
    expect(output).toContain(`\n002${"-".repeat(93)}\n\n[elided: chars [4096, 58976)]\n`);
    expect(output).toContain(
      `[preview: chars [58976, 60000)]\n${"-".repeat(1023)}\n\n\nCommand executed successfully.\n`,
    );
    expect(output).toMatch(
      /\nnext_step: Use TaskOutput\(task_id="bash-[0-9a-z]{8}"\) to query the task output\.$/,
    );

    model.reply({ text: "Hello again." });
    expect(await oi.prompt(sessionId, "thanks")).toBe("end_turn");
    const second = body(2);
    expect(
      second.messages.map((m: Message) => [
        m.role,
        typeof m.content === "string" ? m.content.slice(0, 20) : m.content,
      ]),
    ).toEqual([
      ["system", "You are Open Interpr"],
      ["user", "print a lot"],
      ["user", "<system-reminder>\nIt"],
      ["user", "<system-reminder>\nAu"],
      ["assistant", null],
      ["tool", output.slice(0, 20)],
      ["assistant", "That was long."],
      ["user", "thanks"],
      ["user", "<system-reminder>\nAu"],
    ]);
    expect(second.messages[8].content).toBe(AUTO_MODE_REMINDER);
    expect(second.messages[6].reasoning_content).toBe("");
    expect(second).toMatchObject({
      max_completion_tokens: 32768,
      prompt_cache_key: `session_${sessionId}`,
      thinking: { type: "enabled", keep: "all" },
      stream: true,
    });
    model.assertDone();
  });
});
