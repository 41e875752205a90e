import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { client, methods, type SessionUpdate } from "@agentclientprotocol/sdk/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { tempDir, until } from "./support/in-process.js";
import { BIN as MCP_BIN } from "./support/mcp-helpers.js";
import { type AgentProcess, spawnAgent } from "./support/spawn-agent.js";
import { INIT, testClient, withoutSandboxNotice } from "./support/test-client.js";

let model: FakeModel;
const agents: AgentProcess[] = [];

afterEach(async () => {
  for (const agent of agents.splice(0)) if (agent.child.exitCode === null) agent.child.kill("SIGKILL");
  await model?.close();
});

function start(home: string, extra: Record<string, string> = {}): AgentProcess {
  const agent = spawnAgent({
    home,
    env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-canary-1234", ...extra },
    args: ["-m", "mock-model"],
  });
  agents.push(agent);
  return agent;
}

describe("bin/interpreter.js acp over stdio", () => {
  it("runs a whole session with only schema-valid protocol on stdout, and exits 0 on stdin EOF", async () => {
    model = await startFakeModel();
    const home = tempDir("oi-home-");
    const cwd = tempDir("oi-ws-");
    const agent = start(home);
    const editor = testClient();
    const connection = editor.app.connect(agent.stream);
    await connection.agent.request(methods.agent.initialize, INIT);
    const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    model.reply(
      {
        reasoning: "plan",
        toolCalls: [{ id: "c1", name: "exec_command", arguments: { cmd: "echo hi > hi.txt" } }],
      },
      { text: "Wrote hi.txt." },
    );
    const response = await connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "write hi" }],
    });
    expect(response.stopReason).toBe("end_turn");
    expect(readFileSync(path.join(cwd, "hi.txt"), "utf8")).toBe("hi\n");
    expect(editor.permissions).toHaveLength(1);
    await connection.agent.request(methods.agent.session.list, {});
    await connection.agent.request(methods.agent.session.setConfigOption, {
      sessionId,
      configId: "mode",
      value: "auto",
    });
    await expect(
      connection.agent.request(methods.agent.session.new, { cwd: "not/absolute", mcpServers: [] }),
    ).rejects.toMatchObject({ code: -32602 });

    agent.child.stdin!.end();
    expect(await agent.exited).toEqual({ code: 0, signal: null });
    expect(agent.violations).toEqual([]);
    expect(agent.lines.length).toBeGreaterThan(10);
    expect(agent.lines.join("\n")).not.toContain("sk-canary-1234");
    expect(readFileSync(path.join(home, "openinterpreter.db")).includes("sk-canary-1234")).toBe(false);
    expect(existsSync(path.join(home, "log", "openinterpreter.log"))).toBe(true);
  });

  it("survives SIGKILL mid-turn: a new daemon loads everything committed and shows the turn as interrupted", async () => {
    model = await startFakeModel();
    const home = tempDir("oi-home-");
    const cwd = tempDir("oi-ws-");
    writeFileSync(path.join(home, "config.toml"), 'mode = "full-access"\n');
    const first = start(home);
    const editor = testClient();
    const connection = editor.app.connect(first.stream);
    await connection.agent.request(methods.agent.initialize, INIT);
    const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    model.reply({
      text: "Running the slow step now.",
      toolCalls: [{ id: "slow", name: "exec_command", arguments: { cmd: "sleep 3", yield_time_ms: 30_000 } }],
    });
    void connection.agent
      .request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "do the slow thing" }],
      })
      .catch(() => undefined);
    await until(() =>
      editor
        .updates(sessionId)
        .some((u) => u.sessionUpdate === "tool_call_update" && u.status === "in_progress"),
    );
    first.child.kill("SIGKILL");
    await first.exited;

    const second = start(home);
    const replayed: SessionUpdate[] = [];
    const reader = client({ name: "reloader" }).onNotification(
      methods.client.session.update,
      ({ params }) => {
        replayed.push(params.update);
      },
    );
    const again = reader.connect(second.stream);
    await again.agent.request(methods.agent.initialize, INIT);
    await again.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    const kinds = withoutSandboxNotice(replayed).map((u) => u.sessionUpdate);
    expect(kinds.slice(0, 4)).toEqual([
      "user_message_chunk",
      "agent_message_chunk",
      "usage_update",
      "tool_call",
    ]);
    const text = replayed
      .map((u) =>
        u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : "",
      )
      .join("");
    expect(text).toContain("Running the slow step now.");
    expect(text).toMatch(/interrupted/);
    expect(replayed).toContainEqual(
      expect.objectContaining({ sessionUpdate: "tool_call_update", toolCallId: "slow", status: "failed" }),
    );
    const list = await again.agent.request(methods.agent.session.list, {});
    expect(list.sessions.map((s) => s.sessionId)).toContain(sessionId);

    // The next prompt works, and the model sees a valid history (the cut call answered as aborted).
    model.reply({ text: "Picking up again." });
    const next = await again.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "continue" }],
    });
    expect(next.stopReason).toBe("end_turn");
    const messages = (model.requests.at(-1)!.body as { messages: Array<{ role: string; content: string }> })
      .messages;
    expect(messages.find((m) => m.role === "tool")?.content).toMatch(/aborted/);
    expect(second.violations).toEqual([]);
  });

  it("exits 0 on SIGTERM", async () => {
    model = await startFakeModel();
    const agent = start(tempDir("oi-home-"));
    const connection = testClient().app.connect(agent.stream);
    await connection.agent.request(methods.agent.initialize, INIT);
    agent.child.kill("SIGTERM");
    expect((await agent.exited).code).toBe(0);
  });

  it("keeps speaking ACP when the config file is invalid, naming the file and the key", async () => {
    model = await startFakeModel();
    const home = tempDir("oi-home-");
    writeFileSync(path.join(home, "config.toml"), 'model_context_window = "big"\n');
    const agent = start(home);
    const connection = testClient().app.connect(agent.stream);
    await connection.agent.request(methods.agent.initialize, INIT);
    const failure = connection.agent.request(methods.agent.session.new, { cwd: tempDir(), mcpServers: [] });
    await expect(failure).rejects.toThrow(/config\.toml/);
    await expect(failure).rejects.toThrow(/model_context_window/);
    agent.child.stdin!.end();
    await agent.exited;
    expect(agent.violations).toEqual([]);
  });

  it.each([
    ["the start-up snapshot", {}],
    ["the plain entry point", { INTERPRETER_SNAPSHOT: "0" }],
  ])("loads a harness on first use when a session switches to it, from %s", async (_from, env) => {
    model = await startFakeModel();
    const cwd = tempDir("oi-ws-");
    const agent = start(tempDir("oi-home-"), env);
    const connection = testClient().app.connect(agent.stream);
    await connection.agent.request(methods.agent.initialize, INIT);
    const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    await connection.agent.request(methods.agent.session.setConfigOption, {
      sessionId,
      configId: "harness",
      value: "pi",
    });
    await connection.agent.request(methods.agent.session.setConfigOption, {
      sessionId,
      configId: "mode",
      value: "full-access",
    });
    model.reply(
      { toolCalls: [{ id: "p1", name: "bash", arguments: { command: "echo from-pi > pi.txt" } }] },
      { text: "done" },
    );
    const response = await connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "write with pi" }],
    });
    expect(response.stopReason).toBe("end_turn");
    const tools = (model.requests[0]!.body.tools ?? []) as Array<{ function: { name: string } }>;
    expect(tools.map((t) => t.function.name)).toEqual(["read", "bash", "edit", "write"]);
    expect(readFileSync(path.join(cwd, "pi.txt"), "utf8")).toBe("from-pi\n");
    agent.child.stdin!.end();
    await agent.exited;
    expect(agent.violations).toEqual([]);
  });

  it("loads the MCP SDK at run time from the start-up snapshot and calls a server's tool", async () => {
    model = await startFakeModel();
    const home = tempDir("oi-home-");
    const cwd = tempDir("oi-ws-");
    const agent = start(home);
    const connection = testClient().app.connect(agent.stream);
    await connection.agent.request(methods.agent.initialize, INIT);
    const { sessionId } = await connection.agent.request(methods.agent.session.new, {
      cwd,
      mcpServers: [
        {
          name: "everything",
          command: path.join(MCP_BIN, "mcp-server-everything"),
          args: ["stdio"],
          env: [],
        },
      ],
    });
    model.reply(
      { toolCalls: [{ id: "m1", name: "mcp__everything__echo", arguments: { message: "ping" } }] },
      { text: "ok" },
    );
    const response = await connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "echo" }],
    });
    expect(response.stopReason).toBe("end_turn");
    const tools = (model.requests[0]!.body.tools ?? []) as Array<{ function: { name: string } }>;
    expect(tools.map((t) => t.function.name)).toContain("mcp__everything__echo");
    const result = model.requests[1]!.body.messages.find((m: { role: string }) => m.role === "tool");
    expect(result.content).toContain("ping");
    agent.child.stdin!.end();
    await agent.exited;
    expect(agent.violations).toEqual([]);
  });
});
