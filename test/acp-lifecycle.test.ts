import { existsSync, readdirSync, readFileSync } from "node:fs";
import { methods } from "@agentclientprotocol/sdk/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess, until } from "./support/in-process.js";
import { onPath } from "./support/requires.js";

let model: FakeModel;
let oi: InProcessAgent;

afterEach(async () => {
  await oi?.close();
  await model?.close();
});

async function setup(configToml?: string) {
  model = await startFakeModel({ models: ["mock-model", "mock-large"] });
  oi = await startInProcess({ model, configToml });
}

describe("initialize and session/new", () => {
  it("advertises what the agent really supports", async () => {
    model = await startFakeModel();
    oi = await startInProcess({ model });
    const init = await oi.agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: {},
      clientInfo: { name: "x", version: "1" },
    });
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities).toMatchObject({
      loadSession: true,
      promptCapabilities: { image: true, embeddedContext: true },
      sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {} },
    });
    expect(init.authMethods).toEqual([]);
  });

  it("returns mode, model and harness options, legacy modes, then the slash commands", async () => {
    await setup();
    const created = await oi.newSession();
    expect(created.configOptions?.map((o) => [o.id, o.category, o.currentValue])).toEqual([
      ["mode", "mode", "workspace-write"],
      ["model", "model", "mock-model"],
      ["harness", "_harness", "codex"],
    ]);
    expect(created.modes?.currentModeId).toBe("workspace-write");
    expect(created.modes?.availableModes.map((m) => m.id)).toEqual([
      "read-only",
      "workspace-write",
      "auto",
      "full-access",
      "plan",
    ]);
    await until(() =>
      oi.editor.updates(created.sessionId).some((u) => u.sessionUpdate === "available_commands_update"),
    );
    const commands = oi.editor
      .updates(created.sessionId)
      .find((u) => u.sessionUpdate === "available_commands_update");
    expect(
      commands && "availableCommands" in commands ? commands.availableCommands.map((c) => c.name) : [],
    ).toEqual([
      "harness",
      "model",
      "mode",
      "rename",
      "status",
      "skills",
      "mcp",
      "trust",
      "usage",
      "compact",
      "init",
    ]);
    // The endpoint's /models list joins the picker in the background.
    await until(() =>
      oi.editor.notifications.some(
        (n) =>
          n.update.sessionUpdate === "config_option_update" &&
          JSON.stringify(n.update).includes("mock-large"),
      ),
    );
  });

  it("rejects a relative cwd with invalid params", async () => {
    await setup();
    await expect(
      oi.agent.request(methods.agent.session.new, { cwd: "relative/dir", mcpServers: [] }),
    ).rejects.toMatchObject({
      code: -32602,
    });
  });
});

