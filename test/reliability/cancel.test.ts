/**
 * Cancellation, as the editor sees it on the wire: the daemon runs as a subprocess, every line
 * it writes is recorded in order, and each case checks that the cancelled prompt answers
 * `cancelled` exactly once, with no JSON-RPC error, no `session/update` of that session after
 * the answer, no process left behind, and that the next prompt in the session works.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { methods } from "@agentclientprotocol/sdk/unstable";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeModel, replyChunks, startFakeModel } from "../support/fake-model.js";
import { until } from "../support/in-process.js";
import { BIN, MARKER_VAR, newMarker, processesWithMarker } from "../support/mcp-helpers.js";
import { processesWithCmdline } from "./support/fault-kit.js";
import { startWireAgent, statusAtAnswer, turnOnWire, type WireAgent } from "./support/fault-wire.js";

/** Long enough for anything a cancelled turn would still write to reach the wire. */
const SETTLE_MS = 300;
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

let model: FakeModel;
let oi: WireAgent;
beforeAll(async () => {
  model = await startFakeModel();
  oi = await startWireAgent({ model });
});
afterAll(async () => {
  const exit = await oi?.close();
  await model?.close();
  expect(exit).toEqual({ code: 0, signal: null });
  expect(oi.process.violations).toEqual([]);
});

const prompt = (sessionId: string, text: string, signal?: AbortSignal) =>
  oi.agent
    .request(
      methods.agent.session.prompt,
      { sessionId, prompt: [{ type: "text", text }] },
      { cancellationSignal: signal },
    )
    .then((r) => r.stopReason);
const cancel = (sessionId: string) => oi.agent.notify(methods.agent.session.cancel, { sessionId });
const hasText = (sessionId: string) => () => oi.editor.text(sessionId).length > 0;

/** The checks every cancelled turn must pass, then one more prompt in the same session. */
async function expectCleanCancel(sessionId: string, from: number, stopReasons = ["cancelled"]) {
  await settle();
  const turn = turnOnWire(oi.wire(from), sessionId);
  expect(turn.stopReasons).toEqual(stopReasons);
  expect(turn.errors).toEqual([]);
  expect(turn.late).toEqual([]);
  model.reply({ text: "ready again" });
  expect(await prompt(sessionId, "next")).toBe("end_turn");
  expect(oi.editor.text(sessionId)).toContain("ready again");
  model.assertDone();
  return turn;
}

