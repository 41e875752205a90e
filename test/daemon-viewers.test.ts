import { methods } from "@agentclientprotocol/sdk/unstable";
import { describe, expect, it } from "vitest";
import { shown } from "./reliability/support/protocol-db.js";
import { daemonTest, slowText } from "./support/daemon-kit.js";
import { until } from "./support/in-process.js";

/**
 * Read-only windows on the shared daemon (`session/load` with `openinterpreter/readOnly`):
 * they follow the session live, turn after turn, whoever owns it, and are never asked anything.
 */
const occurrences = (text: string, word: string) => text.split(word).length - 1;

describe("a read-only window", () => {
  it("follows the running turn and later ones as updates, gets no permission request, and may not drive the session", async () => {
    const { model, kit } = await daemonTest();
    const a = await kit.window(model);
    const b = await kit.window(model);
    const { sessionId } = await a.acp.request(methods.agent.session.new, { cwd: kit.cwd, mcpServers: [] });
    const text = slowText(60);
    model.reply({ text, chunkSize: 6, delayMs: 40 });
    const first = a.prompt(sessionId, "talk slowly");
    await until(() => shown(a.editor.updates(sessionId)).text.includes("word3"), 20_000);

    const look = { sessionId, cwd: kit.cwd, mcpServers: [], _meta: { "openinterpreter/readOnly": true } };
    await b.acp.request(methods.agent.session.load, look);
    // Loaded mid-turn: the replay so far, then the rest live, nothing lost and nothing twice.
    expect(shown(b.editor.updates(sessionId)).text).not.toContain("word59");
    // Its requests stay refused, and its cancel does not stop the owner's turn.
    await expect(b.prompt(sessionId, "mine?")).rejects.toMatchObject({ code: -32002 });
    await b.acp.notify(methods.agent.session.cancel, { sessionId });
    expect((await first).stopReason).toBe("end_turn");
    await until(() => shown(b.editor.updates(sessionId)).text.includes("word59"), 20_000);
    const followed = shown(b.editor.updates(sessionId)).text.replace(/\s+/g, " ");
    expect(followed).toContain(text);
    expect(occurrences(followed, "word30 ")).toBe(1);

    // A later turn that asks: the owner is asked, the viewer sees the call and the answer only.
    await a.acp.request(methods.agent.session.setMode, { sessionId, modeId: "read-only" });
    model.reply(
      { toolCalls: [{ name: "exec_command", arguments: { cmd: "touch viewed.txt" } }] },
      { text: "All done." },
    );
    expect((await a.prompt(sessionId, "make a file")).stopReason).toBe("end_turn");
    expect(a.editor.permissions).toHaveLength(1);
    const callId = a.editor.permissions[0]?.toolCall.toolCallId;
    await until(() => shown(b.editor.updates(sessionId)).text.includes("All done."), 10_000);
    expect(b.editor.permissions).toEqual([]);
    expect(shown(b.editor.updates(sessionId)).toolCallIds).toContain(callId);

    // Another window takes the session over: the viewer follows it there, the old owner does not.
    const c = await kit.window(model);
    await c.acp.request(methods.agent.session.load, { sessionId, cwd: kit.cwd, mcpServers: [] });
    model.reply({ text: "Window C speaks." });
    expect((await c.prompt(sessionId, "from C")).stopReason).toBe("end_turn");
    await until(() => shown(b.editor.updates(sessionId)).text.includes("Window C speaks."), 10_000);
    expect(shown(a.editor.updates(sessionId)).text).not.toContain("Window C speaks.");
    await expect(b.prompt(sessionId, "still refused?")).rejects.toMatchObject({ code: -32002 });

    // The owner saw its own turns whole and was never told about the viewer.
    const owner = shown(a.editor.allUpdates(sessionId)).text;
    expect(owner.replace(/\s+/g, " ")).toContain(text);
    expect(occurrences(owner, "All done.")).toBe(1);
    expect(b.editor.notices(sessionId).map((n) => n.text)).not.toContainEqual(
      expect.stringContaining("opened in another window"),
    );
    expect([...a.agent.violations, ...b.agent.violations, ...c.agent.violations]).toEqual([]);
  });
});
