/**
 * `session/load` of a long session: 10,000 stored events (1,000 turns of messages, tool calls,
 * results, plans and usage, written through the store API) replay completely, in order and
 * unchanged, through a spawned daemon. The time is reported, not asserted.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { methods, type SessionUpdate } from "@agentclientprotocol/sdk/unstable";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HistoryEvent } from "../../src/store/events.js";
import { openStore } from "../../src/store/open-store.js";
import { agentText, type Daemon, startDaemon } from "./support/crash-daemon.js";
import { writeFigures } from "./support/load-figures.js";
import { type RoutedModel, startRoutedModel } from "./support/load-routed-model.js";
import { reliabilityScript } from "./support/load-tasks.js";

const TURNS = 1_000;
const EVENTS_PER_TURN = 10;
/**
 * Updates one turn replays as: user 1, thought + text 2, usage 1, plan 1, and each call with
 * its result as one finished `tool_call` 2.
 */
const UPDATES_PER_TURN = 7;

let root: string;
let model: RoutedModel;
let daemon: Daemon | undefined;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), "oi-session-load-"));
  // Loading never calls the model; the daemon just needs an endpoint configured.
  model = await startRoutedModel({ script: reliabilityScript });
});
afterAll(async () => {
  if (daemon?.agent.child.exitCode === null) daemon.agent.child.kill("SIGKILL");
  await model?.close();
  rmSync(root, { recursive: true, force: true });
});

function turn(n: number): HistoryEvent[] {
  const turnId = `turn-${n}`;
  const read = `call-${n}-read`;
  const run = `call-${n}-run`;
  return [
    { type: "turn_started", turnId, pid: 1 },
    { type: "user_message", turnId, content: [{ type: "text", text: `question ${n}` }] },
    { type: "assistant_message", turnId, step: 1, text: `answer ${n}. `, reasoning: `thinking ${n}` },
    {
      type: "usage",
      turnId,
      inputTokens: 100 + n,
      outputTokens: 20,
      contextUsed: 120 + n,
      contextSize: 200_000,
    },
    {
      type: "tool_call",
      turnId,
      step: 1,
      callId: read,
      name: "shell_command",
      harness: "codex",
      capability: "exec",
      arguments: JSON.stringify({ command: `cat file-${n}.txt` }),
      title: `cat file-${n}.txt`,
      kind: "execute",
      locations: [],
      display: [],
    },
    {
      type: "tool_result",
      turnId,
      callId: read,
      status: "completed",
      output: `contents of file ${n}\n`.repeat(4),
      display: [{ type: "text", text: `contents of file ${n}` }],
    },
    { type: "plan", turnId, entries: [{ content: `step ${n}`, status: "completed", priority: "medium" }] },
    {
      type: "tool_call",
      turnId,
      step: 2,
      callId: run,
      name: "apply_patch",
      harness: "codex",
      capability: "patch",
      arguments: JSON.stringify({ input: `patch ${n}` }),
      title: `Edit file-${n}.txt`,
      kind: "edit",
      locations: [{ path: `/w/file-${n}.txt` }],
      display: [{ type: "diff", path: `/w/file-${n}.txt`, oldText: `old ${n}`, newText: `new ${n}` }],
    },
    {
      type: "tool_result",
      turnId,
      callId: run,
      status: "failed",
      output: `patch ${n} did not apply`,
      display: [],
    },
    { type: "turn_ended", turnId, stopReason: "end_turn" },
  ];
}

describe("session/load of a long session", () => {
  it(`replays ${TURNS * EVENTS_PER_TURN} events completely and in order`, { timeout: 120_000 }, async () => {
    const home = path.join(root, "home");
    const cwd = path.join(root, "ws");
    mkdirSync(home);
    mkdirSync(cwd);
    const store = openStore({ path: path.join(home, "openinterpreter.db") });
    const sessionId = "long-session";
    store.createSession({ id: sessionId, cwd, additionalDirectories: [], mcpServers: [], mode: "auto" });
    for (let n = 0; n < TURNS; n += 10) {
      store.append(sessionId, Array.from({ length: 10 }, (_, i) => turn(n + i)).flat());
    }
    expect(store.events(sessionId)).toHaveLength(TURNS * EVENTS_PER_TURN);
    store.close();

    daemon = await startDaemon({ home, modelUrl: model.url });
    const started = performance.now();
    await daemon.connection.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    const loadMs = performance.now() - started;
    const replay = daemon.updates(sessionId).filter((u) => !LIVE_ONLY.has(u.sessionUpdate));

    expect(replay).toHaveLength(TURNS * UPDATES_PER_TURN);
    const ofKind = (kind: SessionUpdate["sessionUpdate"]) => replay.filter((u) => u.sessionUpdate === kind);
    const range = Array.from({ length: TURNS }, (_, n) => n);
    expect(ofKind("user_message_chunk").map((u) => textOf(u))).toEqual(range.map((n) => `question ${n}`));
    expect(ofKind("agent_thought_chunk").map((u) => textOf(u))).toEqual(range.map((n) => `thinking ${n}`));
    expect(agentText(replay)).toBe(range.map((n) => `answer ${n}. `).join(""));
    expect(ofKind("tool_call").map((u) => (u.sessionUpdate === "tool_call" ? u.toolCallId : ""))).toEqual(
      range.flatMap((n) => [`call-${n}-read`, `call-${n}-run`]),
    );
    expect(ofKind("tool_call").map((u) => (u.sessionUpdate === "tool_call" ? u.status : ""))).toEqual(
      range.flatMap(() => ["completed", "failed"]),
    );
    // What the editor shows of a call is its result's (as a live `tool_call_update` sets it).
    expect(ofKind("tool_call").slice(0, 2)).toMatchObject([
      {
        content: [{ content: { text: "contents of file 0" } }],
        rawOutput: { output: "contents of file 0\n".repeat(4) },
      },
      {
        kind: "edit",
        content: [{ content: { text: "patch 0 did not apply" } }],
        locations: [{ path: "/w/file-0.txt" }],
      },
    ]);
    expect(ofKind("tool_call_update")).toEqual([]);
    expect(ofKind("usage_update").at(-1)).toMatchObject({ used: 120 + TURNS - 1, size: 200_000 });
    expect(ofKind("plan")).toHaveLength(TURNS);
    expect(agentText(replay)).not.toMatch(/interrupted/);

    expect(await daemon.close()).toEqual({ code: 0, signal: null });
    expect(daemon.agent.violations).toEqual([]);
    writeFigures("session-load", {
      events: TURNS * EVENTS_PER_TURN,
      updates: replay.length,
      loadMs: Math.round(loadMs),
    });
  });
});

/** Sent when a session attaches, not part of the replay. */
const LIVE_ONLY = new Set<SessionUpdate["sessionUpdate"]>([
  "available_commands_update",
  "config_option_update",
  "current_mode_update",
  "session_info_update",
]);

function textOf(update: SessionUpdate): string {
  return "content" in update && !Array.isArray(update.content) && update.content?.type === "text"
    ? update.content.text
    : "";
}
