import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createChatProvider } from "../src/providers/openai-chat.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";

let model: FakeModel;
beforeEach(async () => {
  model = await startFakeModel();
});
afterEach(async () => {
  await model.close();
});

const post = (body: object) =>
  fetch(`${model.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** The parsed `data:` payloads of an SSE body. */
async function dataLines(response: Response): Promise<string[]> {
  const text = await response.text();
  return text
    .split("\n\n")
    .filter(Boolean)
    .map((event) => event.replace(/^data: /, ""));
}

describe("fake model", () => {
  it("streams a realistic chat-completions answer", async () => {
    model.reply({
      text: "Hi!",
      toolCalls: [{ id: "call_9", name: "ls", arguments: { dir: "src" } }],
      chunkSize: 5,
    });
    const response = await post({
      model: "m",
      messages: [],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const lines = await dataLines(response);
    expect(lines.at(-1)).toBe("[DONE]");
    const chunks = lines.slice(0, -1).map((line) => JSON.parse(line));
    expect(chunks[0].choices[0].delta).toEqual({ role: "assistant", content: "" });
    const calls = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(calls[0]).toEqual({
      index: 0,
      id: "call_9",
      type: "function",
      function: { name: "ls", arguments: "" },
    });
    expect(calls.slice(1).every((c: object) => Object.keys(c).join() === "index,function")).toBe(true);
    expect(calls.map((c) => c.function.arguments).join("")).toBe('{"dir":"src"}');
    expect(chunks.at(-2).choices[0].finish_reason).toBe("tool_calls");
    expect(chunks.at(-1).choices).toEqual([]);
    expect(chunks.at(-1).usage.prompt_tokens).toBeGreaterThan(0);
    model.assertDone();
  });

  it("sends no usage chunk unless the request asked for it", async () => {
    model.reply({ text: "Hi" });
    const lines = await dataLines(await post({ model: "m", messages: [], stream: true }));
    expect(lines.some((line) => line.includes('"usage"'))).toBe(false);
  });

  it("fails assertDone on unconsumed steps, unexpected calls and failed expectations", async () => {
    model.reply({ text: "never requested" });
    expect(() => model.assertDone()).toThrow(/1 scripted step\(s\) never requested/);

    const other = await startFakeModel();
    try {
      const extra = await fetch(`${other.url}/chat/completions`, { method: "POST", body: "{}" });
      expect(extra.status).toBe(500);
      expect(() => other.assertDone()).toThrow(/no scripted step left/);
    } finally {
      await other.close();
    }

    const third = await startFakeModel();
    try {
      third.reply({ text: "x", expect: (body) => expect(body.model).toBe("expected-model") });
      await (await fetch(`${third.url}/chat/completions`, { method: "POST", body: '{"model":"m"}' })).text();
      expect(() => third.assertDone()).toThrow(/expect failed on call #1/);
    } finally {
      await third.close();
    }
  });

  it("close() ends hanging connections at once", async () => {
    model.reply({ hang: true });
    const response = await post({ model: "m", messages: [], stream: true });
    const reading = response.text().then(
      () => "ended",
      () => "destroyed",
    );
    const started = Date.now();
    await model.close();
    expect(await reading).toBe("destroyed");
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe("chat provider: resources", () => {
  it("closes the connection when the consumer stops reading early", async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => {
      closed = resolve;
    });
    model.reply({
      handle: (_req, res) => {
        res.on("close", closed);
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "hi" } }] })}\n\n`);
        // ...and then keeps the stream open, as a model in the middle of a long answer would.
      },
    });
    const provider = createChatProvider({ providerId: "fake", baseUrl: model.url, model: "m" });
    const signal = new AbortController().signal;
    for await (const event of provider.stream({ system: [], messages: [], tools: [] }, { signal })) {
      if (event.type === "text") break;
    }
    const timeout = new Promise<string>((resolve) => setTimeout(() => resolve("still open"), 1000));
    expect(await Promise.race([connectionClosed.then(() => "closed"), timeout])).toBe("closed");
  });

  it("never imports the openai SDK eagerly (start-up stays cheap)", () => {
    const dir = join(import.meta.dirname, "../src/providers");
    for (const file of readdirSync(dir).filter((name) => name.endsWith(".ts"))) {
      const source = readFileSync(join(dir, file), "utf8");
      const eager = source.match(/^import\s+(?!type\b)[^;]*from\s+["']openai(\/[^"']*)?["']/gm);
      expect(eager, file).toBeNull();
    }
  });
});
