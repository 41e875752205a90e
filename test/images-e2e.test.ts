import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { methods, type SessionUpdate } from "@agentclientprotocol/sdk/unstable";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import type { Wire } from "../src/providers/model-request.js";
import { IMAGE_OMITTED } from "../src/providers/without-images.js";
import { type ChatBody, type FakeModel, type FakeToolCall, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess, tempDir } from "./support/in-process.js";
import { TEST_SERVER } from "./support/mcp-helpers.js";
import { spawnAgent } from "./support/spawn-agent.js";
import { INIT, testClient } from "./support/test-client.js";

// An image a tool reads reaches the model in each wire's own shape (the fake wires check the
// shapes strictly), is shown in the editor, and survives a reload; a model that takes no images
// gets a text instead, and never an image part.

let model: FakeModel | undefined;
let oi: InProcessAgent | undefined;

afterEach(async () => {
  await oi?.close();
  await model?.close();
  oi = undefined;
  model = undefined;
});

/** A solid PNG of the given size: small on disk, large in pixels. */
async function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .png()
    .toBuffer();
}

async function size(base64: string): Promise<string> {
  const meta = await sharp(Buffer.from(base64, "base64")).metadata();
  return `${meta.format} ${meta.width}x${meta.height}`;
}

async function start(o: {
  harness: string;
  wire: Wire;
  model?: string;
  config?: string[];
  strictOpenAI?: boolean;
}): Promise<{ sessionId: string; cwd: string }> {
  model = await startFakeModel(o.strictOpenAI ? { strictOpenAI: true } : {});
  oi = await startInProcess({
    model,
    ...(o.model ? { cli: { model: o.model } } : {}),
    configToml: [
      `harness = "${o.harness}"`,
      'model_provider = "fake"',
      ...(o.config ?? []),
      "[model_providers.fake]",
      `base_url = "${model.url}"`,
      'env_key = "FAKE_KEY"',
      `wire_api = "${o.wire}"`,
      "",
    ].join("\n"),
    env: { FAKE_KEY: "sk-fake" },
  });
  return oi.newSession();
}

/** Runs one call and a final answer; returns the request that carried the call's result. */
async function runCall(sessionId: string, call: FakeToolCall): Promise<ChatBody> {
  model!.reply({ toolCalls: [call] }, { text: "I see it." });
  expect(await oi!.prompt(sessionId, "look at the picture")).toBe("end_turn");
  model!.assertDone();
  return model!.requests[1]!.body;
}

function imageUpdates(updates: SessionUpdate[]): Array<{ mimeType: string; data: string }> {
  return updates.flatMap((u) =>
    (u.sessionUpdate === "tool_call_update" || u.sessionUpdate === "tool_call") && u.content
      ? u.content.flatMap((c) =>
          c.type === "content" && c.content.type === "image"
            ? [{ mimeType: c.content.mimeType, data: c.content.data }]
            : [],
        )
      : [],
  );
}

