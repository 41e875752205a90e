import { describe, expect, it } from "vitest";
import { claudeCodeHarness } from "../src/harnesses/claude-code/claude-code-harness.js";
import { builtinHarnesses, chooseHarness, harnessProblem } from "../src/harnesses/harness-list.js";
import { chatMessages, chatTool } from "../src/providers/chat-wire.js";
import type { ModelRequest } from "../src/providers/model-request.js";
import type { HistoryEvent } from "../src/store/events.js";
import { harnessContext } from "./support/harness-fixtures.js";

const harnesses = builtinHarnesses();

describe("the routing table: which harness runs on which wire", () => {
  it("runs every harness but zcode on chat, codex and the claude-code family on responses, the claude-code family and zcode on messages", () => {
    const table = Object.fromEntries(harnesses.map((h) => [h.id, h.wires.join(" ")]));
    // Upstream routes zcode on Messages only (on Chat its generic transport stands in).
    expect(Object.keys(table).filter((id) => !table[id]?.includes("chat"))).toEqual(["zcode"]);
    expect(Object.keys(table).filter((id) => table[id]?.includes("responses"))).toEqual([
      "codex",
      "claude-code",
      "claude-code-bare",
    ]);
    expect(Object.keys(table).filter((id) => table[id]?.includes("messages"))).toEqual([
      "claude-code",
      "claude-code-bare",
      "zcode",
    ]);
  });

  it("chooses automatically among the harnesses of the endpoint's wire", () => {
    const choose = (model: string, wire: "chat" | "responses" | "messages") =>
      chooseHarness({ harnesses, model, wire }).harness.id;
    expect(choose("kimi-k2-0905", "chat")).toBe("kimi-code");
    // Moonshot's Anthropic endpoint serves Kimi for Claude Code: Kimi Code does not speak Messages.
    expect(choose("kimi-k2-0905", "messages")).toBe("claude-code");
    expect(choose("deepseek-chat", "messages")).toBe("claude-code-bare");
    // GLM on Z.AI's Anthropic endpoint runs ZCode; on Chat the default, as upstream routes it.
    expect(choose("glm-4.6", "messages")).toBe("zcode");
    expect(choose("GLM-5.1", "messages")).toBe("zcode");
    expect(choose("glm-4.6", "chat")).toBe("codex");
    expect(choose("gpt-5.1-codex", "responses")).toBe("codex");
    expect(choose("qwen3-coder", "responses")).toBe("codex");
    expect(choose("claude-sonnet-4-5", "responses")).toBe("claude-code");
  });

  it("refuses an explicit harness on a wire its original does not speak, naming those that do", () => {
    expect(
      harnessProblem({ id: "kimi-code", source: "config.toml: harness", harnesses, wire: "messages" }),
    ).toBe(
      'config.toml: harness: harness "kimi-code" does not run on wire_api = "messages" (it runs on chat); harnesses for "messages": claude-code, claude-code-bare, zcode',
    );
    expect(harnessProblem({ id: "native", source: "x", harnesses, wire: "responses" })).toBeUndefined();
    expect(harnessProblem({ id: "nosuch", source: "x", harnesses, wire: "chat" })).toContain(
      'unknown harness "nosuch"',
    );
  });
});

