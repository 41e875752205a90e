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
const parts = (...texts: string[]) => texts.map((text) => ({ type: "text", text }));

/** 1.49.0's default agent in its `agent.yaml` order, for a model that takes images. */
const KIMI_CLI_TOOLS = [
  "Agent",
  "AskUserQuestion",
  "SetTodoList",
  "Shell",
  "TaskList",
  "TaskOutput",
  "TaskStop",
  "ReadFile",
  "ReadMediaFile",
  "Glob",
  "Grep",
  "WriteFile",
  "StrReplaceFile",
  "SearchWeb",
  "FetchURL",
  "ExitPlanMode",
  "EnterPlanMode",
];

describe("kimi-cli end to end", () => {
  it("plans, reads, edits, runs the tests and answers through SetTodoList, ReadFile, StrReplaceFile and Shell", async () => {
    model = await startFakeModel();
    oi = await startInProcess({
      model,
      configToml: 'harness = "kimi-cli"\n',
      cli: { model: "kimi-k2-thinking" },
    });
    const { sessionId, cwd } = await oi.newSession();
    writeCalcProject(cwd);
    const calc = path.join(cwd, "calc.mjs");
    const todos = [{ title: "Fix add and run the tests", status: "in_progress" }];

    model.reply(
      {
        toolCalls: [
          { id: "Nope:0", name: "Nope", arguments: {} },
          { id: "Shell:0", name: "Shell", arguments: { timeout: 5 } },
        ],
      },
      { toolCalls: [{ id: "SetTodoList:0", name: "SetTodoList", arguments: { todos } }] },
      { toolCalls: [{ id: "ReadFile:1", name: "ReadFile", arguments: { path: "calc.mjs" } }] },
      {
        toolCalls: [
          {
            id: "StrReplaceFile:2",
            name: "StrReplaceFile",
            arguments: { path: calc, edit: { old: "a - b", new: "a + b" } },
          },
        ],
      },
      { toolCalls: [{ id: "Shell:3", name: "Shell", arguments: { command: "node test.mjs" } }] },
      { text: "Fixed `add` in calc.mjs:2; the tests pass." },
    );
    expect(await oi.prompt(sessionId, "The add function is broken, fix it and run the tests.")).toBe(
      "end_turn",
    );

    expect(readFileSync(calc, "utf8")).toBe(CALC.replace("a - b", "a + b"));
    const first = model.requests[0]!.body;
    expect(toolNames(0)).toEqual(KIMI_CLI_TOOLS);
    // 1.49.0's knobs: the session id as cache key, thinking on for a thinking model, no effort.
    expect(first).toMatchObject({
      max_completion_tokens: 32000,
      prompt_cache_key: sessionId,
      thinking: { type: "enabled" },
    });
    expect(first).not.toHaveProperty("reasoning_effort");
    expect(first.messages[0].role).toBe("system");
    expect(first.messages[0].content).toMatch(/^You are Kimi Code CLI, /);
    expect(first.messages[0].content).toContain(`The current working directory is \`${cwd}\`.`);
    expect(first.messages[0].content).toContain("├── calc.mjs\n");
    // Calls that never ran get kosong's texts in 1.49.0's error line.
    expect(toolResult(1, "Nope:0")?.content).toBe("<system>ERROR: Tool `Nope` not found</system>");
    expect(toolResult(1, "Shell:0")?.content).toMatch(
      /^<system>ERROR: Error validating JSON arguments: command: /,
    );
    // Ids come back as the model sent them; each result leads with its <system> status part.
    expect(toolResult(2, "SetTodoList:0")?.content).toEqual(
      parts("<system>Todo list updated</system>", "Todo list updated"),
    );
    expect(toolResult(3, "ReadFile:1")?.content).toEqual(
      parts(
        "<system>3 lines read from file starting from line 1. Total lines in file: 3. End of file reached.</system>",
        "     1\texport function add(a, b) {\n     2\t  return a - b;\n     3\t}\n",
      ),
    );
    expect(toolResult(4, "StrReplaceFile:2")?.content).toBe(
      "<system>File successfully edited. Applied 1 edit(s) with 1 total replacement(s).</system>",
    );
    expect(toolResult(5, "Shell:3")?.content).toEqual(
      parts("<system>Command executed successfully.</system>", "TESTS PASSED\n"),
    );
    expect(oi.editor.text(sessionId)).toContain("the tests pass.");
    const plan = oi.editor.updates(sessionId).find((u) => u.sessionUpdate === "plan");
    expect(plan).toMatchObject({
      entries: [{ content: "Fix add and run the tests", status: "in_progress" }],
    });
    model.assertDone();
  });

  it("is listed by /harness with its pinned original, switches in and out keeping history, and replays after a restart", async () => {
    model = await startFakeModel();
    const failed = "<system>ERROR: Command failed with exit code: 4.</system>";
    await expectRoundTrip({
      model,
      harness: "kimi-cli",
      listed: "Kimi CLI 1.49.0 (github:MoonshotAI/kimi-cli",
      tools: KIMI_CLI_TOOLS,
      shell: "Shell",
      command: "echo 3 >> count.txt; exit 4",
      result: failed,
    });
    expect(bodyOf(2).messages.map((m) => m.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    expect(bodyOf(2)).toMatchObject({ thinking: { type: "disabled" } });
    expect(toolResult(5, "b1")?.content).toBe(failed);
  });
});
