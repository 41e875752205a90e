import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createProvider } from "../src/providers/create-provider.js";
import type { ModelRequest } from "../src/providers/model-request.js";
import type { ModelEndpoint, ProviderEvent } from "../src/providers/types.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";

const user = (text: string) => ({ role: "user" as const, content: [{ type: "text" as const, text }] });
const shell = {
  type: "function" as const,
  name: "shell",
  description: "Run a command",
  parameters: { type: "object", properties: { cmd: { type: "string" } } },
  strict: false,
};
const patch = {
  type: "custom" as const,
  name: "apply_patch",
  description: "Apply a patch",
  format: { type: "grammar" as const, syntax: "lark" as const, definition: "start: /.+/" },
};

let model: FakeModel;
let endpoint: ModelEndpoint;

beforeEach(async () => {
  model = await startFakeModel({ strictOpenAI: true });
  endpoint = {
    providerId: "openai",
    baseUrl: model.url,
    apiKey: "sk-test",
    model: "gpt-5.5",
    wire: "responses",
    maxRetries: 0,
  };
});
afterEach(async () => {
  await model.close();
});

async function stream(request: ModelRequest, ep: ModelEndpoint = endpoint): Promise<ProviderEvent[]> {
  const out: ProviderEvent[] = [];
  for await (const event of createProvider(ep).stream(request, { signal: new AbortController().signal }))
    out.push(event);
  return out;
}
const text = (events: ProviderEvent[], type: "text" | "reasoning") =>
  events.map((e) => (e.type === type ? e.text : "")).join("");
const calls = (events: ProviderEvent[]) => events.flatMap((e) => (e.type === "tool_calls" ? e.calls : []));

