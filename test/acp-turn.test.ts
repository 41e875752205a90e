import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { methods } from "@agentclientprotocol/sdk/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess, until } from "./support/in-process.js";

let model: FakeModel;
let oi: InProcessAgent;

afterEach(async () => {
  await oi?.close();
  await model?.close();
});

async function setup(options: { configToml?: string; cli?: { model: string } } = {}) {
  model = await startFakeModel();
  oi = await startInProcess({ model, ...options });
  return oi;
}

const kinds = (sessionId: string) => oi.editor.updates(sessionId).map((u) => u.sessionUpdate);

describe("a prompt turn", () => {
  it("streams reasoning and text, reports usage and titles the session", async () => {
    await setup();
    const { sessionId } = await oi.newSession();
    model.reply({ reasoning: "The user greets me.", text: "Hello! How can I help with this repository?" });
    expect(await oi.prompt(sessionId, "hi there\nsecond line")).toBe("end_turn");
    const updates = oi.editor.updates(sessionId);
    const thought = updates
      .map((u) =>
        u.sessionUpdate === "agent_thought_chunk" && u.content.type === "text" ? u.content.text : "",
      )
      .join("");
    expect(thought).toBe("The user greets me.");
    expect(oi.editor.text(sessionId)).toBe("Hello! How can I help with this repository?");
    expect(kinds(sessionId)).toContain("usage_update");
    await until(() => kinds(sessionId).includes("session_info_update"));
    expect(updates.find((u) => u.sessionUpdate === "session_info_update")).toMatchObject({
      title: "hi there",
    });
    const request = model.requests[0]!.body as {
      model: string;
      messages: Array<{ role: string; content: unknown }>;
    };
    expect(request.model).toBe("mock-model");
    expect(request.messages[0]!.role).toBe("system");
    expect(request.messages.at(-1)).toEqual({ role: "user", content: "hi there\nsecond line" });
    model.assertDone();
  });

  it("runs a command after the editor allows it and feeds Codex's exec output back to the model", async () => {
    await setup();
    const { sessionId, cwd } = await oi.newSession();
    model.reply(
      {
        toolCalls: [
          {
            id: "call_1",
            name: "exec_command",
            arguments: { cmd: "echo built > out.txt && cat out.txt" },
          },
        ],
      },
      { text: "Done." },
    );
    expect(await oi.prompt(sessionId, "build it")).toBe("end_turn");
    expect(readFileSync(path.join(cwd, "out.txt"), "utf8")).toBe("built\n");
    expect(oi.editor.permissions).toHaveLength(1);
    const asked = oi.editor.permissions[0]!;
    expect(asked.toolCall.title).toBe("echo built > out.txt && cat out.txt");
    expect(asked.options.map((o) => o.kind)).toEqual([
      "allow_once",
      "allow_always",
      "reject_once",
      "reject_always",
    ]);
    // tool_call (pending) reaches the editor before the permission request, then in_progress, then completed.
    const calls = oi.editor
      .updates(sessionId)
      .filter((u) => u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update");
    expect(calls[0]).toMatchObject({
      sessionUpdate: "tool_call",
      toolCallId: "call_1",
      status: "pending",
      kind: "execute",
    });
    expect(calls.some((u) => u.sessionUpdate === "tool_call_update" && u.status === "in_progress")).toBe(
      true,
    );
    expect(calls.at(-1)).toMatchObject({ sessionUpdate: "tool_call_update", status: "completed" });
    const second = model.requests[1]!.body as {
      messages: Array<{ role: string; content: string; tool_call_id?: string }>;
    };
    const toolMessage = second.messages.find((m) => m.role === "tool")!;
    expect(toolMessage.tool_call_id).toBe("call_1");
    expect(toolMessage.content).toMatch(
      /^Chunk ID: [0-9a-f]{6}\nWall time: \d+\.\d{4} seconds\nProcess exited with code 0\nOriginal token count: 2\nOutput:\nbuilt\n$/,
    );
  });

  it("tells the model when the user rejects, and runs nothing", async () => {
    await setup();
    const { sessionId, cwd } = await oi.newSession();
    oi.editor.setPermission(() => "reject_once");
    model.reply(
      { toolCalls: [{ id: "c1", name: "exec_command", arguments: { cmd: "touch rejected.txt" } }] },
      { text: "Understood." },
    );
    expect(await oi.prompt(sessionId, "make a file")).toBe("end_turn");
    expect(existsSync(path.join(cwd, "rejected.txt"))).toBe(false);
    const second = model.requests[1]!.body as { messages: Array<{ role: string; content: string }> };
    expect(second.messages.find((m) => m.role === "tool")?.content).toMatch(/rejected/);
    const finished = oi.editor
      .updates(sessionId)
      .filter((u) => u.sessionUpdate === "tool_call_update" && u.status);
    expect(finished.map((u) => (u.sessionUpdate === "tool_call_update" ? u.status : ""))).toEqual(["failed"]);
  });

  it("remembers 'always allow' per project, also after a restart", async () => {
    await setup();
    const { sessionId, cwd } = await oi.newSession();
    oi.editor.setPermission(() => "allow_always");
    const call = { name: "exec_command", arguments: { cmd: "touch a.txt" } };
    model.reply({ toolCalls: [{ id: "c1", ...call }] }, { text: "ok" });
    await oi.prompt(sessionId, "one");
    expect(oi.editor.permissions).toHaveLength(1);

    const home = oi.home;
    await oi.close();
    oi = await startInProcess({ model, home });
    oi.editor.setPermission(() => "reject_once");
    const second = await oi.newSession({ cwd });
    model.reply({ toolCalls: [{ id: "c2", ...call }] }, { text: "ok again" });
    await oi.prompt(second.sessionId, "two");
    expect(oi.editor.permissions).toHaveLength(0);
    expect(existsSync(path.join(cwd, "a.txt"))).toBe(true);
    // A different command is not covered by the rule.
    model.reply(
      {
        toolCalls: [{ id: "c3", name: "exec_command", arguments: { cmd: "touch a.txt && touch b.txt" } }],
      },
      { text: "no" },
    );
    await oi.prompt(second.sessionId, "three");
    expect(oi.editor.permissions).toHaveLength(1);
    expect(existsSync(path.join(cwd, "b.txt"))).toBe(false);
  });

  it("applies patches without asking in workspace-write, showing diffs", async () => {
    // gpt-5.5 is in Codex's catalog: it gets the apply_patch tool (a function with one `input` on Chat).
    await setup({ cli: { model: "gpt-5.5" } });
    const { sessionId, cwd } = await oi.newSession();
    writeFileSync(path.join(cwd, "math.js"), "export const add = (a, b) => a - b;\n");
    const patch = [
      "*** Begin Patch",
      "*** Update File: math.js",
      "-export const add = (a, b) => a - b;",
      "+export const add = (a, b) => a + b;",
      "*** Add File: notes.md",
      "+fixed add",
      "*** End Patch",
    ].join("\n");
    model.reply(
      { toolCalls: [{ id: "p1", name: "apply_patch", arguments: { input: patch } }] },
      { text: "Fixed." },
    );
    expect(await oi.prompt(sessionId, "fix add")).toBe("end_turn");
    expect(readFileSync(path.join(cwd, "math.js"), "utf8")).toBe("export const add = (a, b) => a + b;\n");
    expect(readFileSync(path.join(cwd, "notes.md"), "utf8")).toBe("fixed add\n");
    expect(oi.editor.permissions).toHaveLength(0);
    const done = oi.editor
      .updates(sessionId)
      .find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    expect(done).toMatchObject({
      content: [
        { type: "diff", path: path.join(cwd, "math.js"), oldText: "export const add = (a, b) => a - b;\n" },
        { type: "diff", path: path.join(cwd, "notes.md"), oldText: null, newText: "fixed add\n" },
      ],
    });
    const output = (
      model.requests[1]!.body as { messages: Array<{ role: string; content: string }> }
    ).messages.find((m) => m.role === "tool")!.content;
    // Codex lists added files, then modified, then deleted.
    expect(output).toContain("Success. Updated the following files:\nA notes.md\nM math.js\n");
  });

  it("asks before edits in read-only mode and intercepts apply_patch sent through the shell", async () => {
    await setup({ configToml: 'mode = "read-only"\n' });
    const { sessionId, cwd } = await oi.newSession();
    const heredoc = "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch\nEOF";
    model.reply(
      { toolCalls: [{ id: "s1", name: "exec_command", arguments: { cmd: heredoc } }] },
      { text: "ok" },
    );
    await oi.prompt(sessionId, "say hi in a file");
    expect(oi.editor.permissions).toHaveLength(1);
    expect(oi.editor.permissions[0]!.toolCall).toMatchObject({ kind: "execute", title: "Create hello.txt" });
    expect(oi.editor.permissions[0]!.toolCall.content).toEqual([
      { type: "diff", path: path.join(cwd, "hello.txt"), oldText: null, newText: "hi\n" },
    ]);
    expect(readFileSync(path.join(cwd, "hello.txt"), "utf8")).toBe("hi\n");
  });

  it("maps a plan tool (Claude Code's TodoWrite) onto ACP plan updates", async () => {
    // Codex 0.171 has no plan tool; Claude Code's TodoWrite is one.
    await setup({ configToml: 'harness = "claude-code"\n' });
    const { sessionId } = await oi.newSession();
    const todos = [
      { content: "Read the code", status: "completed", activeForm: "Reading the code" },
      { content: "Fix the bug", status: "in_progress", activeForm: "Fixing the bug" },
    ];
    model.reply(
      { toolCalls: [{ id: "u1", name: "TodoWrite", arguments: { todos } }] },
      { text: "Working on it." },
    );
    await oi.prompt(sessionId, "plan it");
    expect(oi.editor.updates(sessionId).find((u) => u.sessionUpdate === "plan")).toEqual({
      sessionUpdate: "plan",
      entries: [
        { content: "Read the code", status: "completed", priority: "medium" },
        { content: "Fix the bug", status: "in_progress", priority: "medium" },
      ],
    });
  });

  it("returns bad arguments and unknown tools to the model as errors instead of failing the turn", async () => {
    await setup();
    const { sessionId } = await oi.newSession();
    model.reply(
      {
        toolCalls: [
          { id: "b1", name: "exec_command", arguments: '{"cmd": "ls' },
          { id: "b2", name: "read_file", arguments: { path: "x" } },
        ],
      },
      { text: "Let me fix that." },
    );
    expect(await oi.prompt(sessionId, "go")).toBe("end_turn");
    const tools = (
      model.requests[1]!.body as { messages: Array<{ role: string; content: string }> }
    ).messages.filter((m) => m.role === "tool");
    expect(tools[0]!.content).toMatch(/failed to parse function arguments for exec_command/);
    expect(tools[1]!.content).toMatch(/unsupported call: read_file/);
  });

  it("queues a prompt sent while a turn runs, and never interleaves the turns", async () => {
    await setup();
    const { sessionId } = await oi.newSession();
    model.reply({ text: "first answer", delayMs: 20, chunkSize: 3 }, { text: "second answer" });
    const [a, b] = await Promise.all([oi.prompt(sessionId, "one"), oi.prompt(sessionId, "two")]);
    expect([a, b]).toEqual(["end_turn", "end_turn"]);
    expect(oi.editor.text(sessionId)).toBe("first answersecond answer");
    const second = model.requests[1]!.body as { messages: Array<{ role: string; content: string }> };
    expect(second.messages.slice(-3)).toEqual([
      { role: "user", content: "one" },
      { role: "assistant", content: "first answer" },
      { role: "user", content: "two" },
    ]);
  });

  it("ends with max_turn_requests when the model never stops calling tools", async () => {
    await setup({ configToml: "max_turn_steps = 2\n" });
    const { sessionId } = await oi.newSession();
    const call = { name: "exec_command", arguments: { cmd: "echo loop" } };
    model.reply({ toolCalls: [{ id: "l1", ...call }] }, { toolCalls: [{ id: "l2", ...call }] });
    expect(await oi.prompt(sessionId, "loop")).toBe("max_turn_requests");
    model.assertDone();
  });
});

describe("endpoint errors", () => {
  it("reach the editor readably and leave the session usable", async () => {
    await setup({ configToml: "[model_providers.openai]\nrequest_max_retries = 0\n" });
    const { sessionId } = await oi.newSession();
    model.reply({ status: 401, body: { error: { message: "Incorrect API key provided" } } });
    const failed = oi.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "hi" }],
    });
    await expect(failed).rejects.toThrow(/401/);
    await expect(failed).rejects.toThrow(/mock-model/);
    await expect(failed).rejects.toThrow(new RegExp(model.url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    expect(oi.editor.text(sessionId)).toMatch(/Error:.*401/);
    expect(JSON.stringify(oi.editor.notifications)).not.toContain("sk-test-key");

    model.reply({ text: "back again" });
    expect(await oi.prompt(sessionId, "retry")).toBe("end_turn");
    expect(oi.editor.text(sessionId)).toContain("back again");
    // The failed turn stays in the history the model sees; chat templates get one user message.
    const last = model.requests.at(-1)!.body as { messages: Array<{ role: string; content: string }> };
    expect(last.messages.at(-1)).toEqual({ role: "user", content: "hi\n\nretry" });
  });

  it("retries a 503 and then succeeds", async () => {
    await setup();
    const { sessionId } = await oi.newSession();
    model.reply({ status: 503, body: "busy", headers: { "retry-after": "0" } }, { text: "recovered" });
    expect(await oi.prompt(sessionId, "hi")).toBe("end_turn");
    expect(oi.editor.text(sessionId)).toBe(
      "\n\n**Warning:** Server error (HTTP 503); retrying in 0 ms (retry 1).\nrecovered",
    );
  });
});