describe("an image a tool reads reaches the model", () => {
  it("codex on responses: view_image as an input_image at high detail, scaled to Codex's bounds, shown and replayed", async () => {
    const { sessionId, cwd } = await start({ harness: "codex", wire: "responses" });
    writeFileSync(path.join(cwd, "shot.png"), await png(3000, 2000));
    const body = await runCall(sessionId, { id: "v1", name: "view_image", arguments: { path: "shot.png" } });
    const output = body.input.find((item: ChatBody) => item.type === "function_call_output").output;
    expect(output).toHaveLength(1);
    expect(output[0]).toMatchObject({ type: "input_image", detail: "high" });
    const [, data] = /^data:image\/png;base64,(.+)$/.exec(output[0].image_url) ?? [];
    // Measured on Codex 0.171.0: 3000 × 2000 goes as 1920 × 1280 (2400 patches of 32 px).
    expect(await size(data!)).toBe("png 1920x1280");

    const shown = imageUpdates(oi!.editor.updates(sessionId));
    expect(shown).toEqual([{ mimeType: "image/png", data }]);

    const home = oi!.home;
    await oi!.close();
    oi = await startInProcess({ model: model!, home, env: { FAKE_KEY: "sk-fake" } });
    await oi.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    expect(imageUpdates(oi.editor.updates(sessionId))).toEqual([{ mimeType: "image/png", data }]);
    // The next request after the reload still shows the model the image.
    model!.reply({ text: "still there" });
    await oi.prompt(sessionId, "and now?");
    const again = model!.requests[2]!.body.input.find(
      (item: ChatBody) => item.type === "function_call_output",
    );
    expect(again.output[0].image_url).toBe(output[0].image_url);
    model!.assertDone();
  });

  it("codex with a gpt-5 model: the file as it is, at original detail", async () => {
    const { sessionId, cwd } = await start({ harness: "codex", wire: "responses", model: "gpt-5.5" });
    const file = await png(3000, 2000);
    writeFileSync(path.join(cwd, "shot.png"), file);
    const body = await runCall(sessionId, { id: "v1", name: "view_image", arguments: { path: "shot.png" } });
    const output = body.input.find((item: ChatBody) => item.type === "function_call_output").output;
    expect(output).toEqual([
      {
        type: "input_image",
        image_url: `data:image/png;base64,${file.toString("base64")}`,
        detail: "original",
      },
    ]);
  });

  it("claude-code on messages: Read of an image is one image block, fitted into 2000 × 2000", async () => {
    const { sessionId, cwd } = await start({
      harness: "claude-code",
      wire: "messages",
      model: "claude-sonnet-4-5",
    });
    const file = path.join(cwd, "wide.png");
    writeFileSync(file, await png(2400, 1200));
    const body = await runCall(sessionId, { id: "toolu_1", name: "Read", arguments: { file_path: file } });
    const result = body.messages
      .flatMap((m: ChatBody) => (Array.isArray(m.content) ? m.content : []))
      .find((block: ChatBody) => block.type === "tool_result");
    expect(result.content).toHaveLength(1);
    expect(result.content[0]).toMatchObject({
      type: "image",
      source: { type: "base64", media_type: "image/png" },
    });
    expect(await size(result.content[0].source.data)).toBe("png 2000x1000");
    expect(result.is_error).toBeUndefined();
  });

  it("claude-code on strict Chat: the tool message holds text only and the image follows as a user message", async () => {
    const { sessionId, cwd } = await start({ harness: "claude-code", wire: "chat", strictOpenAI: true });
    const file = path.join(cwd, "tiny.png");
    const bytes = await png(4, 3);
    writeFileSync(file, bytes);
    const body = await runCall(sessionId, { id: "call_1", name: "Read", arguments: { file_path: file } });
    const at = body.messages.findIndex((m: ChatBody) => m.role === "tool");
    expect(typeof body.messages[at].content).toBe("string");
    expect(body.messages[at + 1]).toEqual({
      role: "user",
      content: [
        { type: "image_url", image_url: { url: `data:image/png;base64,${bytes.toString("base64")}` } },
      ],
    });
  });

  it("kimi-code on chat: ReadMediaFile as Kimi's parts inside the tool message, downsampled with its note", async () => {
    const { sessionId, cwd } = await start({ harness: "kimi-code", wire: "chat", model: "kimi-for-coding" });
    const file = path.join(cwd, "big.png");
    writeFileSync(file, await png(4000, 3000));
    const body = await runCall(sessionId, {
      id: "call_1",
      name: "ReadMediaFile",
      arguments: { path: "big.png" },
    });
    const tool = body.messages.find((m: ChatBody) => m.role === "tool");
    expect(tool.content.map((part: ChatBody) => part.type)).toEqual(["text", "image_url", "text", "text"]);
    expect(tool.content[0].text).toBe(`<image path="${file}">`);
    expect(tool.content[2].text).toBe("</image>");
    const [, mime, data] = /^data:(image\/\w+);base64,(.+)$/.exec(tool.content[1].image_url.url) ?? [];
    expect(mime).toBe("image/png");
    expect(await size(data!)).toBe("png 2000x1500");
    expect(tool.content[3].text).toMatch(
      /^<system>Read image file\. Mime type: image\/png\. Size: \d+ bytes\. Original dimensions: 4000x3000 pixels\. The attached image was downsampled to 2000x1500 pixels \(image\/png, \d+ (B|KB)\) to fit model limits; fine detail may be lost\. To inspect fine detail, call ReadMediaFile again with the region parameter/,
    );
    // The user message after the results is Kimi's own auto-mode reminder, not our image copy.
    expect(body.messages.filter((m: ChatBody) => m.role === "user" && Array.isArray(m.content))).toEqual([]);
  });

  it("an MCP tool's image goes to the model and the editor, between its texts", async () => {
    const started = await start({ harness: "codex", wire: "responses" });
    const { sessionId } = await oi!.agent.request(methods.agent.session.new, {
      cwd: started.cwd,
      mcpServers: [{ name: "pics", command: process.execPath, args: [TEST_SERVER], env: [] }],
    });
    const body = await runCall(sessionId, { id: "m1", name: "mcp__pics__snapshot", arguments: {} });
    const output = body.input.find((item: ChatBody) => item.type === "function_call_output").output;
    expect(output.map((part: ChatBody) => part.type)).toEqual(["input_text", "input_image", "input_text"]);
    expect(output[0].text).toBe("before the image");
    expect(output[2].text).toBe("after the image");
    expect(await size(output[1].image_url.replace(/^data:image\/png;base64,/, ""))).toBe("png 2x2");
    expect(imageUpdates(oi!.editor.updates(sessionId))).toHaveLength(1);
  });
});

