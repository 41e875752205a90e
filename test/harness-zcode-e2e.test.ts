import { readFileSync } from "node:fs";
import path from "node:path";
import { methods } from "@agentclientprotocol/sdk/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { BUGGY_CALC as CALC, writeCalcProject } from "./support/calc-project.js";
import { type ChatBody, type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess } from "./support/in-process.js";

// ZCode end to end on Anthropic Messages (the only wire its original speaks), chosen
// automatically for a GLM model, through the official ACP client.

let model: FakeModel;
let oi: InProcessAgent;

afterEach(async () => {
  await oi?.close();
  await model?.close();
});

/** A Messages endpoint serving glm-4.6, as the `zai-anthropic` preset is. */
const config = (url: string, extra = "") =>
  [
    extra,
    'model_provider = "zai"',
    "[model_providers.zai]",
    `base_url = "${url}"`,
    'env_key = "ZAI_KEY"',
    'wire_api = "messages"',
    "",
  ].join("\n");

const body = (i: number) => model.requests[i]!.body as ChatBody;
const toolNames = (i: number) => (body(i).tools as Array<{ name: string }>).map((t) => t.name);
/** The tool_result blocks of request `i` by call id, as the model read them. */
const results = (i: number): Record<string, { content: string; is_error?: boolean }> =>
  Object.fromEntries(
    (body(i).messages as ChatBody[])
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .filter((b: ChatBody) => b.type === "tool_result")
      .map((b: ChatBody) => [b.tool_use_id, b]),
  );
const toolUses = (i: number) =>
  (body(i).messages as ChatBody[])
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((b: ChatBody) => b.type === "tool_use")
    .map((b: ChatBody) => b.name);