describe("config options and modes", () => {
  it("switches mode, model and harness and answers with the full option list", async () => {
    await setup();
    const { sessionId } = await oi.newSession();
    const set = await oi.agent.request(methods.agent.session.setConfigOption, {
      sessionId,
      configId: "model",
      value: "mock-large",
    });
    expect(set.configOptions.map((o) => o.currentValue)).toEqual(["workspace-write", "mock-large", "codex"]);
    await oi.agent.request(methods.agent.session.setMode, { sessionId, modeId: "read-only" });
    await until(() =>
      oi.editor
        .updates(sessionId)
        .some((u) => u.sessionUpdate === "current_mode_update" && u.currentModeId === "read-only"),
    );
    await oi.agent.request("session/set_model", { sessionId, modelId: "mock-model" });
    const harness = await oi.agent.request(methods.agent.session.setConfigOption, {
      sessionId,
      configId: "harness",
      value: "native",
    });
    expect(harness.configOptions.map((o) => o.currentValue)).toEqual(["read-only", "mock-model", "codex"]);
    await expect(
      oi.agent.request(methods.agent.session.setMode, { sessionId, modeId: "yolo" }),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(
      oi.agent.request(methods.agent.session.setConfigOption, {
        sessionId,
        configId: "harness",
        value: "nope",
      }),
    ).rejects.toMatchObject({ code: -32602 });
    model.reply({ text: "ok" });
    await oi.prompt(sessionId, "which model?");
    expect((model.requests[0]!.body as { model: string }).model).toBe("mock-model");
  });

  it("answers /status, /mode and /harness without calling the model", async () => {
    await setup();
    const { sessionId, cwd } = await oi.newSession();
    expect(await oi.prompt(sessionId, "/status")).toBe("end_turn");
    const status = oi.editor.text(sessionId);
    expect(status).toContain(`Directory: ${cwd}`);
    expect(status).toContain("Model: mock-model");
    expect(status).toContain(
      "Harness: codex, Codex CLI 0.171.0 (npm:@openai/codex) (automatic: default for mock-model)",
    );
    expect(status).toContain("Mode: workspace-write");
    // The sandbox line says what this machine has; CI=true insists on bubblewrap.
    expect(status).toMatch(
      onPath("bwrap") || process.env.CI
        ? /Sandbox: Commands run in a bubblewrap [\d.]+ sandbox/
        : /Sandbox: Commands are not sandboxed: bubblewrap \(bwrap\) is not on PATH/,
    );
    await oi.prompt(sessionId, "/mode full-access");
    await oi.prompt(sessionId, "/harness");
    expect(oi.editor.text(sessionId)).toContain("`codex` (active)");
    // Each harness names the original version it is held to.
    expect(oi.editor.text(sessionId)).toMatch(/`pi`: .*; pi 0\.73\.1 \(npm:@mariozechner\/pi-coding-agent\)/);
    await oi.prompt(sessionId, "/usage");
    expect(oi.editor.text(sessionId)).toContain("No model requests yet");
    await oi.prompt(sessionId, "/skills");
    expect(oi.editor.text(sessionId)).toContain("No skills found");
    expect(model.requests).toHaveLength(0);
    model.reply({ text: "Wrote AGENTS.md." });
    await oi.prompt(sessionId, "/init");
    const sent = (model.requests[0]!.body.messages as Array<{ content: string }>).at(-1)!.content;
    expect(sent).toMatch(/^Survey this repository and write an AGENTS.md/);
    const options = await oi.agent.request(methods.agent.session.setConfigOption, {
      sessionId,
      configId: "model",
      value: "mock-model",
    });
    expect(options.configOptions[0]!.currentValue).toBe("full-access");
  });
});

describe("history: list, load, resume, close, delete", () => {
  it("lists sessions newest first with titles, filters by cwd and paginates", async () => {
    await setup();
    const a = await oi.newSession();
    model.reply({ text: "A" });
    await oi.prompt(a.sessionId, "first session prompt");
    const b = await oi.newSession();
    model.reply({ text: "B" });
    await oi.prompt(b.sessionId, "second session prompt");
    const all = await oi.agent.request(methods.agent.session.list, {});
    expect(all.sessions.slice(0, 2).map((s) => [s.sessionId, s.title])).toEqual([
      [b.sessionId, "second session prompt"],
      [a.sessionId, "first session prompt"],
    ]);
    const filtered = await oi.agent.request(methods.agent.session.list, { cwd: a.cwd });
    expect(filtered.sessions.map((s) => s.sessionId)).toEqual([a.sessionId]);
    for (let i = 0; i < 55; i++) await oi.newSession({ cwd: a.cwd });
    const page1 = await oi.agent.request(methods.agent.session.list, { cwd: a.cwd });
    expect(page1.sessions).toHaveLength(50);
    expect(page1.nextCursor).toBeTruthy();
    const page2 = await oi.agent.request(methods.agent.session.list, {
      cwd: a.cwd,
      cursor: page1.nextCursor!,
    });
    expect(page2.sessions).toHaveLength(6);
    expect(page2.nextCursor ?? undefined).toBeUndefined();
    await expect(oi.agent.request(methods.agent.session.list, { cursor: "garbage" })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it("loads a session in a new daemon with its whole transcript, and resumes without replay", async () => {
    await setup();
    const { sessionId, cwd } = await oi.newSession();
    model.reply(
      {
        reasoning: "think",
        toolCalls: [{ id: "c1", name: "exec_command", arguments: { cmd: "echo hi" } }],
      },
      { text: "All done." },
    );
    await oi.prompt(sessionId, "say hi");
    const home = oi.home;
    await oi.close();

    oi = await startInProcess({ model, home });
    await oi.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    const replay = oi.editor.updates(sessionId);
    expect(replay.map((u) => u.sessionUpdate).filter((k) => k !== "available_commands_update")).toEqual([
      "user_message_chunk",
      "agent_thought_chunk",
      "usage_update",
      "tool_call",
      "agent_message_chunk",
      "usage_update",
    ]);
    // The call and its result are one finished call, as the editor showed it at the end.
    expect(replay.find((u) => u.sessionUpdate === "tool_call")).toMatchObject({
      toolCallId: "c1",
      status: "completed",
      rawInput: { cmd: "echo hi" },
      rawOutput: { output: expect.stringMatching(/\nProcess exited with code 0\n[\s\S]*\nOutput:\nhi\n$/) },
    });
    expect(oi.editor.text(sessionId)).toBe("All done.");

    oi.editor.clear();
    await oi.agent.request(methods.agent.session.resume, { sessionId, cwd });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const transcript = [
      "user_message_chunk",
      "agent_message_chunk",
      "agent_thought_chunk",
      "tool_call",
      "tool_call_update",
    ];
    expect(oi.editor.updates(sessionId).filter((u) => transcript.includes(u.sessionUpdate))).toEqual([]);

    // The loaded session continues with its history.
    model.reply({ text: "continuing" });
    await oi.prompt(sessionId, "and now?");
    const messages = (model.requests.at(-1)!.body as { messages: Array<{ role: string }> }).messages;
    expect(messages.filter((m) => m.role === "tool")).toHaveLength(1);
  });

  it("closes and deletes sessions; unknown ids are resource-not-found errors", async () => {
    await setup();
    const { sessionId, cwd } = await oi.newSession();
    await oi.agent.request(methods.agent.session.close, { sessionId });
    await expect(oi.prompt(sessionId, "hi")).rejects.toMatchObject({ code: -32002 });
    await oi.agent.request(methods.agent.session.resume, { sessionId, cwd });
    await oi.agent.request(methods.agent.session.delete, { sessionId });
    const list = await oi.agent.request(methods.agent.session.list, {});
    expect(list.sessions.map((s) => s.sessionId)).not.toContain(sessionId);
    await expect(
      oi.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] }),
    ).rejects.toMatchObject({
      code: -32002,
    });
  });
});

describe("cancellation", () => {
  it("stops a streaming model response and answers cancelled once", async () => {
    await setup();
    const { sessionId } = await oi.newSession();
    model.reply({ text: "partial answer", hangAfterText: true });
    const turn = oi.prompt(sessionId, "long story");
    await until(() => oi.editor.text(sessionId).length > 0);
    await oi.agent.notify(methods.agent.session.cancel, { sessionId });
    expect(await turn).toBe("cancelled");
    model.reply({ text: "fresh" });
    expect(await oi.prompt(sessionId, "next")).toBe("end_turn");
  });

  it("withdraws a pending permission request and runs nothing", async () => {
    await setup();
    const { sessionId, cwd } = await oi.newSession();
    let asked = false;
    oi.editor.setPermission(() => {
      asked = true;
      return new Promise<string>(() => {});
    });
    model.reply({
      toolCalls: [{ id: "c1", name: "exec_command", arguments: { cmd: "touch never.txt" } }],
    });
    const turn = oi.prompt(sessionId, "do it");
    await until(() => asked);
    await oi.agent.notify(methods.agent.session.cancel, { sessionId });
    expect(await turn).toBe("cancelled");
    expect(existsSync(`${cwd}/never.txt`)).toBe(false);
  });

  it("kills a running command's whole process tree", async () => {
    await setup('mode = "full-access"\n');
    const { sessionId } = await oi.newSession();
    const marker = `oi-cancel-${process.pid}-${Date.now()}`;
    const command = `bash -c 'exec -a ${marker} sleep 30' & setsid bash -c 'exec -a ${marker} sleep 30' & wait`;
    // Codex's longest yield: the call is still waiting for the command when the cancel comes.
    model.reply({
      toolCalls: [{ id: "c1", name: "exec_command", arguments: { cmd: command, yield_time_ms: 30_000 } }],
    });
    const turn = oi.prompt(sessionId, "wait");
    await until(() => countProcesses(marker) === 2);
    await oi.agent.notify(methods.agent.session.cancel, { sessionId });
    expect(await turn).toBe("cancelled");
    await until(() => countProcesses(marker) === 0, 3_000);
  });

  it("cancels prompts queued behind the running turn", async () => {
    await setup();
    const { sessionId } = await oi.newSession();
    model.reply({ text: "slow", hangAfterText: true });
    const first = oi.prompt(sessionId, "one");
    const second = oi.prompt(sessionId, "two");
    await until(() => oi.editor.text(sessionId).length > 0);
    await oi.agent.notify(methods.agent.session.cancel, { sessionId });
    expect(await first).toBe("cancelled");
    expect(await second).toBe("cancelled");
    expect(model.requests).toHaveLength(1);
  });
});

function countProcesses(marker: string): number {
  let count = 0;
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0] === marker) count++;
    } catch {
      // the process ended while we looked
    }
  }
  return count;
}
