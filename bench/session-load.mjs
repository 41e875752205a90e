// session/load of a long session: 10,000 stored events (turns of text, tool calls and results)
// written through the store, then replayed by a fresh daemon.
import { mkdtempSync } from "node:fs";
import path from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { cpuMs, ourDaemon } from "./daemon.mjs";
import { LAUNCHER } from "./support.mjs";

export function longHistory(count) {
  const events = [];
  for (let turn = 0; events.length < count; turn++) {
    const turnId = `t${turn}`;
    events.push({ type: "turn_started", turnId, pid: 1 });
    events.push({
      type: "user_message",
      turnId,
      content: [{ type: "text", text: `step ${turn}: keep going` }],
    });
    for (let step = 1; step <= 3; step++) {
      const callId = `${turnId}-c${step}`;
      events.push({
        type: "assistant_message",
        turnId,
        step,
        text: `Looking at part ${step}.`,
        reasoning: "",
      });
      events.push({
        type: "tool_call",
        turnId,
        step,
        callId,
        name: "exec_command",
        harness: "codex",
        capability: "exec",
        arguments: JSON.stringify({ cmd: `sed -n ${step},+40p src/file${turn}.ts` }),
        title: `sed -n ${step},+40p src/file${turn}.ts`,
        kind: "read",
      });
      events.push({ type: "tool_result", turnId, callId, status: "completed", output: "x".repeat(600) });
    }
    events.push({ type: "assistant_message", turnId, step: 4, text: "Done with this step.", reasoning: "" });
    events.push({ type: "turn_ended", turnId, stopReason: "end_turn" });
  }
  return events.slice(0, count);
}

const WARM_UP = 2;

export async function sessionLoad({ runs, scratch, modelUrl, openStore, events = 10_000 }) {
  const daemon = ourDaemon({ launcher: LAUNCHER, scratch, modelUrl });
  const cwd = mkdtempSync(path.join(scratch, "ws-"));
  const store = openStore({ path: path.join(daemon.home, "openinterpreter.db") });
  const id = "bench-long-session";
  store.createSession({
    id,
    cwd,
    additionalDirectories: [],
    mcpServers: [],
    mode: "full-access",
    model: "mock-model",
  });
  const history = longHistory(events);
  for (let i = 0; i < history.length; i += 500) store.append(id, history.slice(i, i + 500));
  store.close();
  // Beside the wall time: when the first update arrived, the daemon's own CPU, and the CPU of
  // this process's SDK client, which validates every update with zod and sets the pace. Its
  // first loads compile those validators (an editor's client does that once): they run uncounted.
  const rows = { ms: [], firstUpdateMs: [], daemonCpuMs: [], clientCpuMs: [], updates: 0 };
  for (let i = -WARM_UP; i < runs; i++) {
    const agent = await daemon.start();
    const cpuBefore = cpuMs(agent.child.pid);
    const clientBefore = process.cpuUsage();
    const start = performance.now();
    await agent.agent.request(methods.agent.session.load, { sessionId: id, cwd, mcpServers: [] });
    const ms = performance.now() - start;
    const client = process.cpuUsage(clientBefore);
    if (i >= 0) {
      rows.ms.push(ms);
      rows.firstUpdateMs.push(agent.firstUpdateAt - start);
      rows.daemonCpuMs.push(cpuMs(agent.child.pid) - cpuBefore);
      rows.clientCpuMs.push((client.user + client.system) / 1000);
    }
    rows.updates = agent.updates.length;
    await agent.stop();
  }
  return rows;
}