describe("zcode end to end", () => {
  it("fixes the task in ZCode's own shape: Read, Edit, Bash and TodoWrite, every result as upstream words it", async () => {
    model = await startFakeModel();
    oi = await startInProcess({
      model,
      configToml: config(model.url),
      env: { ZAI_KEY: "sk-zai" },
      cli: { model: "glm-4.6" },
    });
    const { sessionId, cwd } = await oi.newSession();
    writeCalcProject(cwd);
    const calc = path.join(cwd, "calc.mjs");
    model.reply(
      {
        toolCalls: [
          {
            id: "toolu_1",
            name: "TodoWrite",
            arguments: { todos: [{ content: "Fix add", status: "in_progress", priority: "high" }] },
          },
          { id: "toolu_2", name: "Read", arguments: { file_path: calc } },
        ],
      },
      {
        toolCalls: [
          {
            id: "toolu_3",
            name: "Edit",
            arguments: { file_path: calc, old_string: "a - b", new_string: "a + b" },
          },
        ],
      },
      {
        toolCalls: [
          {
            id: "toolu_4",
            name: "Bash",
            arguments: { command: "node test.mjs", description: "Run the tests" },
          },
        ],
      },
      { text: "Fixed: add adds, and the tests pass." },
    );
    expect(await oi.prompt(sessionId, "The tests fail. Fix calc.mjs.")).toBe("end_turn");
    model.assertDone();
    expect(readFileSync(calc, "utf8")).toBe(CALC.replace("a - b", "a + b"));

    expect(model.requests.map((r) => r.path)).toEqual(Array(4).fill("/v1/messages"));
    for (let i = 0; i < 4; i++) {
      expect(toolNames(i)).toEqual([
        "Agent",
        "AskUserQuestion",
        "Bash",
        "Edit",
        "EnterPlanMode",
        "ExitPlanMode",
        "Read",
        "Skill",
        "TodoRead",
        "TodoWrite",
        "WebFetch",
        "Write",
        "SendMessage",
        "ReadSessionContext",
      ]);
      expect(body(i)).toMatchObject({ model: "glm-4.6", max_tokens: 64000, tool_choice: { type: "auto" } });
      expect((body(i).system as Array<{ text: string }>)[0]!.text).toBe(
        "You are ZCode, an interactive coding agent",
      );
    }
    const first = (body(0).messages as ChatBody[])[0]!;
    expect(first.content.map((b: ChatBody) => b.text)).toEqual([
      expect.stringMatching(/^<system-reminder>\n[\s\S]*# currentDate/),
      "The tests fail. Fix calc.mjs.",
    ]);
    const seen = results(3);
    expect(JSON.parse(seen.toolu_1!.content).summary).toEqual({
      total: 1,
      pending: 0,
      inProgress: 1,
      completed: 0,
    });
    expect(seen.toolu_2!.content).toBe("1\texport function add(a, b) {\n2\t  return a - b;\n3\t}\n4\t");
    expect(seen.toolu_3!.content).toBe(
      `The file ${calc} has been updated successfully. (file state is current in your context — no need to Read it back)`,
    );
    expect(seen.toolu_4).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_4",
      content: "TESTS PASSED",
      cache_control: { type: "ephemeral" },
    });
    expect(oi.editor.text(sessionId)).toContain("Fixed: add adds");
  });

  it("is listed by /harness with its pinned original, switches in and out keeping history, and replays after a restart", async () => {
    model = await startFakeModel();
    oi = await startInProcess({
      model,
      configToml: config(model.url, 'mode = "full-access"'),
      env: { ZAI_KEY: "sk-zai" },
      cli: { model: "glm-4.6" },
    });
    const { sessionId, cwd } = await oi.newSession();
    writeCalcProject(cwd);
    const calc = path.join(cwd, "calc.mjs");

    await oi.prompt(sessionId, "/harness");
    const listing = oi.editor.text(sessionId);
    expect(listing).toContain("`zcode` (active)");
    expect(listing).toContain(
      "ZCode 0.14.8 (github:openinterpreter/openinterpreter@rust-v0.0.40 codex-rs/core/src/harness/zcode.rs)",
    );

    // ZCode reads the file.
    model.reply(
      { toolCalls: [{ id: "toolu_a", name: "Read", arguments: { file_path: calc } }] },
      { text: "add subtracts" },
    );
    await oi.prompt(sessionId, "What is wrong in calc.mjs?");

    // Claude Code on the same endpoint fixes it with its Bash; ZCode's Read is its Read.
    await oi.prompt(sessionId, "/harness claude-code");
    model.reply(
      {
        toolCalls: [
          { id: "toolu_b", name: "Bash", arguments: { command: "sed -i 's/a - b/a + b/' calc.mjs" } },
        ],
      },
      { text: "fixed" },
    );
    expect(await oi.prompt(sessionId, "Fix it.")).toBe("end_turn");
    expect(toolNames(2)).toContain("Glob");
    expect(toolUses(2)).toEqual(["Read"]);
    expect(readFileSync(calc, "utf8")).toBe(CALC.replace("a - b", "a + b"));

    // Back to ZCode: both calls are in its history, in its terms.
    await oi.prompt(sessionId, "/harness zcode");
    model.reply({ text: "done" });
    expect(await oi.prompt(sessionId, "status?")).toBe("end_turn");
    expect(toolUses(4)).toEqual(["Read", "Bash"]);
    expect(results(4).toolu_a!.content).toContain("2\t  return a - b;");

    // A fresh daemon replays the session, and ZCode goes on from it.
    const home = oi.home;
    await oi.close();
    oi = await startInProcess({ model, home, env: { ZAI_KEY: "sk-zai" }, cli: { model: "glm-4.6" } });
    await oi.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    const replayed = oi.editor.updates(sessionId).filter((u) => u.sessionUpdate === "tool_call");
    expect(replayed).toHaveLength(2);
    expect(oi.editor.text(sessionId)).toContain("add subtracts");
    // The Read before the restart still counts for Edit, as upstream reads it from the history.
    model.reply(
      {
        toolCalls: [
          {
            id: "toolu_c",
            name: "Edit",
            arguments: { file_path: calc, old_string: "a + b", new_string: "b + a" },
          },
        ],
      },
      { text: "all good" },
    );
    expect(await oi.prompt(sessionId, "Swap the operands.")).toBe("end_turn");
    expect(toolUses(5)).toEqual(["Read", "Bash"]);
    expect(toolNames(5)[0]).toBe("Agent");
    expect(results(6).toolu_c!.content).toMatch(/^The file .* has been updated successfully\./);
    expect(readFileSync(calc, "utf8")).toBe(CALC.replace("a - b", "b + a"));
    model.assertDone();
  });
  it("runs an Explore agent with its four tools and upstream's footer; SendMessage continues it", async () => {
    model = await startFakeModel();
    oi = await startInProcess({
      model,
      configToml: config(model.url, 'mode = "full-access"'),
      env: { ZAI_KEY: "sk-zai" },
      cli: { model: "glm-4.6" },
    });
    const { sessionId } = await oi.newSession();
    const agent = { description: "Count files", prompt: "How many files? Use ls.", subagent_type: "Explore" };
    model.reply(
      { toolCalls: [{ id: "toolu_agent", name: "Agent", arguments: agent }] },
      { text: "No files." },
      { text: "The workspace is empty." },
    );
    expect(await oi.prompt(sessionId, "Look around.")).toBe("end_turn");
    // The child: ZCode Explore's prompt and its four tools.
    expect(toolNames(1)).toEqual(["Bash", "Read", "TodoWrite", "WebFetch"]);
    expect((body(1).system as Array<{ text: string }>)[1]!.text).toContain("You are ZCode Explore");
    const answer = results(2).toolu_agent!.content;
    const footer =
      /^No files\.\nagentId: (agent_\S+) \(use SendMessage with to: '(agent_\S+)' to continue this agent\)\n<usage>subagent_tokens: \d+\ntool_uses: 0\nduration_ms: \d+<\/usage>$/;
    expect(answer).toMatch(footer);
    const [, id, again] = footer.exec(answer)!;
    expect(again).toBe(id);

    model.reply(
      {
        toolCalls: [
          {
            id: "toolu_msg",
            name: "SendMessage",
            arguments: { to: id, summary: "Recount", message: "Count again." },
          },
        ],
      },
      { text: "Still none." },
      { text: "Still empty." },
    );
    expect(await oi.prompt(sessionId, "Ask it again.")).toBe("end_turn");
    // The same child goes on: its first exchange, then the message.
    const child = JSON.stringify(body(4).messages);
    expect(child).toContain("How many files? Use ls.");
    expect(child).toContain("Count again.");
    expect(results(5).toolu_msg!.content).toMatch(new RegExp(`^Still none\\.\\nagentId: ${id} `));
    model.assertDone();
  });
  it("is refused on a Chat endpoint with the harnesses that run there, the session unchanged", async () => {
    model = await startFakeModel();
    oi = await startInProcess({ model, cli: { model: "glm-4.6" } });
    const { sessionId } = await oi.newSession();
    await oi.prompt(sessionId, "/harness zcode");
    expect(oi.editor.text(sessionId)).toContain(
      'harness "zcode" does not run on wire_api = "chat" (it runs on messages)',
    );
    model.reply({ text: "hi" });
    await oi.prompt(sessionId, "hello");
    expect(model.requests[0]!.path).toBe("/v1/chat/completions");
    expect((model.requests[0]!.body.tools as Array<{ function: { name: string } }>)[0]!.function.name).toBe(
      "exec_command",
    );
    model.assertDone();
  });
});
