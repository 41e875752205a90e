import { methods } from "@agentclientprotocol/sdk/unstable";
import { describe, expect, it } from "vitest";
import { readStoredSession, shown } from "./reliability/support/protocol-db.js";
import { daemonTest, slowText } from "./support/daemon-kit.js";
import { until } from "./support/in-process.js";

/** The terminal chat on the shared daemon (`--daemon`): its sessions are the editors' too, live. */
describe("interpreter chat --daemon", () => {
  it("a chat's running session is listed in an editor window and loaded there, its turn followed live", async () => {
    const { model, kit } = await daemonTest();
    const text = slowText(60);
    model.reply({ text, chunkSize: 6, delayMs: 40 });
    // Lines on stdin, as from a script: the chat's plain line mode (the screen is not the subject).
    const chat = kit.command(model, ["chat", "--daemon"]);
    chat.child.stdin?.write("talk slowly\n");

    const window = await kit.window(model);
    const listed = async () =>
      (await window.acp.request(methods.agent.session.list, { cwd: kit.cwd })).sessions.map(
        (s) => s.sessionId,
      );
    const deadline = Date.now() + 20_000;
    let ids = await listed();
    while (ids.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      ids = await listed();
    }
    expect(ids).toHaveLength(1);
    const sessionId = ids[0] as string;
    await until(() => readStoredSession(kit.home, sessionId).types.includes("user_message"), 20_000);

    await window.acp.request(methods.agent.session.load, { sessionId, cwd: kit.cwd, mcpServers: [] });
    // Still running in the daemon: the rest of the chat's turn reaches the editor live.
    expect(readStoredSession(kit.home, sessionId).types).not.toContain("turn_ended");
    await until(() => shown(window.editor.updates(sessionId)).text.includes("word59"), 20_000);
    expect(shown(window.editor.updates(sessionId)).text.replace(/\s+/g, " ")).toContain(text);
    // The editor carries the session on.
    model.reply({ text: "Continued in the editor." });
    expect((await window.prompt(sessionId, "go on")).stopReason).toBe("end_turn");

    chat.child.stdin?.end();
    expect((await chat.exited).code).toBe(0);
    expect(chat.out.stderr).not.toMatch(/in-process/);
    expect(window.agent.violations).toEqual([]);
  });
});