describe("session/cancel", () => {
  it("during the model stream", async () => {
    const { sessionId } = await oi.newSession();
    const from = oi.mark();
    model.reply({ text: "a long story, part one", hangAfterText: true });
    const answer = prompt(sessionId, "tell me a story");
    await until(hasText(sessionId));
    await cancel(sessionId);
    expect(await answer).toBe("cancelled");
    await expectCleanCancel(sessionId, from);
  });

  it("while a permission request is open: the request is withdrawn and nothing runs", async () => {
    const { sessionId, cwd } = await oi.newSession();
    const from = oi.mark();
    let asked = false;
    oi.editor.setPermission(() => {
      asked = true;
      return new Promise<string>(() => {});
    });
    model.reply({
      toolCalls: [{ id: "p1", name: "exec_command", arguments: { cmd: "touch never.txt" } }],
    });
    const answer = prompt(sessionId, "make a file");
    await until(() => asked);
    await cancel(sessionId);
    expect(await answer).toBe("cancelled");
    oi.editor.setPermission(() => "allow_once");
    const turn = await expectCleanCancel(sessionId, from);
    const permission = turn.requests.find((m) => m.msg.method === "session/request_permission");
    expect(turn.withdrawn).toEqual([permission?.msg.id]);
    expect(statusAtAnswer(oi.wire(from), "p1")).toBe("failed");
    expect(existsSync(path.join(cwd, "never.txt"))).toBe(false);
  });

  it("while a command runs: its whole tree dies, grandchildren and escaped sessions included", async () => {
    const { sessionId } = await oi.newSession();
    const from = oi.mark();
    const marker = `oi-cancel-${newMarker()}`;
    // A sleeping child, a sleeping grandchild in its own session, and output all the while.
    const command = [
      `bash -c 'exec -a ${marker} sleep 30' &`,
      `setsid bash -c 'bash -c "exec -a ${marker} sleep 30"; :' &`,
      "while :; do echo tick; sleep 0.02; done",
    ].join(" ");
    // Codex's longest yield: the call is still waiting for the command when the cancel comes.
    model.reply({
      toolCalls: [{ id: "s1", name: "exec_command", arguments: { cmd: command, yield_time_ms: 30_000 } }],
    });
    const answer = prompt(sessionId, "run it");
    const isSleep = (p: { cmdline: string }) => p.cmdline.startsWith(`${marker} `);
    await until(() => processesWithCmdline(marker).filter(isSleep).length === 2, 10_000);
    await until(() =>
      oi.editor.updates(sessionId).some((u) => u.sessionUpdate === "tool_call_update" && u.content),
    );
    await cancel(sessionId);
    expect(await answer).toBe("cancelled");
    await until(() => processesWithCmdline(marker).length === 0, 3_000);
    expect(statusAtAnswer(oi.wire(from), "s1")).toBe("failed");
    await expectCleanCancel(sessionId, from);
  });

  it("while an MCP tool call runs: the call stops, the server lives on until the session closes", async () => {
    const marker = newMarker();
    const { sessionId } = await oi.newSession({
      mcpServers: [
        {
          name: "everything",
          command: path.join(BIN, "mcp-server-everything"),
          args: ["stdio"],
          env: [{ name: MARKER_VAR, value: marker }],
        },
      ],
    });
    const from = oi.mark();
    model.reply({
      toolCalls: [
        {
          id: "m1",
          name: "mcp__everything__trigger-long-running-operation",
          arguments: { duration: 30, steps: 300 },
        },
      ],
    });
    const answer = prompt(sessionId, "run the long operation");
    await until(
      () => oi.editor.updates(sessionId).some((u) => u.sessionUpdate === "tool_call_update" && u.content),
      15_000,
    );
    await cancel(sessionId);
    expect(await answer).toBe("cancelled");
    expect(statusAtAnswer(oi.wire(from), "m1")).toBe("failed");
    await expectCleanCancel(sessionId, from);
    // The server survived the cancelled call and still answers.
    expect(processesWithMarker(marker).length).toBeGreaterThan(0);
    model.reply(
      { toolCalls: [{ id: "m2", name: "mcp__everything__echo", arguments: { message: "pong" } }] },
      {
        text: "echoed",
        expect: (body) => expect(JSON.stringify(body.messages)).toContain("pong"),
      },
    );
    expect(await prompt(sessionId, "echo")).toBe("end_turn");
    await oi.agent.request(methods.agent.session.close, { sessionId });
    await until(() => processesWithMarker(marker).length === 0, 5_000);
  });

  it("during a retry backoff (429 asking to wait 30 s)", async () => {
    const { sessionId } = await oi.newSession();
    const from = oi.mark();
    model.reply({ status: 429, headers: { "retry-after": "30" } });
    const answer = prompt(sessionId, "rate me");
    await until(() => oi.editor.text(sessionId).includes("retrying in 30 s"));
    await cancel(sessionId);
    expect(await answer).toBe("cancelled");
    expect(model.requests.filter((r) => JSON.stringify(r.body).includes("rate me"))).toHaveLength(1);
    await expectCleanCancel(sessionId, from);
  });

  it("while the session's MCP servers are still starting", async () => {
    const marker = newMarker();
    // A server that never answers `initialize`: the turn waits for it up to its start-up timeout.
    const { sessionId } = await oi.newSession({
      mcpServers: [
        { name: "mute", command: "sleep", args: ["60"], env: [{ name: MARKER_VAR, value: marker }] },
      ],
    });
    const from = oi.mark();
    const answer = prompt(sessionId, "start the servers");
    await until(() => oi.editor.updates(sessionId).some((u) => u.sessionUpdate === "user_message_chunk"));
    await cancel(sessionId);
    expect(await answer).toBe("cancelled");
    // Answered while the server was still starting, not after its start-up timeout ran out.
    expect(processesWithMarker(marker)).toHaveLength(1);
    await settle();
    const turn = turnOnWire(oi.wire(from), sessionId);
    expect(turn.stopReasons).toEqual(["cancelled"]);
    expect(turn.errors).toEqual([]);
    expect(turn.late).toEqual([]);
    expect(model.requests.filter((r) => JSON.stringify(r.body).includes("start the servers"))).toEqual([]);
    await oi.agent.request(methods.agent.session.close, { sessionId });
    await until(() => processesWithMarker(marker).length === 0, 5_000);
  });

  it("twice in a row, and once more when idle: one answer, and the next prompt is not cancelled", async () => {
    const { sessionId } = await oi.newSession();
    const from = oi.mark();
    model.reply({ text: "thinking out loud", hangAfterText: true });
    const answer = prompt(sessionId, "think");
    await until(hasText(sessionId));
    await Promise.all([cancel(sessionId), cancel(sessionId)]);
    expect(await answer).toBe("cancelled");
    await cancel(sessionId);
    await expectCleanCancel(sessionId, from);
  });

  it("cancels prompts queued behind the running turn; they never reach the model", async () => {
    const { sessionId } = await oi.newSession();
    const from = oi.mark();
    model.reply({ text: "slow", hangAfterText: true });
    const first = prompt(sessionId, "one");
    const second = prompt(sessionId, "two");
    await until(hasText(sessionId));
    await cancel(sessionId);
    expect(await Promise.all([first, second])).toEqual(["cancelled", "cancelled"]);
    expect(model.requests.filter((r) => JSON.stringify(r.body).includes('"two"'))).toEqual([]);
    await expectCleanCancel(sessionId, from, ["cancelled", "cancelled"]);
  });
});