describe("a model that takes no images", () => {
  it("codex: view_image answers with Codex's text, and an image in the prompt becomes a note", async () => {
    const { sessionId, cwd } = await start({
      harness: "codex",
      wire: "responses",
      config: ["model_supports_images = false"],
    });
    writeFileSync(path.join(cwd, "shot.png"), await png(8, 8));
    model!.reply(
      { toolCalls: [{ id: "v1", name: "view_image", arguments: { path: "shot.png" } }] },
      { text: "ok" },
    );
    const image = (await png(2, 2)).toString("base64");
    const answer = await oi!.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [
        { type: "text", text: "what is in this?" },
        { type: "image", mimeType: "image/png", data: image },
      ],
    });
    expect(answer.stopReason).toBe("end_turn");
    model!.assertDone();
    const body = model!.requests[1]!.body;
    expect(body.input.find((item: ChatBody) => item.type === "function_call_output").output).toBe(
      "view_image is not allowed because you do not support image inputs",
    );
    expect(JSON.stringify(body)).not.toContain("input_image");
    const user = body.input.findLast((item: ChatBody) => item.role === "user");
    expect(user.content.map((part: ChatBody) => part.text)).toEqual(["what is in this?", IMAGE_OMITTED]);
  });

  it("kimi-code: no ReadMediaFile, and Read of an image says the model cannot view it", async () => {
    const { sessionId, cwd } = await start({
      harness: "kimi-code",
      wire: "chat",
      model: "kimi-for-coding",
      config: ["model_supports_images = false"],
    });
    writeFileSync(path.join(cwd, "a.png"), await png(4, 4));
    const body = await runCall(sessionId, { id: "call_1", name: "Read", arguments: { path: "a.png" } });
    expect(body.tools.map((t: ChatBody) => t.function.name)).not.toContain("ReadMediaFile");
    expect(body.messages.find((m: ChatBody) => m.role === "tool").content).toBe(
      '<system>ERROR: Tool execution failed.</system>\n"a.png" is an image file. The current model does not support image input (missing image_in capability), so this agent cannot view it. Only text files can be read.',
    );
  });

  it("an image read under a model that takes them is a note once the session moves to one that does not", async () => {
    const { sessionId, cwd } = await start({
      harness: "claude-code",
      wire: "messages",
      model: "claude-sonnet-4-5",
    });
    const file = path.join(cwd, "a.png");
    writeFileSync(file, await png(4, 4));
    await runCall(sessionId, { id: "toolu_1", name: "Read", arguments: { file_path: file } });
    const home = oi!.home;
    await oi!.close();
    const config = readFileSync(path.join(home, "config.toml"), "utf8");
    writeFileSync(path.join(home, "config.toml"), `model_supports_images = false\n${config}`);
    oi = await startInProcess({
      model: model!,
      home,
      cli: { model: "claude-sonnet-4-5" },
      env: { FAKE_KEY: "sk-fake" },
    });
    await oi.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    model!.reply({ text: "noted" });
    await oi.prompt(sessionId, "again");
    const body = model!.requests[2]!.body;
    expect(JSON.stringify(body)).not.toContain('"type":"image"');
    const result = body.messages
      .flatMap((m: ChatBody) => (Array.isArray(m.content) ? m.content : []))
      .find((block: ChatBody) => block.type === "tool_result");
    expect(result.content).toBe(IMAGE_OMITTED);
    model!.assertDone();
  });
});

describe("the installed command", () => {
  it("loads sharp at run time from the start-up snapshot and sends the scaled image on Chat", async () => {
    model = await startFakeModel();
    const cwd = tempDir("oi-ws-");
    writeFileSync(path.join(cwd, "shot.png"), await png(3000, 2000));
    const agent = spawnAgent({
      home: tempDir("oi-home-"),
      env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-test" },
      args: ["-m", "mock-model"],
    });
    const connection = testClient().app.connect(agent.stream);
    await connection.agent.request(methods.agent.initialize, INIT);
    const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    model.reply(
      { toolCalls: [{ id: "v1", name: "view_image", arguments: { path: "shot.png" } }] },
      { text: "ok" },
    );
    const answer = await connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "look" }],
    });
    expect(answer.stopReason).toBe("end_turn");
    model.assertDone();
    const messages = model.requests[1]!.body.messages as ChatBody[];
    const at = messages.findIndex((m) => m.role === "tool");
    const url: string = messages[at + 1]!.content[0].image_url.url;
    expect(await size(url.replace(/^data:image\/png;base64,/, ""))).toBe("png 1920x1280");
    agent.child.stdin!.end();
    await agent.exited;
    expect(agent.violations).toEqual([]);
  });
});
