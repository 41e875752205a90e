import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { methods } from "@agentclientprotocol/sdk/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { builtinHarnesses, chooseHarness } from "../src/harnesses/harness-list.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess } from "./support/in-process.js";

let model: FakeModel;
let oi: InProcessAgent;
afterEach(async () => {
  await oi?.close();
  await model?.close();
});

type Body = {
  tools?: Array<{ function: { name: string } }>;
  messages: Array<{
    role: string;
    content: unknown;
    tool_calls?: Array<{ function: { name: string; arguments: string } }>;
  }>;
};
const toolNames = (i: number) => ((model.requests[i]!.body as Body).tools ?? []).map((t) => t.function.name);

describe("switching harness mid-task", () => {
  it("keeps the whole history, renders it in the new harness's terms, and replays on load", async () => {
    model = await startFakeModel();
    oi = await startInProcess({ model, configToml: 'mode = "full-access"\n' });
    const { sessionId, cwd } = await oi.newSession();
    writeFileSync(path.join(cwd, "count.txt"), "1\n");

    // Codex: a command through exec_command.
    model.reply(
      { toolCalls: [{ id: "a1", name: "exec_command", arguments: { cmd: "echo 2 >> count.txt" } }] },
      { text: "step 1" },
    );
    await oi.prompt(sessionId, "append 2");
    expect(toolNames(0)).toEqual(["exec_command", "write_stdin", "request_user_input", "view_image"]);

    // Claude Code: the earlier exec_command call shows up as a Bash call.
    await oi.prompt(sessionId, "/harness claude-code");
    model.reply(
      { toolCalls: [{ id: "b1", name: "Bash", arguments: { command: "echo 3 >> count.txt" } }] },
      { text: "step 2" },
    );
    await oi.prompt(sessionId, "append 3");
    expect(toolNames(2)).toContain("Bash");
    const claudeHistory = (model.requests[2]!.body as Body).messages.flatMap((m) => m.tool_calls ?? []);
    expect(claudeHistory[0]).toMatchObject({
      function: { name: "Bash", arguments: '{"command":"echo 2 >> count.txt"}' },
    });

    // pi via the config option: both earlier commands map onto pi's bash tool.
    await oi.agent.request(methods.agent.session.setConfigOption, {
      sessionId,
      configId: "harness",
      value: "pi",
    });
    model.reply(
      { toolCalls: [{ id: "c1", name: "bash", arguments: { command: "echo 4 >> count.txt" } }] },
      { text: "step 3" },
    );
    await oi.prompt(sessionId, "append 4");
    expect(toolNames(4)).toEqual(expect.arrayContaining(["read", "write", "edit", "bash"]));
    const piCalls = (model.requests[4]!.body as Body).messages
      .flatMap((m) => m.tool_calls ?? [])
      .map((c) => c.function.name);
    expect(piCalls).toEqual(["bash", "bash"]);

    // Back to Codex, the task completes.
    await oi.prompt(sessionId, "/harness codex");
    model.reply({ text: "count.txt now counts to 4" });
    expect(await oi.prompt(sessionId, "done?")).toBe("end_turn");
    expect(readFileSync(path.join(cwd, "count.txt"), "utf8")).toBe("1\n2\n3\n4\n");
    const codexCalls = (model.requests[6]!.body as Body).messages
      .flatMap((m) => m.tool_calls ?? [])
      .map((c) => c.function);
    // Bash's and pi's commands become exec_command calls in Codex's own argument name.
    expect(codexCalls).toEqual([
      { name: "exec_command", arguments: '{"cmd":"echo 2 >> count.txt"}' },
      { name: "exec_command", arguments: '{"cmd":"echo 3 >> count.txt"}' },
      { name: "exec_command", arguments: '{"cmd":"echo 4 >> count.txt"}' },
    ]);

    // A new daemon replays everything, including the three calls made under three harnesses.
    const home = oi.home;
    await oi.close();
    oi = await startInProcess({ model, home });
    await oi.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    const replayed = oi.editor.updates(sessionId);
    expect(
      replayed.filter((u) => u.sessionUpdate === "tool_call").map((u) => (u as { name?: string }).name),
    ).toEqual(["exec_command", "Bash", "bash"]);
    expect(oi.editor.text(sessionId)).toContain("count.txt now counts to 4");
    const options = await oi.agent.request(methods.agent.session.setConfigOption, {
      sessionId,
      configId: "mode",
      value: "full-access",
    });
    expect(options.configOptions.find((o) => o.id === "harness")?.currentValue).toBe("codex");
  });
});

