import { methods, type SessionUpdate } from "@agentclientprotocol/sdk/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess, until } from "./support/in-process.js";

// Fork, titles and steering through the official SDK client, on the real runtime and store.

let model: FakeModel;
const agents: InProcessAgent[] = [];
afterEach(async () => {
  for (const a of agents.splice(0)) await a.close();
  await model?.close();
});

async function start(home?: string): Promise<InProcessAgent> {
  const oi = await startInProcess({ model, ...(home ? { home } : {}) });
  agents.push(oi);
  return oi;
}

const said = (updates: SessionUpdate[], kind: "user_message_chunk" | "agent_message_chunk") =>
  updates
    .flatMap((u) => (u.sessionUpdate === kind && u.content.type === "text" ? [u.content.text] : []))
    .join("");

describe("session/fork", () => {
  it("copies the history so far into a new session that goes its own way; the source is untouched", async () => {
    model = await startFakeModel();
    model.reply({ text: "The answer is 4." }, { text: "Doubled: 8." });
    const oi = await start();
    const init = await oi.agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: {},
    });
    expect(init.agentCapabilities?.sessionCapabilities).toMatchObject({ fork: {}, title: {} });
    const source = await oi.newSession();
    await oi.prompt(source.sessionId, "What is 2 + 2?");

    const fork = await oi.agent.request(methods.agent.session.fork, {
      sessionId: source.sessionId,
      cwd: source.cwd,
      mcpServers: [],
    });
    expect(fork.sessionId).not.toBe(source.sessionId);
    expect(fork.configOptions?.find((o) => o.id === "harness")?.currentValue).toBe("codex");
    await oi.prompt(fork.sessionId, "Double it.");
    // The model saw the copied conversation before the fork's own prompt.
    const shown = JSON.stringify(model.requests.at(-1)!.body.messages);
    expect(shown).toMatch(/What is 2 \+ 2\?.*The answer is 4\..*Double it\./);

    const listed = await oi.agent.request(methods.agent.session.list, {});
    const titles = Object.fromEntries(listed.sessions.map((s) => [s.sessionId, s.title]));
    expect(titles[source.sessionId]).toBe("What is 2 + 2?");
    expect(titles[fork.sessionId]).toBe("What is 2 + 2? (fork)");

    // A fresh process replays each from the store: the fork shows the copy and its own turn.
    const later = await start(oi.home);
    for (const id of [source.sessionId, fork.sessionId])
      await later.agent.request(methods.agent.session.load, {
        sessionId: id,
        cwd: source.cwd,
        mcpServers: [],
      });
    expect(said(later.editor.updates(fork.sessionId), "user_message_chunk")).toBe("What is 2 + 2?Double it.");
    expect(said(later.editor.updates(fork.sessionId), "agent_message_chunk")).toBe(
      "The answer is 4.Doubled: 8.",
    );
    expect(said(later.editor.updates(source.sessionId), "user_message_chunk")).toBe("What is 2 + 2?");

    await expect(
      oi.agent.request(methods.agent.session.fork, { sessionId: "no-such", cwd: source.cwd, mcpServers: [] }),
    ).rejects.toMatchObject({ code: -32002 });
  });
});

describe("titles", () => {
  it("session/set_title and /rename set the title, tell the editor and keep it; an empty one is refused", async () => {
    model = await startFakeModel();
    const oi = await start();
    const { sessionId } = await oi.newSession();
    const set = await oi.agent.request(methods.agent.session.setTitle, {
      sessionId,
      title: "  Fix   the parser ",
    });
    expect(set.title).toBe("Fix the parser");
    await until(() =>
      oi.editor
        .updates(sessionId)
        .some((u) => u.sessionUpdate === "session_info_update" && u.title === "Fix the parser"),
    );
    await expect(
      oi.agent.request(methods.agent.session.setTitle, { sessionId, title: "   " }),
    ).rejects.toMatchObject({ code: -32602 });

    await oi.prompt(sessionId, "/rename Parser, second try");
    expect(said(oi.editor.updates(sessionId), "agent_message_chunk")).toContain("Parser, second try");
    // The first prompt names only an untitled session: the chosen title stays.
    model.reply({ text: "ok" });
    await oi.prompt(sessionId, "now go");
    const listed = await oi.agent.request(methods.agent.session.list, {});
    expect(listed.sessions.find((s) => s.sessionId === sessionId)?.title).toBe("Parser, second try");
  });
});

