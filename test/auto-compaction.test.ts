import { methods, type SessionUpdate } from "@agentclientprotocol/sdk/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { createAgentApp } from "../src/acp/agent-app.js";
import { contextWindowFor, UNKNOWN_MODEL_CONTEXT_WINDOW } from "../src/config/context-windows.js";
import { claudeCodeHarness } from "../src/harnesses/claude-code/claude-code-harness.js";
import { codexHarness } from "../src/harnesses/codex/codex-harness.js";
import { geminiCliHarness } from "../src/harnesses/gemini-cli/gemini-cli-harness.js";
import { kimiCodeHarness } from "../src/harnesses/kimi-code/kimi-code-harness.js";
import { piHarness } from "../src/harnesses/pi/pi-harness.js";
import { qwenCodeHarness } from "../src/harnesses/qwen-code/qwen-code-harness.js";
import { compactionLimit } from "../src/sessions/auto-compact-rule.js";
import { type ChatBody, type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess } from "./support/in-process.js";
import { INIT, testClient } from "./support/test-client.js";

let model: FakeModel;
let oi: InProcessAgent;
afterEach(async () => {
  await oi?.close();
  await model?.close();
});

const CHECKPOINT = "You are performing a context checkpoint";
const OLD_OUTPUT = "OLD-TOOL-OUTPUT-7f3a";

const lastText = (body: ChatBody): string => {
  const content = body.messages.at(-1)?.content;
  return typeof content === "string" ? content : JSON.stringify(content);
};
const isSummaryRequest = (body: ChatBody, prompt = CHECKPOINT) => lastText(body).includes(prompt);
const requestText = (body: ChatBody) => JSON.stringify(body.messages);

/** A first turn with one command and its output, answered with the given usage. */
async function firstTurn(sessionId: string, usage: { prompt_tokens: number }) {
  model.reply(
    {
      toolCalls: [{ name: "exec_command", arguments: { cmd: `echo ${OLD_OUTPUT}` } }],
      usage: { prompt_tokens: 2000, completion_tokens: 20 },
    },
    { text: "built it", usage: { ...usage, completion_tokens: 10 } },
  );
  expect(await oi.prompt(sessionId, "run the build")).toBe("end_turn");
}

/** A second connection to the same runtime whose editor advertises compaction updates. */
async function compactionAwareEditor() {
  const editor = testClient();
  const app = createAgentApp({ manager: oi.runtime.manager, logger: oi.runtime.logger, version: "test" });
  const connection = editor.app.connect(app);
  await connection.agent.request(methods.agent.initialize, {
    ...INIT,
    clientCapabilities: { ...INIT.clientCapabilities, session: { compaction: {} } },
  });
  return { editor, agent: connection.agent };
}

type Compaction = Extract<SessionUpdate, { sessionUpdate: "compaction_update" }>;
const compactions = (updates: SessionUpdate[]) =>
  updates.filter((u): u is Compaction => u.sessionUpdate === "compaction_update");

it("compacts before the request that would pass the threshold and keeps every event", async () => {
  model = await startFakeModel();
  oi = await startInProcess({ model, configToml: 'mode = "full-access"\nmodel_context_window = 10000\n' });
  const { sessionId, cwd } = await oi.newSession();
  // The last request of turn 1 reports 9,200 prompt tokens: over Codex's 90 % of 10,000.
  await firstTurn(sessionId, { prompt_tokens: 9200 });

  const aware = await compactionAwareEditor();
  await aware.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
  aware.editor.clear();
  model.reply(
    {
      text: "The user wants a build, then a deploy. The build ran. SUMMARY-9c1",
      expect: (body) => {
        if (!isSummaryRequest(body)) throw new Error("the first request is not the summary request");
        if (!requestText(body).includes(OLD_OUTPUT)) throw new Error("the summary request lacks the history");
      },
    },
    { text: "deployed" },
  );
  const answer = await aware.agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "now deploy" }],
  });
  expect(answer.stopReason).toBe("end_turn");
  model.assertDone();

  const sent = model.requests.at(-1)!.body;
  const text = requestText(sent);
  expect(text).toContain("SUMMARY-9c1");
  expect(text).toContain("run the build");
  expect(text).toContain("now deploy");
  expect(text).not.toContain(OLD_OUTPUT);
  expect(sent.messages.some((m: { tool_calls?: unknown }) => m.tool_calls)).toBe(false);

  // Live: in progress, then completed with the summary, before the answer.
  const live = compactions(aware.editor.updates(sessionId));
  expect(live.map((u) => u.status)).toEqual(["in_progress", "completed"]);
  expect(live[0]!.compactionId).toBe(live[1]!.compactionId);
  expect(JSON.stringify(live[1]!.summary)).toContain("SUMMARY-9c1");

  // Nothing was deleted: the store still has the command and its output.
  const stored = oi.runtime.store.events(sessionId).map((e) => e.event);
  expect(stored.some((e) => e.type === "tool_result" && e.output.includes(OLD_OUTPUT))).toBe(true);
  const compaction = stored.find((e) => e.type === "compaction");
  expect(compaction).toMatchObject({ reason: "threshold", id: live[0]!.compactionId });

  // Replay: an editor with compaction support gets the update, one without gets a line of text.
  const again = await compactionAwareEditor();
  await again.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
  const replayed = again.editor.updates(sessionId);
  expect(replayed.some((u) => u.sessionUpdate === "tool_call")).toBe(true);
  expect(compactions(replayed)).toMatchObject([{ status: "completed", compactionId: live[0]!.compactionId }]);
  oi.editor.clear();
  await oi.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
  expect(oi.editor.text(sessionId)).toContain("Conversation compacted");
  expect(compactions(oi.editor.updates(sessionId))).toEqual([]);
});

