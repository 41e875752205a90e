import { methods } from "@agentclientprotocol/sdk/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { compactedView, SUMMARY_PREFIX } from "../src/sessions/compaction.js";
import type { HistoryEvent } from "../src/store/events.js";
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
    { toolCalls: [{ id: "c1", name: "exec_command", arguments: { cmd: "echo step-one" } }] },
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

it("/compact goes through the harness's own prompt and summary prefix (Kimi Code)", async () => {
  model = await startFakeModel();
  oi = await startInProcess({ model, configToml: 'mode = "full-access"\nharness = "kimi-code"\n' });
  const { sessionId } = await oi.newSession();
  model.reply({ toolCalls: [{ name: "Bash", arguments: { command: "echo one" } }] }, { text: "ran it" });
  await oi.prompt(sessionId, "run one");
  model.reply({
    text: "I ran `echo one`.",
    expect: (body) => {
      const sent = JSON.stringify(body.messages);
      if (!sent.includes("handoff note")) throw new Error("not Kimi's prompt");
      // Kimi Code asks for a free-form note; the older Kimi CLI's fixed XML sections do not belong.
      const instruction = JSON.stringify(
        (body.messages as unknown[]).find((m) => JSON.stringify(m).includes("handoff note")),
      );
      if (/<(current_focus|environment|code_state)>/.test(instruction))
        throw new Error("Kimi CLI's sections");
    },
  });
  await oi.prompt(sessionId, "/compact");
  model.reply({
    text: "ok",
    expect: (body) => {
      const sent = JSON.stringify(body.messages);
      if (!sent.includes("Earlier context was compacted") || sent.includes("tool_calls"))
        throw new Error("the summary does not replace the history with Kimi's prefix");
      // Kimi Code's prefix is plain text in front of the note, not a `<system>` status line.
      if (!sent.includes('"Earlier context was compacted')) throw new Error("the prefix is wrapped");
    },
  });
  await oi.prompt(sessionId, "next");
  model.assertDone();
  const compaction = oi.runtime.store.events(sessionId).find((e) => e.event.type === "compaction");
  expect(compaction?.event).toMatchObject({ reason: "manual", summary: "I ran `echo one`." });
});

describe("compactedView", () => {
  const user = (text: string): HistoryEvent => ({
    type: "user_message",
    turnId: "t",
    content: [{ type: "text", text }],
  });
  const compaction: HistoryEvent = { type: "compaction", summary: "S", replaced: 4 };
  const call: HistoryEvent = {
    type: "tool_result",
    turnId: "t",
    callId: "c",
    status: "completed",
    output: "OLD OUTPUT",
    display: [],
  };

  it("keeps the newest user messages within the budget, then the summary, then what came after", () => {
    const view = compactedView(
      [user("a".repeat(60)), call, user("b".repeat(30)), compaction, user("after")],
      {
        prefix: "PREFIX",
        keepUserBytes: 80,
      },
    );
    const texts = view.map((e) => (e.type === "user_message" ? String(e.content[0]?.text) : e.type));
    expect(texts).toEqual(["b".repeat(30), "PREFIX\n\nS", "after"]);
  });

  it("middle-truncates the newest user message when it alone is over the budget", () => {
    const view = compactedView([user(`HEAD${"x".repeat(5000)}TAIL`), compaction], { keepUserBytes: 1000 });
    const first = view[0];
    const kept = first?.type === "user_message" ? String(first.content[0]?.text) : "";
    expect(kept.length).toBeLessThan(1100);
    expect(kept).toMatch(/^HEAD[\s\S]*characters omitted[\s\S]*TAIL$/);
  });
});