describe("steering", () => {
  it("puts a prompt sent during a turn into that turn, at its next model request", async () => {
    model = await startFakeModel();
    // A slow first answer: the steer arrives while it streams.
    model.reply(
      { text: "Looking at the tests now.", chunkSize: 2, delayMs: 15 },
      { text: "Skipped the slow ones." },
    );
    const oi = await start();
    const init = await oi.agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: {},
    });
    expect(init._meta).toMatchObject({ steering: { supported: true } });
    const { sessionId, cwd } = await oi.newSession();
    const turn = oi.prompt(sessionId, "Run the tests.");
    await until(() => model.requests.length === 1);
    const steered = await oi.agent.request("_session/steering", {
      sessionId,
      prompt: [{ type: "text", text: "Skip the slow tests." }],
    });
    expect(steered).toEqual({ outcome: "injected" });
    expect(await turn).toBe("end_turn");
    // One turn, two requests: the second carries the steer after the first answer.
    expect(model.requests).toHaveLength(2);
    const messages = model.requests[1]!.body.messages as Array<{ role: string; content: unknown }>;
    expect(messages.slice(-2)).toEqual([
      { role: "assistant", content: "Looking at the tests now." },
      { role: "user", content: "Skip the slow tests." },
    ]);
    // The history records where it entered: a replay shows it between the two answers.
    const later = await start(oi.home);
    await later.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    const order = later.editor
      .updates(sessionId)
      .flatMap((u) =>
        (u.sessionUpdate === "user_message_chunk" || u.sessionUpdate === "agent_message_chunk") &&
        u.content.type === "text"
          ? [`${u.sessionUpdate === "user_message_chunk" ? "user" : "agent"}`]
          : [],
      )
      .filter((who, i, all) => who !== all[i - 1]);
    expect(order).toEqual(["user", "agent", "user", "agent"]);
  });

  it("without a running turn: starts one, or leaves the prompt to a client that asked to keep it", async () => {
    model = await startFakeModel();
    model.reply({ text: "Started from a steer." });
    const oi = await start();
    const { sessionId } = await oi.newSession();
    const kept = await oi.agent.request("_session/steering", {
      sessionId,
      prompt: [{ type: "text", text: "hello" }],
      _meta: { steering: { idleBehavior: "promptRequired" } },
    });
    expect(kept).toEqual({ outcome: "promptRequired", reason: "noRunningTurn" });
    expect(model.requests).toHaveLength(0);
    const started = await oi.agent.request("_session/steering", {
      sessionId,
      prompt: [{ type: "text", text: "hello" }],
    });
    expect(started).toEqual({ outcome: "startedNewTurn" });
    await until(() =>
      said(oi.editor.updates(sessionId), "agent_message_chunk").includes("Started from a steer."),
    );
    await expect(oi.agent.request("_session/steering", { sessionId, prompt: [] })).rejects.toMatchObject({
      code: -32602,
    });
  });
});

describe("archive", () => {
  it("takes a session out of the default list and back, remembered across a restart", async () => {
    model = await startFakeModel();
    const oi = await start();
    const kept = await oi.newSession();
    const old = await oi.newSession();
    await oi.agent.request(methods.agent.session.archive, { sessionId: old.sessionId });
    const ids = async (agent: InProcessAgent, archived?: "include" | "only") =>
      (await agent.agent.request(methods.agent.session.list, archived ? { archived } : {})).sessions.map(
        (s) => [s.sessionId, s.archived],
      );
    expect(await ids(oi)).toEqual([[kept.sessionId, false]]);
    expect(await ids(oi, "only")).toEqual([[old.sessionId, true]]);
    const later = await start(oi.home);
    expect((await ids(later, "include")).sort()).toEqual(
      [
        [kept.sessionId, false],
        [old.sessionId, true],
      ].sort(),
    );
    await later.agent.request(methods.agent.session.unarchive, { sessionId: old.sessionId });
    expect((await ids(later)).map(([id]) => id).sort()).toEqual([kept.sessionId, old.sessionId].sort());
    await expect(
      later.agent.request(methods.agent.session.archive, { sessionId: "nope" }),
    ).rejects.toMatchObject({
      code: -32002,
    });
    await expect(
      later.agent.request(methods.agent.session.list, { archived: "sometimes" }),
    ).rejects.toMatchObject({ code: -32602 });
  });
});
