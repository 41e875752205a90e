import { describe, expect, it } from "vitest";
import { z } from "zod";
import { adoptCall } from "../src/harnesses/shared/adopt-call.js";
import { renderChatMessages } from "../src/harnesses/shared/chat-messages.js";
import { historySteps } from "../src/harnesses/shared/history-steps.js";
import { renderTextMessages } from "../src/harnesses/shared/text-messages.js";
import { INTERRUPTED_OUTPUT } from "../src/harnesses/shared/user-content.js";
import { chatMessages } from "../src/providers/chat-wire.js";
import type { Message } from "../src/providers/model-request.js";
import type { Capability, HistoryEvent, HistoryEventOf } from "../src/store/events.js";
import type { Tool } from "../src/tools/types.js";

/** The rendered messages as the Chat Completions wire sends them. */
// biome-ignore lint/suspicious/noExplicitAny: any renderer of neutral messages
function asChat<A extends any[]>(render: (...args: A) => Message[], ...args: A) {
  return chatMessages({ system: [], messages: render(...args), tools: [] });
}

const user = (turnId: string, text: string): HistoryEvent => ({
  type: "user_message",
  turnId,
  content: [{ type: "text", text }],
});
const said = (turnId: string, step: number, text: string, reasoning = ""): HistoryEvent => ({
  type: "assistant_message",
  turnId,
  step,
  text,
  reasoning,
});
const call = (
  turnId: string,
  step: number,
  callId: string,
  o: { name?: string; harness?: string; capability?: Capability; args?: string } = {},
): HistoryEventOf<"tool_call"> => ({
  type: "tool_call",
  turnId,
  step,
  callId,
  name: o.name ?? "shell_command",
  harness: o.harness ?? "codex",
  capability: o.capability ?? "exec",
  arguments: o.args ?? '{"command":"ls"}',
  title: "t",
  kind: "execute",
  locations: [],
  display: [],
});
const result = (turnId: string, callId: string, output: string): HistoryEventOf<"tool_result"> => ({
  type: "tool_result",
  turnId,
  callId,
  status: "completed",
  output,
  display: [],
});

/** A turn cut by a crash after its call started, a switch to claude-code, then a compaction. */
const HISTORY: HistoryEvent[] = [
  { type: "turn_started", turnId: "t1", pid: 1 },
  user("t1", "list"),
  said("t1", 1, "Let me ", "think"),
  said("t1", 1, "look."),
  call("t1", 1, "a"),
  call("t1", 1, "b"),
  result("t1", "a", "out-a"),
  // the daemon died here: b never got a result
  { type: "harness_changed", harness: "claude-code", reason: "chosen explicitly" },
  user("t2", "again"),
  call("t2", 1, "c", { name: "Bash", harness: "claude-code", args: '{"command":"pwd"}' }),
  result("t2", "c", "/w"),
  result("t2", "c", "a second result is never shown"),
  { type: "notice", severity: "warning", text: "retrying" },
  said("t2", 2, "Done."),
  { type: "compaction", summary: "we listed files", replaced: 12 },
  { type: "format_error", turnId: "t3", step: 1, text: "Use one bash block." },
];

describe("historySteps", () => {
  it("pairs calls with results, leaves a crash-cut call without one, and keeps the order", () => {
    expect(historySteps(HISTORY)).toEqual([
      { type: "user", content: [{ type: "text", text: "list" }], first: true },
      {
        type: "response",
        turnId: "t1",
        step: 1,
        text: "Let me look.",
        reasoning: "think",
        continuation: [],
        calls: [{ call: HISTORY[4], result: HISTORY[6] }, { call: HISTORY[5] }],
      },
      { type: "harness_changed", harness: "claude-code" },
      { type: "user", content: [{ type: "text", text: "again" }], first: false },
      {
        type: "response",
        turnId: "t2",
        step: 1,
        text: "",
        reasoning: "",
        continuation: [],
        calls: [{ call: HISTORY[9], result: HISTORY[10] }],
      },
      { type: "notice", severity: "warning", text: "retrying" },
      { type: "response", turnId: "t2", step: 2, text: "Done.", reasoning: "", continuation: [], calls: [] },
      { type: "compaction", summary: "we listed files" },
      { type: "correction", text: "Use one bash block." },
    ]);
  });

  it("drops a result that arrives after a later message closed its response", () => {
    const steps = historySteps([
      user("t1", "go"),
      call("t1", 1, "a"),
      user("t2", "next"),
      result("t1", "a", "late"),
    ]);
    expect(steps[1]).toMatchObject({ type: "response", calls: [{ call: { callId: "a" } }] });
    expect((steps[1] as { calls: Array<{ result?: unknown }> }).calls[0]!.result).toBeUndefined();
  });
});

