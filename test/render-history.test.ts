import { describe, expect, it } from "vitest";
import { codexHarness } from "../src/harnesses/codex/codex-harness.js";
import { renderChatMessages } from "../src/harnesses/shared/chat-messages.js";
import { INTERRUPTED_OUTPUT } from "../src/harnesses/shared/user-content.js";
import { chatMessages } from "../src/providers/chat-wire.js";
import type { Message } from "../src/providers/model-request.js";
import type { HistoryEvent } from "../src/store/events.js";
import { harnessContext } from "./support/harness-fixtures.js";

/** The rendered messages as the Chat Completions wire sends them. */
// biome-ignore lint/suspicious/noExplicitAny: any renderer of neutral messages
function asChat<A extends any[]>(render: (...args: A) => Message[], ...args: A) {
  return chatMessages({ system: [], messages: render(...args), tools: [] });
}

const call = (callId: string, step = 1): HistoryEvent => ({
  type: "tool_call",
  turnId: "t1",
  step,
  callId,
  name: "shell_command",
  harness: "codex",
  capability: "exec",
  arguments: '{"command":"ls"}',
  title: "ls",
  kind: "execute",
  locations: [],
  display: [],
});

describe("renderHistory", () => {
  it("joins message parts of one step and pairs every tool call with a result", () => {
    const history: HistoryEvent[] = [
      { type: "turn_started", turnId: "t1", pid: 1 },
      { type: "user_message", turnId: "t1", content: [{ type: "text", text: "list" }] },
      { type: "assistant_message", turnId: "t1", step: 1, text: "Let me ", reasoning: "" },
      { type: "assistant_message", turnId: "t1", step: 1, text: "look.", reasoning: "r" },
      call("a"),
      call("b"),
      { type: "tool_result", turnId: "t1", callId: "a", status: "completed", output: "out-a", display: [] },
      { type: "notice", severity: "info", text: "not for the model" },
    ];
    expect(asChat(renderChatMessages, history, { harness: "codex" })).toEqual([
      { role: "user", content: "list" },
      {
        role: "assistant",
        content: "Let me look.",
        reasoning_content: "r",
        tool_calls: [
          { id: "a", type: "function", function: { name: "shell_command", arguments: '{"command":"ls"}' } },
          { id: "b", type: "function", function: { name: "shell_command", arguments: '{"command":"ls"}' } },
        ],
      },
      { role: "tool", tool_call_id: "a", content: "out-a" },
      { role: "tool", tool_call_id: "b", content: INTERRUPTED_OUTPUT },
    ]);
  });

  it("keeps a response cut during its reasoning as an assistant turn with empty text", () => {
    const history: HistoryEvent[] = [
      { type: "turn_started", turnId: "t1", pid: 1 },
      { type: "user_message", turnId: "t1", content: [{ type: "text", text: "plan" }] },
      { type: "assistant_message", turnId: "t1", step: 1, text: "", reasoning: "Thinking about" },
      { type: "turn_started", turnId: "t2", pid: 2 },
      { type: "user_message", turnId: "t2", content: [{ type: "text", text: "go on" }] },
    ];
    expect(asChat(renderChatMessages, history, { harness: "codex" })).toEqual([
      { role: "user", content: "plan" },
      { role: "assistant", content: "", reasoning_content: "Thinking about" },
      { role: "user", content: "go on" },
    ]);
  });

  it("renders embedded context and resource links as text, images as image parts", () => {
    const history: HistoryEvent[] = [
      {
        type: "user_message",
        turnId: "t1",
        content: [
          { type: "text", text: "look" },
          { type: "resource_link", uri: "file:///w/a.ts", name: "a.ts" },
          { type: "resource", resource: { uri: "file:///w/b.ts", text: "const b = 1;" } },
          { type: "image", data: "AAAA", mimeType: "image/png" },
        ],
      },
    ];
    expect(asChat(renderChatMessages, history, { harness: "codex" })).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "text", text: "[@a.ts](file:///w/a.ts)" },
          { type: "text", text: '<context ref="file:///w/b.ts">\nconst b = 1;\n</context>' },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
        ],
      },
    ]);
  });
});

describe("renderHistory across harnesses", () => {
  const object = (...keys: string[]) => ({
    type: "object",
    properties: Object.fromEntries(keys.map((key) => [key, { type: "string" }])),
  });
  const shell = { name: "Bash", capability: "exec", parameters: object("command", "description") } as never;
  const read = { name: "Read", capability: "read", parameters: object("file_path") } as never;
  const foreign = (
    name: string,
    capability: "exec" | "patch",
    args: string,
    harness = "codex",
  ): HistoryEvent => ({
    ...(call("x") as Extract<HistoryEvent, { type: "tool_call" }>),
    name,
    harness,
    capability,
    arguments: args,
  });

  it("maps another harness's command onto this harness's shell tool and keeps the result", () => {
    const history: HistoryEvent[] = [
      foreign("shell_command", "exec", '{"command":"npm test","workdir":"/w"}'),
      { type: "tool_result", turnId: "t1", callId: "x", status: "completed", output: "ok", display: [] },
    ];
    expect(asChat(renderChatMessages, history, { tools: [shell, read], harness: "claude-code" })).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "x", type: "function", function: { name: "Bash", arguments: '{"command":"npm test"}' } },
        ],
      },
      { role: "tool", tool_call_id: "x", content: "ok" },
    ]);
  });

  it("maps a command onto Codex's exec_command in its own argument name, cmd", () => {
    const tools = codexHarness.open(harnessContext()).tools;
    const history: HistoryEvent[] = [
      foreign("Bash", "exec", '{"command":"npm test","description":"Run the tests"}', "claude-code"),
      { type: "tool_result", turnId: "t1", callId: "x", status: "completed", output: "ok", display: [] },
    ];
    expect(asChat(renderChatMessages, history, { tools, harness: "codex" })).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "x", type: "function", function: { name: "exec_command", arguments: '{"cmd":"npm test"}' } },
        ],
      },
      { role: "tool", tool_call_id: "x", content: "ok" },
    ]);
  });

  it("shows calls without a counterpart as text, with their results", () => {
    const history: HistoryEvent[] = [
      foreign("apply_patch", "patch", '{"input":"*** Begin Patch"}'),
      {
        type: "tool_result",
        turnId: "t1",
        callId: "x",
        status: "completed",
        output: "Success.",
        display: [],
      },
    ];
    expect(asChat(renderChatMessages, history, { tools: [shell, read], harness: "claude-code" })).toEqual([
      { role: "assistant", content: '[called apply_patch with {"input":"*** Begin Patch"}]' },
      { role: "user", content: "[result of apply_patch]\nSuccess." },
    ]);
  });
});
