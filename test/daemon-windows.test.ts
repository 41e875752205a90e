import { methods } from "@agentclientprotocol/sdk/unstable";
import { describe, expect, it } from "vitest";
import { readStoredSession, shown } from "./reliability/support/protocol-db.js";
import { alive, daemonTest, slowText } from "./support/daemon-kit.js";
import { until } from "./support/in-process.js";

/**
 * Editor windows sharing the daemon: every `interpreter acp` is a proxy to one daemon per home,
 * which owns the sessions (docs/daemon.md).
 */
const setup = (daemonToml?: string) => daemonTest({ daemonToml });

describe("one daemon for every window", () => {
  it("two windows share one daemon: a session opened in one is loaded in the other, which takes it over", async () => {
    const { model, kit } = await setup();
    const a = await kit.window(model);
    const b = await kit.window(model);
    const daemon = kit.daemonPid();
    expect(daemon).toBeDefined();
    // Both proxies talk to the same daemon process: one lock, one pid, and neither proxy is it.
    expect([a.agent.child.pid, b.agent.child.pid]).not.toContain(daemon);

    const { sessionId } = await a.acp.request(methods.agent.session.new, { cwd: kit.cwd, mcpServers: [] });
    model.reply({ text: "Hello from window A." });
    expect((await a.prompt(sessionId, "hi")).stopReason).toBe("end_turn");

    const listed = await b.acp.request(methods.agent.session.list, {});
    expect(listed.sessions.map((s) => s.sessionId)).toContain(sessionId);
    // A read-only load shows the history and leaves the session with window A.
    const look = { sessionId, cwd: kit.cwd, mcpServers: [], _meta: { "openinterpreter/readOnly": true } };
    await b.acp.request(methods.agent.session.load, look);
    expect(shown(b.editor.updates(sessionId)).text).toContain("Hello from window A.");
    await expect(b.prompt(sessionId, "mine now?")).rejects.toThrow(/open in another window/);
    model.reply({ text: "Still A's." });
    expect((await a.prompt(sessionId, "still mine")).stopReason).toBe("end_turn");
    expect(shown(a.editor.allUpdates(sessionId)).text).not.toContain("opened in another window");

    await b.acp.request(methods.agent.session.load, { sessionId, cwd: kit.cwd, mcpServers: [] });
    expect(shown(b.editor.updates(sessionId)).text).toContain("Hello from window A.");

    // Window A is told, and its requests for the session are refused until it loads it again.
    await until(() => shown(a.editor.allUpdates(sessionId)).text.includes("opened in another window"));
    await expect(a.prompt(sessionId, "still mine?")).rejects.toThrow(/open in another window/);
    model.reply({ text: "Window B answers." });
    expect((await b.prompt(sessionId, "now from B")).stopReason).toBe("end_turn");
    expect(shown(b.editor.updates(sessionId)).text).toContain("Window B answers.");
    expect(shown(a.editor.updates(sessionId)).text).not.toContain("Window B answers.");
    expect(kit.daemonPid()).toBe(daemon);
    expect([...a.agent.violations, ...b.agent.violations]).toEqual([]);
  });

  it("a window killed mid-turn: the turn runs to its end, and a new window loading the session follows it live", async () => {
    const { model, kit } = await setup();
    const a = await kit.window(model);
    const { sessionId } = await a.acp.request(methods.agent.session.new, { cwd: kit.cwd, mcpServers: [] });
    const text = slowText(60);
    model.reply({ text, chunkSize: 6, delayMs: 40 });
    void a.prompt(sessionId, "talk slowly").catch(() => undefined);
    await until(() => shown(a.editor.updates(sessionId)).text.includes("word3"), 20_000);
    a.agent.child.kill("SIGKILL");
    await a.agent.exited;

    const c = await kit.window(model);
    await c.acp.request(methods.agent.session.load, { sessionId, cwd: kit.cwd, mcpServers: [] });
    // Loaded while still running (the answer takes ~2 s): the rest arrives live.
    expect(readStoredSession(kit.home, sessionId).types).not.toContain("turn_ended");
    await until(() => shown(c.editor.updates(sessionId)).text.includes("word59"), 20_000);
    expect(shown(c.editor.updates(sessionId)).text.replace(/\s+/g, " ")).toContain(text);
    await until(() => readStoredSession(kit.home, sessionId).types.includes("turn_ended"), 10_000);

    // A later window sees the finished turn, not an interrupted one.
    const d = await kit.window(model);
    await d.acp.request(methods.agent.session.load, { sessionId, cwd: kit.cwd, mcpServers: [] });
    const replay = shown(d.editor.updates(sessionId)).text;
    expect(replay).toContain(text);
    expect(replay).not.toMatch(/interrupted/i);
    model.reply({ text: "Still here." });
    expect((await d.prompt(sessionId, "go on")).stopReason).toBe("end_turn");
    expect(c.agent.violations).toEqual([]);
  });

  it('on_client_gone = "cancel": a window killed mid-turn cancels its turn', async () => {
    const { model, kit } = await setup('on_client_gone = "cancel"\n');
    const a = await kit.window(model);
    const { sessionId } = await a.acp.request(methods.agent.session.new, { cwd: kit.cwd, mcpServers: [] });
    model.reply({ text: slowText(60), chunkSize: 6, delayMs: 40 });
    void a.prompt(sessionId, "talk slowly").catch(() => undefined);
    await until(() => shown(a.editor.updates(sessionId)).text.includes("word3"), 20_000);
    a.agent.child.kill("SIGKILL");
    await until(() => readStoredSession(kit.home, sessionId).types.includes("turn_ended"), 10_000);
    expect(readStoredSession(kit.home, sessionId).text).not.toContain("word59");
  });

  it("a daemon that cannot start: the window is served in-process at once, and the editor is told why", async () => {
    const { model, kit } = await daemonTest({ topToml: 'harness = "no-such-harness"\n' });
    const started = Date.now();
    const a = await kit.window(model);
    // Not the 15 s a silent daemon would cost: the proxy saw it exit.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(a.agent.stderr()).toMatch(/the daemon failed to start.*serving this window in-process/);
    await expect(a.acp.request(methods.agent.session.new, { cwd: kit.cwd, mcpServers: [] })).rejects.toThrow(
      /unknown harness "no-such-harness"/,
    );
  });

  it("the daemon exits after its idle time once the last window left", async () => {
    const { model, kit } = await setup();
    const a = await kit.window(model);
    const daemon = kit.daemonPid() as number;
    a.agent.child.stdin!.end();
    expect((await a.agent.exited).code).toBe(0);
    expect(alive(daemon)).toBe(true);
    // idle_exit_secs = 2 in the kit's config.
    await until(() => !alive(daemon), 10_000);
    expect(kit.daemonPid()).toBeUndefined();
  });
});