describe("responses provider", () => {
  it("streams a text reply; the request is stateless Codex-style and goes to /v1/responses", async () => {
    model.reply({
      text: "Hello from Responses",
      chunkSize: 4,
      usage: { prompt_tokens: 2000, completion_tokens: 9, cached_tokens: 1536, reasoning_tokens: 3 },
    });
    const events = await stream({
      system: [
        { type: "text", text: "You are Codex." },
        { type: "text", text: "Be brief." },
      ],
      messages: [user("hi")],
      tools: [shell],
      knobs: { promptCacheKey: "thread-1", maxTokens: 500 },
    });
    expect(text(events, "text")).toBe("Hello from Responses");
    expect(events.filter((e) => e.type === "text").length).toBeGreaterThan(1);
    expect(events.find((e) => e.type === "usage")).toEqual({
      type: "usage",
      usage: { inputTokens: 2000, outputTokens: 9, cachedInputTokens: 1536, reasoningTokens: 3 },
    });
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "stop" });
    const sent = model.requests[0]!;
    expect(sent.path).toBe("/v1/responses");
    expect(sent.headers.authorization).toBe("Bearer sk-test");
    expect(sent.body).toEqual({
      model: "gpt-5.5",
      instructions: "You are Codex.\n\nBe brief.",
      input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] }],
      tools: [
        {
          type: "function",
          name: "shell",
          description: "Run a command",
          parameters: shell.parameters,
          strict: false,
        },
      ],
      tool_choice: "auto",
      parallel_tool_calls: true,
      store: false,
      include: ["reasoning.encrypted_content"],
      prompt_cache_key: "thread-1",
      max_output_tokens: 500,
      stream: true,
    });
    model.assertDone();
  });

  it("round-trips a function call: the call and its output go back as items", async () => {
    model.reply(
      { toolCalls: [{ id: "call_1", name: "shell", arguments: { cmd: "ls" } }] },
      {
        text: "done",
        expect: (body) =>
          expect(body.input.slice(1)).toEqual([
            { type: "function_call", call_id: "call_1", name: "shell", arguments: '{"cmd":"ls"}' },
            { type: "function_call_output", call_id: "call_1", output: "a.txt" },
          ]),
      },
    );
    const first = await stream({ system: [], messages: [user("list")], tools: [shell] });
    expect(calls(first)).toEqual([{ id: "call_1", name: "shell", arguments: '{"cmd":"ls"}' }]);
    expect(first.at(-1)).toEqual({ type: "done", finishReason: "tool_calls" });
    const [call] = calls(first);
    const second = await stream({
      system: [],
      messages: [
        user("list"),
        {
          role: "assistant",
          content: [{ type: "tool_call", id: call!.id, name: call!.name, arguments: call!.arguments }],
        },
        { role: "tool", callId: call!.id, content: [{ type: "text", text: "a.txt" }] },
      ],
      tools: [shell],
    });
    expect(text(second, "text")).toBe("done");
    model.assertDone();
  });

  it("a custom tool call arrives as {input: raw} and goes back as custom_tool_call with its raw input", async () => {
    const raw = "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch";
    model.reply(
      { toolCalls: [{ id: "call_p", name: "apply_patch", arguments: raw, custom: true }], chunkSize: 7 },
      {
        text: "patched",
        expect: (body) => {
          expect(body.tools[0]).toEqual({
            type: "custom",
            name: "apply_patch",
            description: "Apply a patch",
            format: patch.format,
          });
          expect(body.input.slice(1)).toEqual([
            { type: "custom_tool_call", call_id: "call_p", name: "apply_patch", input: raw },
            { type: "custom_tool_call_output", call_id: "call_p", output: "Success" },
          ]);
        },
      },
    );
    const first = await stream({ system: [], messages: [user("patch it")], tools: [patch] });
    expect(calls(first)).toEqual([
      { id: "call_p", name: "apply_patch", arguments: JSON.stringify({ input: raw }) },
    ]);
    await stream({
      system: [],
      messages: [
        user("patch it"),
        { role: "assistant", content: [{ type: "tool_call", ...calls(first)[0]! }] },
        { role: "tool", callId: "call_p", content: [{ type: "text", text: "Success" }] },
      ],
      tools: [patch],
    });
    model.assertDone();
  });

  it("reasoning: summary streams as reasoning, the encrypted item comes back once before done and is sent back", async () => {
    model.reply({ reasoning: "Plan the answer.", encryptedReasoning: "gAAAA-secret-chain", text: "42" });
    const events = await stream({
      system: [],
      messages: [user("answer")],
      tools: [],
      knobs: { reasoning: { effort: "high", summary: "auto" } },
    });
    expect(text(events, "reasoning")).toBe("Plan the answer.");
    const continuations = events.filter((e) => e.type === "continuation");
    expect(continuations).toHaveLength(1);
    expect(events.findIndex((e) => e.type === "continuation")).toBeLessThan(
      events.findIndex((e) => e.type === "done"),
    );
    const stored = continuations[0]!.type === "continuation" ? continuations[0]!.continuation : [];
    expect(stored).toEqual([
      {
        wire: "responses",
        item: expect.objectContaining({
          type: "reasoning",
          encrypted_content: "gAAAA-secret-chain",
          summary: [{ type: "summary_text", text: "Plan the answer." }],
        }),
      },
    ]);
    expect(model.requests[0]!.body.reasoning).toEqual({ effort: "high", summary: "auto" });

    model.reply({
      text: "ok",
      expect: (body) => {
        expect(body.input[1]).toEqual(stored[0]!.wire === "responses" ? stored[0]!.item : undefined);
        expect(body.input[2]).toEqual({
          type: "message",
          role: "assistant",
          content: [{ type: "output_text", text: "42" }],
        });
        // Another wire's continuation is not readable here and is left out.
        expect(JSON.stringify(body.input)).not.toContain("sig-from-anthropic");
      },
    });
    await stream({
      system: [],
      messages: [
        user("answer"),
        {
          role: "assistant",
          content: [
            {
              type: "reasoning",
              text: "Plan the answer.",
              continuation: [
                ...stored,
                { wire: "messages", block: { type: "thinking", signature: "sig-from-anthropic" } },
              ],
            },
            { type: "text", text: "42" },
          ],
        },
        user("thanks"),
      ],
      tools: [],
    });
    model.assertDone();
  });

  it("takes reasoning settings from the endpoint unless the request has its own, and merges the extra body last", async () => {
    model.reply({
      text: "a",
      expect: (body) => expect(body.reasoning).toEqual({ effort: "low", summary: "concise" }),
    });
    await stream(
      { system: [], messages: [user("x")], tools: [] },
      { ...endpoint, reasoning: { effort: "low", summary: "concise" } },
    );
    model.reply({
      text: "b",
      expect: (body) => expect(body).toMatchObject({ text: { verbosity: "low" }, service_tier: "flex" }),
    });
    await stream(
      {
        system: [],
        messages: [user("x")],
        tools: [],
        knobs: { extra: { responses: { text: { verbosity: "low" } } } },
      },
      { ...endpoint, extraBody: { service_tier: "flex" } },
    );
    model.assertDone();
  });

  it("an answer cut at max_output_tokens ends with finish length; a request without tools has no tool fields", async () => {
    model.reply({
      text: "partial",
      finishReason: "length",
      // No tools: no tool fields either.
      expect: (body) => expect(Object.keys(body)).not.toContain("tool_choice"),
    });
    const events = await stream({ system: [], messages: [user("long")], tools: [], knobs: { maxTokens: 5 } });
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "length" });
  });

  it("response.failed with context_length_exceeded → context_length; an error event → an error", async () => {
    const failed = (error: object) =>
      JSON.stringify({
        type: "response.failed",
        sequence_number: 1,
        response: { id: "r", status: "failed", error },
      });
    model.reply(
      {
        raw: [
          failed({
            code: "context_length_exceeded",
            message: "Your input exceeds the context window of this model.",
          }),
        ],
      },
      {
        raw: [
          JSON.stringify({
            type: "error",
            sequence_number: 0,
            code: "server_error",
            message: "The server had an error",
          }),
        ],
      },
    );
    const overflow = (await stream({ system: [], messages: [user("x")], tools: [] })).at(-1);
    expect(overflow?.type === "error" && overflow.error.code).toBe("context_length");
    const broken = (await stream({ system: [], messages: [user("x")], tools: [] })).at(-1);
    expect(broken?.type === "error" && broken.error.message).toContain("The server had an error");
    model.assertDone();
  });

  it("the strict fake catches a tool output sent without its call", async () => {
    model.reply({ text: "?" });
    await stream({
      system: [],
      messages: [user("x"), { role: "tool", callId: "nobody", content: [{ type: "text", text: "orphan" }] }],
      tools: [],
    });
    expect(() => model.assertDone()).toThrow(/answers no open call \(nobody\)/);
  });
});
