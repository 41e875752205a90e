import { methods } from "@agentclientprotocol/sdk";
import { afterEach, expect, it } from "vitest";
import { SUMMARY_PREFIX } from "../src/sessions/compaction.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess } from "./support/in-process.js";

let model: FakeModel;
let oi: InProcessAgent;
afterEach(async () => {
  await oi?.close();
  await model?.close();
});

type Body = { messages: Array<{ role: string; content: unknown; tool_calls?: unknown[] }> };

it("/compact replaces the history the model sees with a summary, keeps it in the store, and replays it", async () => {
  model = await startFakeModel();
  oi = await startInProcess({ model, configToml: 'mode = "full-access"\n' });
  const { sessionId, cwd } = await oi.newSession();
  model.reply(
    { toolCalls: [{ id: "c1", name: "shell_command", arguments: { command: "echo step-one" } }] },
    { text: "did step one" },
  );
  await oi.prompt(sessionId, "do step one");

  model.reply({
    text: "User wants steps done. Step one ran (echo step-one). Next: step two.",
    expect: (body) => {
      const last = (body as Body).messages.at(-1)!;
      if (!String(last.content).startsWith("You are performing a context checkpoint"))
        throw new Error("no checkpoint prompt");
    },
  });
  await oi.prompt(sessionId, "/compact");
  expect(oi.editor.text(sessionId)).toMatch(/Compacted \d+ events into a \d+-character summary/);

  model.reply({ text: "doing step two" });
  await oi.prompt(sessionId, "now step two");
  const after = model.requests.at(-1)!.body as Body;
  const contents = after.messages.map((m) => m.content);
  expect(after.messages.some((m) => m.tool_calls)).toBe(false);
  // The recent user message stays verbatim, then the summary, then the new prompt (consecutive
  // user messages are joined into one for chat templates that insist on alternation).
  expect(contents.at(-1)).toBe(
    `do step one\n\n${SUMMARY_PREFIX}\n\nUser wants steps done. Step one ran (echo step-one). Next: step two.\n\nnow step two`,
  );
  model.assertDone();

  // Nothing was deleted: a new daemon replays the whole session, with the compaction marked.
  const home = oi.home;
  await oi.close();
  oi = await startInProcess({ model, home });
  await oi.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
  const replay = oi.editor.updates(sessionId);
  expect(replay.some((u) => u.sessionUpdate === "tool_call")).toBe(true);
  expect(oi.editor.text(sessionId)).toContain("Conversation compacted");
});

it("/compact with nothing to summarize says so without calling the model", async () => {
  model = await startFakeModel();
  oi = await startInProcess({ model });
  const { sessionId } = await oi.newSession();
  await oi.prompt(sessionId, "/compact");
  expect(oi.editor.text(sessionId)).toContain("Nothing to compact yet.");
  expect(model.requests).toHaveLength(0);
});