describe("automatic choice", () => {
  const harnesses = builtinHarnesses();
  it.each([
    ["gpt-5-mini", "codex"],
    ["claude-sonnet-4", "claude-code"],
    ["deepseek-chat", "claude-code-bare"],
    ["llama-3.3-70b", "codex"],
    ["kimi-k2-0905-preview", "kimi-code"],
    ["moonshot-v1-32k", "kimi-code"],
    ["qwen3-coder-30b", "qwen-code"],
    ["Qwen/QwQ-32B", "qwen-code"],
    ["gemini-2.5-flash", "gemini-cli"],
  ])("%s -> %s", (modelId, expected) => {
    expect(chooseHarness({ harnesses, model: modelId }).harness.id).toBe(expected);
  });

  it("an explicit choice wins, and `native` is Codex", () => {
    expect(chooseHarness({ harnesses, model: "claude-sonnet-4", explicit: "pi" }).harness.id).toBe("pi");
    expect(chooseHarness({ harnesses, model: "claude-sonnet-4", explicit: "native" })).toMatchObject({
      harness: { id: "codex" },
      reason: "chosen explicitly",
    });
  });
});

describe("a harness is opened per session and model", () => {
  type Tools = Array<{ function: { name: string; description: string; parameters: unknown } }>;
  const tools = (i: number) => (model.requests[i]!.body as { tools: Tools }).tools;

  it("/model from Gemini 2.5 to Gemini 3 gives exactly the tools a fresh Gemini 3 session gets", async () => {
    model = await startFakeModel();
    oi = await startInProcess({ model, cli: { model: "gemini-2.5-pro" } });
    const { sessionId } = await oi.newSession();
    model.reply({ text: "on 2.5" });
    await oi.prompt(sessionId, "hi");
    await oi.prompt(sessionId, "/model gemini-3-pro-preview");
    model.reply({ text: "on 3" });
    await oi.prompt(sessionId, "hi again");

    const fresh = await oi.newSession();
    await oi.agent.request(methods.agent.session.setConfigOption, {
      sessionId: fresh.sessionId,
      configId: "model",
      value: "gemini-3-pro-preview",
    });
    model.reply({ text: "fresh 3" });
    await oi.prompt(fresh.sessionId, "hi");

    expect(tools(0)).not.toEqual(tools(2));
    expect(tools(1)).toEqual(tools(2));
  });

  it("a switch to another harness and back opens the first one anew, as a fresh session has it", async () => {
    model = await startFakeModel();
    oi = await startInProcess({ model, configToml: 'mode = "full-access"\n' });
    const { sessionId, cwd } = await oi.newSession();
    await oi.prompt(sessionId, "/harness claude-code");
    writeFileSync(path.join(cwd, "a.txt"), "one\n");
    model.reply(
      { toolCalls: [{ id: "r1", name: "Read", arguments: { file_path: path.join(cwd, "a.txt") } }] },
      { text: "read it" },
    );
    await oi.prompt(sessionId, "read a.txt");
    await oi.prompt(sessionId, "/harness codex");
    model.reply({ text: "on codex" });
    await oi.prompt(sessionId, "hi");
    await oi.prompt(sessionId, "/harness claude-code");
    // The Read tracker of the first claude-code session is gone: Edit asks for a Read first.
    model.reply(
      {
        toolCalls: [
          {
            id: "e1",
            name: "Edit",
            arguments: { file_path: path.join(cwd, "a.txt"), old_string: "one", new_string: "two" },
          },
        ],
      },
      { text: "edited" },
    );
    await oi.prompt(sessionId, "edit a.txt");
    const edit = (model.requests[4]!.body as Body).messages.find(
      (m) =>
        m.role === "tool" && typeof m.content === "string" && m.content.includes("has not been read yet"),
    );
    expect(edit).toBeDefined();
    expect(readFileSync(path.join(cwd, "a.txt"), "utf8")).toBe("one\n");

    const fresh = await oi.newSession();
    await oi.prompt(fresh.sessionId, "/harness claude-code");
    model.reply({ text: "fresh" });
    await oi.prompt(fresh.sessionId, "hi");
    expect(tools(3)).toEqual(tools(5));
  });
});
