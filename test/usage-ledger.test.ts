import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/load-config.js";
import { ConfigError } from "../src/config/types.js";
import { requestCost } from "../src/sessions/usage-totals.js";
import { openStore } from "../src/store/open-store.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess, tempDir } from "./support/in-process.js";

let model: FakeModel;
let oi: InProcessAgent;

afterEach(async () => {
  await oi?.close();
  await model?.close();
});

const PRICES = `
[model_prices."mock-model"]
input = 2.0
cached_input = 0.5
output = 8.0
`;

describe("token and cost ledger", () => {
  it("records tokens, cost and latency per request, estimates missing usage, and reports the session cost", async () => {
    model = await startFakeModel();
    oi = await startInProcess({ model, configToml: PRICES });
    const { sessionId } = await oi.newSession();
    model.reply(
      {
        toolCalls: [{ name: "exec_command", arguments: { cmd: "echo hi" } }],
        usage: { prompt_tokens: 1000, cached_tokens: 400, completion_tokens: 100, reasoning_tokens: 30 },
      },
      // This endpoint "forgot" usage on the second request: the ledger estimates it.
      { text: "done", usage: false },
    );
    expect(await oi.prompt(sessionId, "say hi")).toBe("end_turn");

    const usage = oi.runtime.store
      .events(sessionId)
      .map((e) => e.event)
      .filter((e) => e.type === "usage");
    expect(usage).toHaveLength(2);
    const [first, second] = usage;
    // 600 uncached × 2 + 400 cached × 0.5 + 100 output × 8, per million.
    const cost = (600 * 2 + 400 * 0.5 + 100 * 8) / 1e6;
    expect(first).toMatchObject({
      inputTokens: 1000,
      cachedInputTokens: 400,
      outputTokens: 100,
      reasoningTokens: 30,
      model: "mock-model",
      harness: "codex",
      provider: "openai",
      currency: "USD",
    });
    expect(first?.cost).toBeCloseTo(cost, 12);
    expect(first?.estimated).toBeUndefined();
    expect(first?.latencyMs).toBeGreaterThanOrEqual(0);
    // Estimated: request bytes / 4 for input ("done" is 4 characters: 1 token out).
    const bytes = Buffer.byteLength(
      JSON.stringify({ tools: model.requests[1]!.body.tools, messages: model.requests[1]!.body.messages }),
    );
    // The estimate counts the wire-neutral request, within a few percent of the bytes sent.
    expect(second).toMatchObject({ estimated: true, outputTokens: 1 });
    expect(Math.abs((second?.inputTokens ?? 0) - bytes / 4)).toBeLessThan(bytes / 4 / 50);
    expect(second?.sessionCost).toBeCloseTo((first?.cost ?? 0) + (second?.cost ?? 0), 12);

    // The editor's usage_update carries the session's running cost.
    const updates = oi.editor.updates(sessionId).filter((u) => u.sessionUpdate === "usage_update");
    expect(updates).toHaveLength(2);
    expect(updates[1]).toMatchObject({ cost: { currency: "USD" } });
    expect((updates[1] as { cost: { amount: number } }).cost.amount).toBeCloseTo(
      second?.sessionCost ?? 0,
      12,
    );

    // /usage reports the same figures, and says that one request was estimated.
    oi.editor.clear();
    await oi.prompt(sessionId, "/usage");
    const text = oi.editor.text(sessionId);
    expect(text).toContain("Model requests: 2 (1 estimated");
    expect(text).toContain("cached: 400");
    expect(text).toMatch(/Cost: 0\.\d+ USD/);

    // And the store's ledger sums it across sessions.
    const [byModel] = oi.runtime.store.usage({ by: "model" });
    expect(byModel).toMatchObject({
      key: "mock-model",
      requests: 2,
      estimated: 1,
      priced: 2,
      currency: "USD",
    });
    expect(byModel?.cost).toBeCloseTo(second?.sessionCost ?? 0, 12);
    model.assertDone();
  });

  it("sends no cost and says how to set prices when the model has none", async () => {
    model = await startFakeModel();
    oi = await startInProcess({ model });
    const { sessionId } = await oi.newSession();
    model.reply({ text: "hello" });
    await oi.prompt(sessionId, "hi");
    const update = oi.editor.updates(sessionId).find((u) => u.sessionUpdate === "usage_update");
    expect(update).toBeDefined();
    expect(update).not.toHaveProperty("cost");
    await oi.prompt(sessionId, "/usage");
    expect(oi.editor.text(sessionId)).toContain('Cost: unknown (set [model_prices."mock-model"]');
    model.assertDone();
  });

  it("still reads usage rows written before the ledger fields existed", () => {
    const store = openStore({ path: path.join(tempDir("oi-ledger-"), "db.sqlite") });
    store.createSession({ id: "old", cwd: "/w", additionalDirectories: [], mcpServers: [], mode: "auto" });
    store.append("old", [
      { type: "usage", turnId: "t", inputTokens: 5, outputTokens: 2, contextUsed: 7, contextSize: 100 },
    ]);
    expect(store.events("old")[0]?.event).toMatchObject({ type: "usage", inputTokens: 5 });
    expect(store.usage({ by: "harness" })).toMatchObject([{ key: "(unrecorded)", requests: 1, priced: 0 }]);
    store.close();
  });

  it("rejects a price that is not a number, naming the key", () => {
    const home = tempDir("oi-prices-");
    const file = path.join(home, "config.toml");
    writeFileSync(file, '[model_prices."gpt-5"]\ninput = "cheap"\noutput = 1\n');
    const load = () => loadConfig({ env: { INTERPRETER_HOME: home }, userHome: home });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/model_prices\.gpt-5\.input: expected a non-negative number .*got "cheap"/);
  });
});

describe("cache prices", () => {
  it("bills cache reads at cached_input and Anthropic's cache writes at cache_write, the rest at input", () => {
    const price = { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15, currency: "USD" };
    const usage = {
      inputTokens: 10_000,
      cachedInputTokens: 6_000,
      cacheWriteTokens: 3_000,
      outputTokens: 1_000,
    };
    // 1,000 plain input tokens, 6,000 read from the cache, 3,000 written to it.
    expect(requestCost(usage, price)).toBeCloseTo(
      (1_000 * 3 + 6_000 * 0.3 + 3_000 * 3.75 + 1_000 * 15) / 1e6,
      12,
    );
  });
});