describe("the end of a turn", () => {
  it("kills a command exec_command left running, its whole tree included", async () => {
    const { sessionId } = await oi.newSession();
    const from = oi.mark();
    const marker = `oi-turn-end-${newMarker()}`;
    const command = [
      `bash -c 'exec -a ${marker} sleep 30' &`,
      `setsid bash -c 'bash -c "exec -a ${marker} sleep 30"; :' &`,
      "sleep 30",
    ].join(" ");
    const sleeping = () => processesWithCmdline(marker).filter((p) => p.cmdline.startsWith(`${marker} `));
    let whileAsked = 0;
    let result = "";
    model.reply(
      { toolCalls: [{ id: "b1", name: "exec_command", arguments: { cmd: command, yield_time_ms: 250 } }] },
      {
        // The model is asked again while the command runs on in the background; it answers once
        // both sleeps are up, and the turn ends.
        async handle(_req, res, body) {
          await until(() => sleeping().length === 2, 10_000);
          whileAsked = sleeping().length;
          result = JSON.stringify(body.messages.at(-1));
          res.writeHead(200, { "content-type": "text/event-stream" });
          for (const data of replyChunks({ text: "left it running" }, body, () => "anon"))
            res.write(`data: ${data}\n\n`);
          res.end();
        },
      },
    );
    expect(await prompt(sessionId, "start it")).toBe("end_turn");
    expect(whileAsked).toBe(2);
    expect(result).toMatch(/Process running with session ID \d+/);
    await until(() => processesWithCmdline(marker).length === 0, 3_000);
    expect(statusAtAnswer(oi.wire(from), "b1")).toBe("completed");
    model.assertDone();
  });
});

describe("late updates", () => {
  it("a quick command's batched output never arrives after its result or the answer", async () => {
    const { sessionId } = await oi.newSession();
    const from = oi.mark();
    model.reply(
      { toolCalls: [{ id: "q1", name: "exec_command", arguments: { cmd: "echo quick" } }] },
      { text: "done" },
    );
    expect(await prompt(sessionId, "quick")).toBe("end_turn");
    await settle();
    const messages = oi.wire(from);
    expect(turnOnWire(messages, sessionId).late).toEqual([]);
    const updates = messages.filter((m) => m.msg.method === "session/update").map((m) => m.msg.params.update);
    const completed = updates.findIndex((u) => u.toolCallId === "q1" && u.status === "completed");
    expect(completed).toBeGreaterThan(0);
    expect(updates.slice(completed + 1).filter((u) => u.toolCallId === "q1")).toEqual([]);
    model.assertDone();
  });
});

describe("$/cancel_request for one prompt", () => {
  it("withdraws a queued prompt at once; the running turn finishes normally", async () => {
    const { sessionId } = await oi.newSession();
    const from = oi.mark();
    model.reply({ text: "a slow but complete answer", chunkSize: 2, delayMs: 60 });
    const first = prompt(sessionId, "one");
    await until(hasText(sessionId));
    const withdraw = new AbortController();
    const second = prompt(sessionId, "two", withdraw.signal);
    withdraw.abort();
    expect(await second).toBe("cancelled");
    // Answered while the first turn was still streaming, not after it.
    expect(oi.editor.text(sessionId)).not.toBe("a slow but complete answer");
    expect(await first).toBe("end_turn");
    expect(oi.editor.text(sessionId)).toBe("a slow but complete answer");
    expect(model.requests.filter((r) => JSON.stringify(r.body).includes('"two"'))).toEqual([]);
    await settle();
    const turn = turnOnWire(oi.wire(from), sessionId);
    expect(turn.stopReasons.sort()).toEqual(["cancelled", "end_turn"]);
    expect(turn.errors).toEqual([]);
    model.reply({ text: "ready again" });
    expect(await prompt(sessionId, "next")).toBe("end_turn");
    model.assertDone();
  });

  it("cancels the running prompt it names", async () => {
    const { sessionId } = await oi.newSession();
    const from = oi.mark();
    model.reply({ text: "endless", hangAfterText: true });
    const withdraw = new AbortController();
    const answer = prompt(sessionId, "go", withdraw.signal);
    await until(hasText(sessionId));
    withdraw.abort();
    expect(await answer).toBe("cancelled");
    await expectCleanCancel(sessionId, from);
  });
});
