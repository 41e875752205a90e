import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { methods } from "@agentclientprotocol/sdk/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { BUGGY_CALC as CALC, writeCalcProject } from "./support/calc-project.js";
import { chatRequests } from "./support/chat-requests.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess } from "./support/in-process.js";

let model: FakeModel;
let oi: InProcessAgent;

afterEach(async () => {
  await oi?.close();
  await model?.close();
});

const { bodyOf, toolNames, toolResult, calls } = chatRequests(() => model);

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
    oi = await startInProcess({ model, configToml: 'mode = "full-access"\n' });
    const { sessionId, cwd } = await oi.newSession();
    writeFileSync(path.join(cwd, "count.txt"), "1\n");

    await oi.prompt(sessionId, "/harness");
    expect(oi.editor.text(sessionId)).toContain("opencode 1.18.33 (npm:opencode-ai)");

    // Codex first: a command through exec_command.
    model.reply(
      { toolCalls: [{ id: "a1", name: "exec_command", arguments: { cmd: "echo 2 >> count.txt" } }] },
      { text: "step 1" },
    );
    await oi.prompt(sessionId, "append 2");

    // opencode: the earlier command is shown as its bash call, and its own bash runs.
    await oi.prompt(sessionId, "/harness opencode");
    model.reply(
      { toolCalls: [{ id: "b1", name: "bash", arguments: { command: "echo 3 >> count.txt" } }] },
      { text: "step 2" },
    );
    await oi.prompt(sessionId, "append 3");
    expect(toolNames(2)).toEqual(OPENCODE_TOOLS);
    expect(calls(2)).toEqual([{ name: "bash", arguments: '{"command":"echo 2 >> count.txt"}' }]);
    expect(bodyOf(2).messages.map((m) => m.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    expect(toolResult(3, "b1")?.content).toBe("(no output)");

    // Back to Codex: opencode's bash call becomes an exec_command call.
    await oi.prompt(sessionId, "/harness codex");
    model.reply({ text: "count.txt counts to 3" });
    await oi.prompt(sessionId, "done?");
    expect(calls(4)).toEqual([
      { name: "exec_command", arguments: '{"cmd":"echo 2 >> count.txt"}' },
      { name: "exec_command", arguments: '{"cmd":"echo 3 >> count.txt"}' },
    ]);
    expect(readFileSync(path.join(cwd, "count.txt"), "utf8")).toBe("1\n2\n3\n");

    // A new daemon replays the calls made under both harnesses, and opencode renders them again.
    const home = oi.home;
    await oi.close();
    oi = await startInProcess({ model, home });
    await oi.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    const replayed = oi.editor.updates(sessionId);
    expect(
      replayed.filter((u) => u.sessionUpdate === "tool_call").map((u) => (u as { title?: string }).title),
    ).toEqual(["echo 2 >> count.txt", "echo 3 >> count.txt"]);
    expect(oi.editor.text(sessionId)).toContain("count.txt counts to 3");
    await oi.prompt(sessionId, "/harness opencode");
    model.reply({ text: "still 3" });
    await oi.prompt(sessionId, "check again");
    expect(calls(5)).toEqual([
      { name: "bash", arguments: '{"command":"echo 2 >> count.txt"}' },
      { name: "bash", arguments: '{"command":"echo 3 >> count.txt"}' },
    ]);
    expect(toolNames(5)).toEqual(OPENCODE_TOOLS);
    model.assertDone();
  });
});