describe("the chat renderer on the walk", () => {
  const tool = (name: string, capability: Capability, schema: z.ZodType): Tool =>
    ({ name, capability, schema, description: "", parameters: {} }) as unknown as Tool;
  const codexTools = [
    tool("shell_command", "exec", z.object({ command: z.string(), workdir: z.string().optional() }).strict()),
  ];

  it("answers the cut call as interrupted and adopts the other harness's command as its own tool", () => {
    const messages = asChat(renderChatMessages, HISTORY, { harness: "codex", tools: codexTools });
    expect(messages).toEqual([
      { role: "user", content: "list" },
      {
        role: "assistant",
        content: "Let me look.",
        reasoning_content: "think",
        tool_calls: [
          { id: "a", type: "function", function: { name: "shell_command", arguments: '{"command":"ls"}' } },
          { id: "b", type: "function", function: { name: "shell_command", arguments: '{"command":"ls"}' } },
        ],
      },
      { role: "tool", tool_call_id: "a", content: "out-a" },
      { role: "tool", tool_call_id: "b", content: INTERRUPTED_OUTPUT },
      { role: "user", content: "again" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c", type: "function", function: { name: "shell_command", arguments: '{"command":"pwd"}' } },
        ],
      },
      { role: "tool", tool_call_id: "c", content: "/w" },
      { role: "assistant", content: "Done." },
      { role: "user", content: "Use one bash block." },
    ]);
  });

  it("keeps a call to a tool of the same name whose schema accepts it, adopts one whose schema does not", () => {
    const read = tool("Read", "read", z.object({ path: z.string() }).strict());
    const same = call("t1", 1, "r1", {
      name: "Read",
      harness: "kimi-code",
      capability: "read",
      args: '{"path":"/w/a"}',
    });
    const other = call("t1", 1, "r2", {
      name: "Read",
      harness: "claude-code",
      capability: "read",
      args: '{"file_path":"/w/a"}',
    });
    const adopt = () => ({ name: "Read", arguments: '{"path":"adopted"}' });
    expect(adoptCall(same, { harness: "x", tools: [read], adopt })).toEqual({
      name: "Read",
      arguments: '{"path":"/w/a"}',
    });
    expect(adoptCall(other, { harness: "x", tools: [read], adopt })).toEqual({
      name: "Read",
      arguments: '{"path":"adopted"}',
    });
    expect(adoptCall(other, { harness: "x", tools: [read] })).toBeUndefined();
  });
});

describe("the text renderer on the walk", () => {
  it("writes foreign calls in the protocol, answers every call in one observation, and joins user messages", () => {
    const history: HistoryEvent[] = [
      user("t1", "task"),
      call("t1", 1, "a", { name: "Bash", harness: "claude-code", args: '{"command":"ls"}' }),
      result("t1", "a", "a.txt"),
      said("t1", 2, "```bash\ncat a.txt\n```"),
      call("t1", 2, "b", { name: "bash", harness: "mini-swe-agent", args: '{"command":"cat a.txt"}' }),
    ];
    const messages = asChat(renderTextMessages, history, {
      harness: "mini-swe-agent",
      firstUser: (text) => `<task>${text}</task>`,
      foreignCall: (c) => `[${c.name}]`,
      observations: (results) => results.map((r) => `<output>${r.output}</output>`).join("\n"),
    });
    expect(messages).toEqual([
      { role: "user", content: "<task>task</task>" },
      { role: "assistant", content: "[Bash]" },
      { role: "user", content: "<output>a.txt</output>" },
      { role: "assistant", content: "```bash\ncat a.txt\n```" },
      { role: "user", content: `<output>${INTERRUPTED_OUTPUT}</output>` },
    ]);
  });
});
