import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { methods } from "@agentclientprotocol/sdk/unstable";
import { expect } from "vitest";
import { chatRequests } from "./chat-requests.js";
import type { FakeModel } from "./fake-model.js";
import { type InProcessAgent, startInProcess } from "./in-process.js";

/** One harness's side of the round trip; its shell tool takes `{ command }`. */
export interface RoundTrip {
  model: FakeModel;
  harness: string;
  /** What `/harness` lists for it: name, pinned version, source. */
  listed: string;
  /** Its tool names as sent on the first request under it. */
  tools: string[];
  shell: string;
  /** The command its own shell call runs; the count file must read 1, 2, 3 afterwards. */
  command: string;
  /** What that call sends back to the model. */
  result: string;
}

/**
 * A session starts under Codex (one exec_command call), switches to `harness` (which sees that
 * call as its own shell call and makes one), goes back to Codex, then a new daemon replays both
 * calls and `harness` renders them again. The scripted model's requests, by index: 0-1 Codex,
 * 2-3 `harness`, 4 Codex, 5 `harness` after the restart. Owns and closes both daemons; gives
 * back the editor's text right after the replay.
 */
export async function expectRoundTrip(trip: RoundTrip): Promise<string> {
  const { model, harness, shell, command } = trip;
  const { toolNames, toolResult, calls } = chatRequests(() => model);
  let oi: InProcessAgent = await startInProcess({ model, configToml: 'mode = "full-access"\n' });
  try {
    const { sessionId, cwd } = await oi.newSession();
    writeFileSync(path.join(cwd, "count.txt"), "1\n");

    await oi.prompt(sessionId, "/harness");
    expect(oi.editor.text(sessionId)).toContain(trip.listed);

    model.reply(
      { toolCalls: [{ id: "a1", name: "exec_command", arguments: { cmd: "echo 2 >> count.txt" } }] },
      { text: "step 1" },
    );
    await oi.prompt(sessionId, "append 2");

    await oi.prompt(sessionId, `/harness ${harness}`);
    model.reply({ toolCalls: [{ id: "b1", name: shell, arguments: { command } }] }, { text: "step 2" });
    await oi.prompt(sessionId, "append 3");
    expect(toolNames(2)).toEqual(trip.tools);
    expect(calls(2)).toEqual([{ name: shell, arguments: '{"command":"echo 2 >> count.txt"}' }]);
    expect(toolResult(3, "b1")?.content).toBe(trip.result);

    await oi.prompt(sessionId, "/harness codex");
    model.reply({ text: "count.txt counts to 3" });
    await oi.prompt(sessionId, "done?");
    expect(calls(4)).toEqual([
      { name: "exec_command", arguments: '{"cmd":"echo 2 >> count.txt"}' },
      { name: "exec_command", arguments: JSON.stringify({ cmd: command }) },
    ]);
    expect(readFileSync(path.join(cwd, "count.txt"), "utf8")).toBe("1\n2\n3\n");

    const home = oi.home;
    await oi.close();
    oi = await startInProcess({ model, home });
    await oi.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    const replayed = oi.editor.updates(sessionId);
    expect(
      replayed.filter((u) => u.sessionUpdate === "tool_call").map((u) => (u as { title?: string }).title),
    ).toEqual(["echo 2 >> count.txt", command]);
    const replayedText = oi.editor.text(sessionId);
    await oi.prompt(sessionId, `/harness ${harness}`);
    model.reply({ text: "still 3" });
    await oi.prompt(sessionId, "check again");
    expect(calls(5)).toEqual([
      { name: shell, arguments: '{"command":"echo 2 >> count.txt"}' },
      { name: shell, arguments: JSON.stringify({ command }) },
    ]);
    model.assertDone();
    return replayedText;
  } finally {
    await oi.close();
  }
}
