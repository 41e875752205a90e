import { describe, expect, it } from "vitest";
import { chatWire } from "./support/fake-wire-chat.js";
import { responsesWire } from "./support/fake-wire-responses.js";

// The fake model's request checks: each mistake a real server would reject is reported.

const user = { role: "user", content: "hi" };
const call = { id: "c1", type: "function", function: { name: "ls", arguments: "{}" } };

describe("fake Chat wire validation", () => {
  it("accepts what chatBody sends, vendor fields included outside strict OpenAI mode", () => {
    const body = {
      model: "m",
      messages: [
        { role: "system", content: "s" },
        user,
        { role: "assistant", content: null, reasoning_content: "r", tool_calls: [call] },
        { role: "tool", tool_call_id: "c1", content: "out" },
        {
          role: "user",
          content: [
            { type: "text", text: "x" },
            { type: "image_url", image_url: { url: "data:," } },
          ],
        },
      ],
      tools: [
        { type: "function", function: { name: "ls", description: "d", parameters: { type: "object" } } },
      ],
      stream: true,
      stream_options: { include_usage: true },
      enable_thinking: false,
    };
    expect(chatWire.validate(body)).toEqual([]);
  });

  it.each([
    ["an unknown field", { model: "m", messages: [user], temprature: 1 }, /unknown field temprature/],
    [
      "a wrong type",
      { model: "m", messages: [user], max_tokens: "100" },
      /max_tokens must be number, not string/,
    ],
    [
      "a misplaced field",
      { model: "m", messages: [{ ...user, tool_call_id: "x" }] },
      /\(user\) has unknown field tool_call_id/,
    ],
    [
      "a call not answered before the next message",
      { model: "m", messages: [user, { role: "assistant", content: null, tool_calls: [call] }, user] },
      /\(user\) comes before the tool answers of c1/,
    ],
    [
      "an answer to no call",
      { model: "m", messages: [user, { role: "tool", tool_call_id: "zz", content: "x" }] },
      /answers no open tool call \(zz\)/,
    ],
    [
      "stream_options without stream",
      { model: "m", messages: [user], stream_options: { include_usage: true } },
      /only allowed with stream: true/,
    ],
    [
      "a Responses-style tool",
      { model: "m", messages: [user], tools: [{ type: "function", name: "ls" }] },
      /tools\[0\] has unknown field name/,
    ],
  ])("reports %s", (_what, body, problem) => {
    expect(chatWire.validate(body).join("\n")).toMatch(problem);
  });

  it("strict OpenAI mode rejects reasoning_content and vendor fields", () => {
    const body = {
      model: "m",
      messages: [user, { role: "assistant", content: "a", reasoning_content: "r" }, user],
      enable_thinking: false,
    };
    expect(chatWire.validate(body)).toEqual([]);
    const problems = chatWire.validate(body, { strictOpenAI: true }).join("\n");
    expect(problems).toMatch(/reasoning_content, which OpenAI rejects/);
    expect(problems).toMatch(/unknown field enable_thinking/);
  });
});

describe("fake Responses wire validation", () => {
  const base = { model: "m", store: false, stream: true, include: ["reasoning.encrypted_content"] };
  const ask = { type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] };

  it.each([
    [
      "a Chat-style tool",
      { ...base, input: [ask], tools: [{ type: "function", function: { name: "ls" } }] },
      /nested as in Chat/,
    ],
    [
      "output_text in a user message",
      { ...base, input: [{ type: "message", role: "user", content: [{ type: "output_text", text: "x" }] }] },
      /output_text, not allowed in a user message/,
    ],
    [
      "a custom output answering a function call",
      {
        ...base,
        input: [
          ask,
          { type: "function_call", call_id: "c", name: "f", arguments: "{}" },
          { type: "custom_tool_call_output", call_id: "c", output: "x" },
        ],
      },
      /answers a function_call/,
    ],
    [
      "a call left unanswered",
      { ...base, input: [ask, { type: "function_call", call_id: "c", name: "f", arguments: "{}" }] },
      /ends before the outputs of c/,
    ],
    [
      "a reasoning item without encrypted content under store: false",
      { ...base, input: [ask, { type: "reasoning", id: "rs_1", summary: [] }] },
      /no encrypted_content/,
    ],
    [
      "an unknown include",
      { ...base, include: ["reasoning.plaintext"], input: [ask] },
      /unknown value reasoning.plaintext/,
    ],
    ["a Chat field", { ...base, input: [ask], max_tokens: 5 }, /unknown field max_tokens/],
  ])("reports %s", (_what, body, problem) => {
    expect(responsesWire.validate(body).join("\n")).toMatch(problem);
  });

  it("accepts a Codex-shaped history", () => {
    const body = {
      ...base,
      instructions: "i",
      tool_choice: "auto",
      parallel_tool_calls: true,
      tools: [
        {
          type: "custom",
          name: "apply_patch",
          description: "d",
          format: { type: "grammar", syntax: "lark", definition: "x" },
        },
      ],
      input: [
        ask,
        { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "e" },
        { type: "custom_tool_call", call_id: "p", name: "apply_patch", input: "*** Begin Patch" },
        { type: "custom_tool_call_output", call_id: "p", output: "ok" },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "done" }] },
      ],
    };
    expect(responsesWire.validate(body)).toEqual([]);
  });
});
