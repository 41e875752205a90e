import { execFileSync } from "node:child_process";
import { methods } from "@agentclientprotocol/sdk/unstable";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type FakeModel, startFakeModel } from "../support/fake-model.js";
import { tempDir, until } from "../support/in-process.js";
import { type AgentProcess, spawnAgent } from "../support/spawn-agent.js";
import { INIT, testClient } from "../support/test-client.js";
import { writeFigures } from "./support/load-figures.js";
import { processesWith, readStoredSession, shown } from "./support/protocol-db.js";

/**
 * The editor disappearing: stdin reaches EOF, or stdout stops being read (EPIPE). The daemon
 * must notice on its own, stop what it was doing, leave no process behind, exit 0, and keep
 * every event the editor was shown.
 */
let model: FakeModel | undefined;
const agents: AgentProcess[] = [];

/** Exit code and milliseconds from the editor leaving to the daemon's exit, per case. */
const exits: Record<string, { code: number | null; ms: number }> = {};
afterAll(() => writeFigures("editor-gone", exits));

afterEach(async () => {
  for (const agent of agents.splice(0)) if (agent.child.exitCode === null) agent.child.kill("SIGKILL");
  await model?.close();
  model = undefined;
});

async function open() {
  model = await startFakeModel();
  const home = tempDir("oi-gone-home-");
  const cwd = tempDir("oi-gone-ws-");
  const agent = spawnAgent({
    home,
    env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-test" },
    args: ["-m", "mock-model"],
  });
  agents.push(agent);
  const editor = testClient();
  const connection = editor.app.connect(agent.stream);
  await connection.agent.request(methods.agent.initialize, INIT);
  const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
  const prompt = (text: string) =>
    connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
  return { home, agent, editor, sessionId, prompt, model };
}

/** Exit status and how long the daemon took to exit after the editor left (for the report). */
async function exitAfter(agent: AgentProcess, leave: () => void, label: string) {
  const started = performance.now();
  leave();
  const status = await agent.exited;
  exits[label] = { code: status.code, ms: Math.round(performance.now() - started) };
  return status;
}

describe("the editor goes away", () => {
  it("stdin EOF while idle: exits 0 with the finished turn on disk", async () => {
    const { home, agent, editor, sessionId, prompt, model } = await open();
    model.reply({ text: "All done here." });
    expect((await prompt("finish something")).stopReason).toBe("end_turn");
    expect(await exitAfter(agent, () => agent.child.stdin!.end(), "EOF idle")).toEqual({
      code: 0,
      signal: null,
    });
    const stored = readStoredSession(home, sessionId);
    expect(stored.integrity).toBe("ok");
    expect(stored.text).toContain(shown(editor.updates(sessionId)).text);
    expect(stored.types.at(-1)).toBe("turn_ended");
    expect(agent.violations).toEqual([]);
  });

  it("stdin EOF while the model is mid-answer: exits 0, the streamed text is on disk", async () => {
    const { home, agent, editor, sessionId, prompt, model } = await open();
    model.reply({ text: "Part one of a long answer that never finishes", chunkSize: 8, hangAfterText: true });
    const answer = prompt("start talking").catch((error: unknown) => error);
    await until(() => shown(editor.updates(sessionId)).text.includes("never finishes"), 20_000);
    expect(await exitAfter(agent, () => agent.child.stdin!.end(), "EOF mid-stream")).toEqual({
      code: 0,
      signal: null,
    });
    await answer;
    const stored = readStoredSession(home, sessionId);
    expect(stored.integrity).toBe("ok");
    expect(stored.text).toContain(shown(editor.updates(sessionId)).text);
    expect(stored.types).toContain("turn_ended");
    expect(agent.stderr()).not.toMatch(/unhandled rejection|uncaught|database connection is not open/i);
  });

  it("stdin EOF while a command runs: exits 0, the command's process tree is gone", async () => {
    const { home, agent, editor, sessionId, prompt, model } = await open();
    const marker = "47.123";
    model.reply({
      text: "Running it.",
      toolCalls: [
        { id: "long", name: "exec_command", arguments: { cmd: `sleep ${marker}`, yield_time_ms: 30_000 } },
      ],
    });
    const answer = prompt("run the long thing").catch((error: unknown) => error);
    await until(
      () =>
        editor
          .updates(sessionId)
          .some((u) => u.sessionUpdate === "tool_call_update" && u.status === "in_progress"),
      20_000,
    );
    await until(() => processesWith(`sleep ${marker}`).length > 0, 20_000);
    expect(await exitAfter(agent, () => agent.child.stdin!.end(), "EOF during a command")).toEqual({
      code: 0,
      signal: null,
    });
    await answer;
    // The kill is asynchronous in the kernel; give stragglers a moment before calling them orphans.
    await until(() => processesWith(`sleep ${marker}`).length === 0, 10_000).catch(() => undefined);
    const left = processesWith(`sleep ${marker}`);
    expect(
      left,
      execFileSync("ps", ["-o", "pid,ppid,pgid,stat,args", "-p", left.join(",") || "1"], {
        encoding: "utf8",
      }),
    ).toEqual([]);
    const stored = readStoredSession(home, sessionId);
    expect(stored.integrity).toBe("ok");
    expect(stored.toolCallIds).toEqual(shown(editor.updates(sessionId)).toolCallIds);
    expect(stored.text).toContain("Running it.");
    expect(stored.types).toContain("turn_ended");
    expect(agent.stderr()).not.toMatch(/unhandled rejection|uncaught|database connection is not open/i);
  });

  it("stdout closed while updates stream (EPIPE): exits 0 once, with a consistent database", async () => {
    const { home, agent, editor, sessionId, prompt, model } = await open();
    const words = Array.from({ length: 400 }, (_, i) => `word${i} `).join("");
    model.reply({ text: words, chunkSize: 4, delayMs: 5 });
    const answer = prompt("talk for a while").catch((error: unknown) => error);
    await until(() => shown(editor.updates(sessionId)).text.includes("word20 "), 20_000);
    const status = await exitAfter(agent, () => agent.child.stdout!.destroy(), "EPIPE mid-stream");
    expect(status).toEqual({ code: 0, signal: null });
    await answer;
    const stderr = agent.stderr();
    expect(stderr.match(/the editor closed stdout/g)).toHaveLength(1);
    expect(stderr).not.toMatch(/EPIPE|unhandled|uncaught|\n\s+at /);
    const stored = readStoredSession(home, sessionId);
    expect(stored.integrity).toBe("ok");
    expect(stored.text).toContain(shown(editor.updates(sessionId)).text);
    expect(stored.types).toContain("turn_ended");
    expect(stored.text.length).toBeLessThan(words.length);
  });
});