describe("each harness keeps its original's threshold", () => {
  it("limits by harness and window", () => {
    const limit = (rule: typeof codexHarness.compaction, window: number) => compactionLimit({ rule, window });
    expect(limit(codexHarness.compaction, 200_000)).toBe(180_000);
    expect(limit(kimiCodeHarness.compaction, 200_000)).toBe(150_000);
    expect(limit(kimiCodeHarness.compaction, 262_144)).toBe(212_144);
    expect(limit(geminiCliHarness.compaction, 200_000)).toBe(100_000);
    expect(limit(claudeCodeHarness.compaction, 200_000)).toBe(167_000);
    expect(limit(qwenCodeHarness.compaction, 262_144)).toBe(222_822);
    expect(limit(piHarness.compaction, 200_000)).toBe(183_616);
    // A reserve larger than half a small window is capped there instead of compacting every request.
    expect(limit(kimiCodeHarness.compaction, 32_768)).toBe(16_384);
    expect(limit(undefined, 32_768)).toBe(29_491);
    expect(compactionLimit({ rule: geminiCliHarness.compaction, window: 200_000, configured: 1234 })).toBe(
      1234,
    );
  });

  it("knows the windows of well-known models and stays small for unknown ones", () => {
    expect(contextWindowFor("Qwen/Qwen3-Coder-480B-A35B-Instruct")).toBe(262_144);
    expect(contextWindowFor("moonshotai/kimi-k2-0905-preview")).toBe(262_144);
    expect(contextWindowFor("kimi-k2-0711-preview")).toBe(131_072);
    expect(contextWindowFor("zai-org/GLM-4.6")).toBe(202_752);
    expect(contextWindowFor("deepseek-chat")).toBe(131_072);
    expect(contextWindowFor("openai/gpt-oss-120b")).toBe(131_072);
    expect(contextWindowFor("gpt-5-codex")).toBe(272_000);
    expect(contextWindowFor("gemini-2.5-pro")).toBe(1_048_576);
    expect(contextWindowFor("claude-sonnet-4-5")).toBe(200_000);
    expect(contextWindowFor("devstral-small-2505")).toBe(131_072);
    expect(contextWindowFor("my-finetune")).toBe(UNKNOWN_MODEL_CONTEXT_WINDOW);
    expect(contextWindowFor("deepseek-chat", 64_000)).toBe(64_000);
  });

  it("compacts under Gemini CLI and Kimi Code where Codex does not", async () => {
    model = await startFakeModel();
    oi = await startInProcess({ model, configToml: 'mode = "full-access"\nmodel_context_window = 200000\n' });
    // 160k of 200k: under Codex's 180k, over Kimi Code's 150k and Gemini CLI's 100k.
    const cases = [
      { harness: "codex", compacts: false },
      { harness: "kimi-code", compacts: true, prompt: "handoff note" },
      { harness: "gemini-cli", compacts: true, prompt: "<state_snapshot>" },
    ];
    for (const c of cases) {
      const { sessionId } = await oi.newSession();
      await oi.agent.request(methods.agent.session.setConfigOption, {
        sessionId,
        configId: "harness",
        value: c.harness,
      });
      const call =
        c.harness === "codex"
          ? { name: "exec_command", arguments: { cmd: "echo hi" } }
          : {
              name: c.harness === "kimi-code" ? "Bash" : "run_shell_command",
              arguments: { command: "echo hi" },
            };
      model.reply({ toolCalls: [call] }, { text: "done", usage: { prompt_tokens: 160_000 } });
      await oi.prompt(sessionId, "first");
      if (c.compacts) {
        model.reply({
          text: `summary for ${c.harness}`,
          expect: (body) => {
            if (!requestText(body).includes(c.prompt!))
              throw new Error(`not ${c.harness}'s compaction prompt`);
          },
        });
      }
      model.reply({ text: "second answer" });
      expect(await oi.prompt(sessionId, "second")).toBe("end_turn");
      model.assertDone();
      const compacted = oi.runtime.store.events(sessionId).some((e) => e.event.type === "compaction");
      expect({ harness: c.harness, compacted }).toEqual({ harness: c.harness, compacted: c.compacts });
    }
  });
});

