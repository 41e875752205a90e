import type { SessionUpdate } from "@agentclientprotocol/sdk/unstable";
import { methods } from "@agentclientprotocol/sdk/unstable";
import { describe, expect, it } from "vitest";
import { readStoredSession, shown } from "./reliability/support/protocol-db.js";
import { alive, daemonTest, slowText } from "./support/daemon-kit.js";
import { until } from "./support/in-process.js";

/** The daemon dying under its windows: they tell their editor, start a new one, and go on. */
const notice = (u: SessionUpdate) =>
  (u as { _meta?: Record<string, unknown> })._meta?.["openinterpreter/notice"] !== undefined;
/** What the model said as the editor showed it, without our notices. */
const modelText = (updates: SessionUpdate[]) => shown(updates.filter((u) => !notice(u))).text;

describe("the daemon killed under its windows", () => {
  it("kill -9 mid-turn: the editor gets an error and a notice, the window goes on with a new daemon, nothing shown is lost", async () => {
    const { model, kit } = await daemonTest();
    const a = await kit.window(model);
    const { sessionId } = await a.acp.request(methods.agent.session.new, { cwd: kit.cwd, mcpServers: [] });
    model.reply({ text: "A first answer." });
    expect((await a.prompt(sessionId, "first")).stopReason).toBe("end_turn");

    model.reply({ text: slowText(80), chunkSize: 6, delayMs: 40 });
    const turn = a.prompt(sessionId, "talk slowly").catch((error: unknown) => error);
    await until(() => modelText(a.editor.updates(sessionId)).includes("word5"), 20_000);
    const first = kit.daemonPid() as number;
    process.kill(first, "SIGKILL");

    const failure = (await turn) as Error;
    expect(failure).toBeInstanceOf(Error);
    expect(failure.message).toMatch(/daemon stopped during this turn/);
    await until(() =>
      a.editor.allUpdates(sessionId).some((u) => notice(u) && JSON.stringify(u).includes("daemon stopped")),
    );
    const seen = modelText(a.editor.updates(sessionId));
    expect(a.agent.child.exitCode).toBeNull();

    // The same window, unchanged: its session was resumed in the new daemon behind its back.
    await until(() => kit.daemonPid() !== undefined && kit.daemonPid() !== first, 20_000);
    expect(alive(first)).toBe(false);
    model.reply({ text: "After the restart." });
    expect((await a.prompt(sessionId, "are you back?")).stopReason).toBe("end_turn");

    // A new window's load replays everything the first one was shown, the cut turn marked.
    const b = await kit.window(model);
    await b.acp.request(methods.agent.session.load, { sessionId, cwd: kit.cwd, mcpServers: [] });
    const replay = shown(b.editor.updates(sessionId)).text;
    expect(replay).toContain(seen);
    expect(replay).toContain("After the restart.");
    expect(replay).toMatch(/interrupted/i);
    expect(readStoredSession(kit.home, sessionId).integrity).toBe("ok");
    expect([...a.agent.violations, ...b.agent.violations]).toEqual([]);
  });

  it("a request pending when the daemon dies is answered with an error; one sent during the restart is served by the new daemon", async () => {
    const { model, kit } = await daemonTest();
    const a = await kit.window(model);
    const { sessionId } = await a.acp.request(methods.agent.session.new, { cwd: kit.cwd, mcpServers: [] });
    // A model that never answers keeps the prompt pending until the kill.
    model.reply({ text: "Thinking", hangAfterText: true });
    const turn = a.prompt(sessionId, "hang").catch((error: unknown) => error);
    await until(() => modelText(a.editor.updates(sessionId)).includes("Thinking"), 20_000);
    process.kill(kit.daemonPid() as number, "SIGKILL");
    expect(String(await turn)).toMatch(/daemon stopped/);
    const listed = await a.acp.request(methods.agent.session.list, {});
    expect(listed.sessions.map((s) => s.sessionId)).toContain(sessionId);
  });
});