describe("Claude Code on Anthropic Messages", () => {
  const history: HistoryEvent[] = [
    { type: "user_message", turnId: "t1", content: [{ type: "text", text: "fix it" }] },
    { type: "assistant_message", turnId: "t1", step: 1, text: "", reasoning: "" },
    {
      type: "tool_call",
      turnId: "t1",
      step: 1,
      callId: "toolu_1",
      name: "Bash",
      harness: "claude-code",
      capability: "exec",
      arguments: '{"command":"npm test"}',
      title: "npm test",
      kind: "execute",
      locations: [],
      display: [],
    },
    {
      type: "tool_result",
      turnId: "t1",
      callId: "toolu_1",
      status: "failed",
      output: "Exit code 1",
      display: [],
    },
  ];
  const render = (wire: "chat" | "messages") => {
    const ctx = harnessContext({ model: "claude-sonnet-4-5", wire, instructions: "Use pnpm." });
    const opened = claudeCodeHarness.open(ctx);
    return opened.render({ history, tools: opened.tools, ctx });
  };

  it("sends the identity line and the prompt as two cached system blocks, the reminders as their own blocks", () => {
    const request = render("messages");
    expect(request.system.map((block) => block.cache)).toEqual([true, true]);
    expect(request.system[0]?.text).not.toContain("\n\n");
    const first = request.messages[0];
    expect(first?.role).toBe("user");
    const texts =
      first?.role === "user" ? first.content.map((part) => (part.type === "text" ? part.text : "")) : [];
    expect(texts.at(-1)).toBe("fix it");
    expect(texts.some((text) => text.includes("Use pnpm."))).toBe(true);
  });

  it("puts cache breakpoints on the last block of the last two messages and sends the user id shape", () => {
    const request = render("messages");
    expect(request.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    const [, assistant, tool] = request.messages;
    expect(assistant?.role === "assistant" && assistant.content.at(-1)).toMatchObject({
      type: "tool_call",
      cache: true,
    });
    expect(tool).toMatchObject({ role: "tool", callId: "toolu_1", cache: true });
    expect(request.knobs?.maxTokens).toBe(32_000);
    expect(request.knobs?.userId).toMatch(/^user_[0-9a-f]{64}_account__session_s1$/);
  });

  it("keeps one system text and the reminders joined into the first message on chat", () => {
    const request = render("chat");
    expect(request.system).toHaveLength(1);
    expect(request.knobs?.userId).toBeUndefined();
    const [first] = chatMessages(request);
    expect(first?.role).toBe("system");
    expect(JSON.stringify(request)).not.toContain('"cache":true');
  });
});

describe("the Chat Completions translation", () => {
  it("sends tool images after the run of tool messages, developer text as system, freeform tools as functions", () => {
    const request: ModelRequest = {
      system: [
        { type: "text", text: "a" },
        { type: "text", text: "b" },
      ],
      messages: [
        { role: "developer", content: [{ type: "text", text: "rules" }] },
        { role: "user", content: [{ type: "text", text: "look" }] },
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "hm" },
            { type: "tool_call", id: "c1", name: "view", arguments: "{}" },
            { type: "tool_call", id: "c2", name: "view", arguments: "{}" },
          ],
        },
        {
          role: "tool",
          callId: "c1",
          content: [
            { type: "text", text: "shot" },
            { type: "image", url: "data:image/png;base64,AAAA" },
          ],
        },
        { role: "tool", callId: "c2", content: [{ type: "text", text: "none" }] },
        { role: "user", content: [{ type: "text", text: "and?" }], asParts: true },
      ],
      tools: [{ type: "custom", name: "apply_patch", description: "patch" }],
    };
    expect(chatMessages(request)).toEqual([
      { role: "system", content: "a\n\nb" },
      { role: "system", content: "rules" },
      { role: "user", content: "look" },
      {
        role: "assistant",
        content: null,
        reasoning_content: "hm",
        tool_calls: [
          { id: "c1", type: "function", function: { name: "view", arguments: "{}" } },
          { id: "c2", type: "function", function: { name: "view", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "shot" },
      { role: "tool", tool_call_id: "c2", content: "none" },
      { role: "user", content: [{ type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }] },
      { role: "user", content: [{ type: "text", text: "and?" }] },
    ]);
    expect(chatMessages(request, "never")[3]).not.toHaveProperty("reasoning_content");
    expect(chatTool(request.tools[0]!).function.parameters).toEqual({
      type: "object",
      properties: { input: { type: "string" } },
      required: ["input"],
    });
  });
});