describe("a request that overflows is compacted and sent once more", () => {
  async function sessionWithHistory() {
    model = await startFakeModel();
    oi = await startInProcess({ model, configToml: 'mode = "full-access"\n' });
    const { sessionId } = await oi.newSession();
    await firstTurn(sessionId, { prompt_tokens: 100 });
    return sessionId;
  }
  const summary = {
    text: "SUMMARY-after-overflow",
    expect: (b: ChatBody) => void check(isSummaryRequest(b)),
  };
  const check = (ok: boolean) => {
    if (!ok) throw new Error("expected the summary request");
  };
  const retried = (b: ChatBody) => {
    if (!requestText(b).includes("SUMMARY-after-overflow") || requestText(b).includes(OLD_OUTPUT))
      throw new Error("the retry does not carry the summary in place of the old history");
  };

  it("an answer cut by max_tokens", async () => {
    const sessionId = await sessionWithHistory();
    model.reply({ text: "a very long answer that got cu", finishReason: "length" }, summary, {
      text: "a complete answer",
      expect: retried,
    });
    expect(await oi.prompt(sessionId, "explain everything")).toBe("end_turn");
    model.assertDone();
    const stored = oi.runtime.store.events(sessionId).map((e) => e.event);
    expect(stored.find((e) => e.type === "compaction")).toMatchObject({ reason: "max_tokens" });
  });

  it("a tool call cut by max_tokens is never run", async () => {
    const sessionId = await sessionWithHistory();
    model.reply(
      {
        toolCalls: [{ name: "exec_command", arguments: '{"cmd": "touch half-writ' }],
        finishReason: "length",
      },
      summary,
      { text: "done without it", expect: retried },
    );
    expect(await oi.prompt(sessionId, "make a file")).toBe("end_turn");
    model.assertDone();
    const calls = oi.runtime.store.events(sessionId).filter((e) => e.event.type === "tool_call");
    expect(calls).toHaveLength(1);
  });

  const tooLong = {
    status: 400,
    body: {
      error: {
        message: "This model's maximum context length is 32768 tokens. However, you requested 40000 tokens.",
        type: "invalid_request_error",
        code: "context_length_exceeded",
      },
    },
  };

  it("a context-length error from the endpoint", async () => {
    const sessionId = await sessionWithHistory();
    model.reply(tooLong, summary, { text: "fits now", expect: retried });
    expect(await oi.prompt(sessionId, "continue")).toBe("end_turn");
    model.assertDone();
    expect(oi.editor.text(sessionId)).toContain("fits now");
  });

  it("a summary request refused as too long is sent again with long tool outputs cut", async () => {
    model = await startFakeModel();
    oi = await startInProcess({ model, configToml: 'mode = "full-access"\n' });
    const { sessionId } = await oi.newSession();
    const command = `node -e "process.stdout.write('BIG-START ' + 'y'.repeat(30000) + ' BIG-END')"`;
    const clipped = (b: ChatBody) => {
      check(isSummaryRequest(b));
      const text = requestText(b);
      if (
        !text.includes("BIG-START") ||
        !text.includes("characters omitted") ||
        text.includes("y".repeat(3000))
      )
        throw new Error("the retried summary request does not carry the output cut to head and tail");
    };
    model.reply(
      { toolCalls: [{ name: "exec_command", arguments: { cmd: command } }] },
      tooLong,
      { ...tooLong, expect: (b) => check(requestText(b).includes("y".repeat(3000))) },
      { ...summary, expect: clipped },
      { text: "fits now", expect: retried },
    );
    expect(await oi.prompt(sessionId, "print the big thing")).toBe("end_turn");
    model.assertDone();
    const stored = oi.runtime.store.events(sessionId).map((e) => e.event);
    expect(stored.find((e) => e.type === "compaction")).toMatchObject({ reason: "context_length" });
  });

  it("a second context-length error ends the turn with a clear error, without looping", async () => {
    const sessionId = await sessionWithHistory();
    model.reply(tooLong, summary, tooLong);
    await expect(oi.prompt(sessionId, "continue")).rejects.toThrow(/still too long .* after compacting/);
    model.assertDone();
    const stored = oi.runtime.store.events(sessionId).map((e) => e.event);
    expect(stored.filter((e) => e.type === "compaction")).toHaveLength(1);
    expect(stored.at(-1)).toMatchObject({ type: "turn_ended", stopReason: null });
  });
});

it("records each summary request in the ledger: usage events, /usage, usage_update and cost", async () => {
  model = await startFakeModel();
  const prices = '[model_prices."mock-model"]\ninput = 2.0\noutput = 8.0\n';
  oi = await startInProcess({
    model,
    configToml: `mode = "full-access"\nmodel_context_window = 10000\n${prices}`,
  });
  const { sessionId } = await oi.newSession();
  await firstTurn(sessionId, { prompt_tokens: 9200 });
  oi.editor.clear();
  model.reply(
    { text: "SUMMARY-ledger", usage: { prompt_tokens: 3000, completion_tokens: 200 } },
    { text: "deployed", usage: { prompt_tokens: 900, completion_tokens: 10 } },
  );
  expect(await oi.prompt(sessionId, "now deploy")).toBe("end_turn");
  // `/compact` outside a turn is recorded too.
  model.reply({ text: "SUMMARY-manual", usage: { prompt_tokens: 1000, completion_tokens: 100 } });
  await oi.prompt(sessionId, "/compact");
  model.assertDone();

  const stored = oi.runtime.store.events(sessionId).map((e) => e.event);
  const usage = stored.filter((e) => e.type === "usage");
  // Two requests in turn 1, the summary and the answer in turn 2, then the /compact summary.
  expect(usage).toHaveLength(5);
  const summaries = usage.filter((e) => e.purpose === "compaction");
  expect(summaries).toMatchObject([
    { inputTokens: 3000, outputTokens: 200, model: "mock-model", harness: "codex", provider: "openai" },
    { inputTokens: 1000, outputTokens: 100 },
  ]);
  expect(summaries[0]?.latencyMs).toBeGreaterThanOrEqual(0);
  // Each summary's usage is committed just before its compaction event, inside the running turn.
  const at = stored.indexOf(summaries[0]!);
  expect(stored[at + 1]).toMatchObject({ type: "compaction", reason: "threshold" });
  const turn2 = stored.filter((e) => e.type === "turn_started")[1];
  expect(summaries[0]?.turnId).toBe(turn2?.type === "turn_started" ? turn2.turnId : "");

  // The cost includes the summary requests: 3000 × 2 + 200 × 8 per million for the first.
  const cost = (tokens: { inputTokens: number; outputTokens: number }) =>
    (tokens.inputTokens * 2 + tokens.outputTokens * 8) / 1e6;
  expect(summaries[0]?.cost).toBeCloseTo(cost(summaries[0]!), 12);
  const total = usage.reduce((sum, e) => sum + cost(e), 0);
  expect(usage.at(-1)?.sessionCost).toBeCloseTo(total, 12);

  // The editor's usage_update after the compaction carries the cost with it, and its context
  // meter drops below the 9,200 tokens of the last request before it.
  const updates = oi.editor.updates(sessionId).filter((u) => u.sessionUpdate === "usage_update");
  expect(updates).toHaveLength(3);
  expect(updates[0]).toMatchObject({ cost: { currency: "USD" } });
  expect((updates[0] as { used: number }).used).toBeLessThan(9200);

  oi.editor.clear();
  await oi.prompt(sessionId, "/usage");
  const text = oi.editor.text(sessionId);
  expect(text).toContain("Model requests: 5");
  expect(text).toContain(`Of which compaction: 2 requests, 4300 tokens`);
  // `interpreter usage` reads the same ledger.
  const [byModel] = oi.runtime.store.usage({ by: "model" });
  expect(byModel).toMatchObject({ key: "mock-model", requests: 5, priced: 5 });
  expect(byModel?.cost).toBeCloseTo(total, 12);
});
