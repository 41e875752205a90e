import { describe, expect, it } from "vitest";
import { AUTO_MODE_REMINDER, compactJson, renderKimiMessages } from "../src/harnesses/kimi-code/render.js";
import { nudgeFor } from "../src/harnesses/kimi-code/repeat-nudges.js";
import { chatMessages } from "../src/providers/chat-wire.js";
import type { Message } from "../src/providers/model-request.js";
import type { Capability, HistoryEvent } from "../src/store/events.js";

/** The rendered messages as the Chat Completions wire sends them. */
// biome-ignore lint/suspicious/noExplicitAny: any renderer of neutral messages
function asChat<A extends any[]>(render: (...args: A) => Message[], ...args: A) {
  return chatMessages({ system: [], messages: render(...args), tools: [] });
}

const user = (text: string, turnId = "t1"): HistoryEvent => ({
  type: "user_message",
  turnId,
  content: [{ type: "text", text }],
});
const call = (
  callId: string,
  name: string,
  args: string,
  options: { step?: number; turnId?: string; harness?: string; capability?: Capability } = {},
): HistoryEvent => ({
  type: "tool_call",
  turnId: options.turnId ?? "t1",
  step: options.step ?? 1,
  callId,
  name,
  harness: options.harness ?? "kimi-code",
  capability: options.capability ?? "other",
  arguments: args,
  title: name,
  kind: "other",
  locations: [],
  display: [],
});
const result = (
  callId: string,
  output: string,
  status: "completed" | "failed" | "rejected" = "completed",
  turnId = "t1",
): HistoryEvent => ({ type: "tool_result", turnId, callId, status, output, display: [] });

describe("kimi-code history rendering", () => {
  it("replays ids with `_`, compact arguments in the model's key order, and empty reasoning_content", () => {
    const messages = asChat(
      renderKimiMessages,
      [
        user("find files"),
        { type: "assistant_message", turnId: "t1", step: 1, text: "", reasoning: "look around" },
        call("functions.Glob:0", "Glob", '{ "pattern" : "*.py",\n "path": "a b" }'),
        result("functions.Glob:0", "module.py"),
        call("functions.Read:1", "Read", '{"path":"module.py"}', { step: 2 }),
        result(
          "functions.Read:1",
          "1\tx\n<system>1 line read from file starting from line 1. Total lines in file: 1. Requested range complete. Effective max_chars: 100000. End of file reached.</system>",
        ),
        { type: "assistant_message", turnId: "t1", step: 3, text: "Done.", reasoning: "" },
      ],
      { harness: "kimi-code" },
    );
    expect(messages).toEqual([
      { role: "user", content: "find files" },
      { role: "user", content: AUTO_MODE_REMINDER },
      {
        role: "assistant",
        content: null,
        reasoning_content: "look around",
        tool_calls: [
          {
            id: "functions.Glob_0",
            type: "function",
            function: { name: "Glob", arguments: '{"pattern":"*.py","path":"a b"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "functions.Glob_0", content: "module.py" },
      {
        role: "assistant",
        content: null,
        reasoning_content: "",
        tool_calls: [
          {
            id: "functions.Read_1",
            type: "function",
            function: { name: "Read", arguments: '{"path":"module.py"}' },
          },
        ],
      },
      expect.objectContaining({ role: "tool", tool_call_id: "functions.Read_1" }),
      { role: "assistant", content: "Done.", reasoning_content: "" },
    ]);
  });

  it("wraps failures, rejections and empty output in Kimi's <system> status lines", () => {
    const messages = asChat(
      renderKimiMessages,
      [
        user("go"),
        call("a", "Bash", '{"command":"false"}'),
        call("b", "Bash", '{"command":"true"}'),
        call("c", "Bash", '{"command":"rm -rf x"}'),
        call("d", "Read", '{"path":"x"}'),
        result("a", "Process exited with code 1\nCommand failed with exit code: 1.", "failed"),
        result("b", ""),
        result("c", "rejected by user", "rejected"),
      ],
      { harness: "kimi-code" },
    );
    expect(messages.filter((m) => m.role === "tool").map((m) => m.content)).toEqual([
      "<system>ERROR: Tool execution failed.</system>\nProcess exited with code 1\nCommand failed with exit code: 1.",
      "<system>Tool output is empty.</system>",
      "<system>ERROR: Tool execution failed.</system>\nrejected by user",
      // Never answered (a crash mid-call): still answered before the next message.
      "<system>ERROR: Tool execution failed.</system>\naborted: the tool call was interrupted before it finished",
    ]);
  });

  it("appends the repeated-call reminders at the 3rd, 5th and 8th identical call of a turn", () => {
    const history: HistoryEvent[] = [user("loop")];
    for (let i = 1; i <= 9; i++) {
      // Key order does not make a call different.
      const args = i % 2 ? '{"command":"ls","cwd":"."}' : '{"cwd":".","command":"ls"}';
      history.push(call(`c${i}`, "Bash", args, { step: i }), result(`c${i}`, "a.txt"));
    }
    history.push(
      user("again", "t2"),
      call("d1", "Bash", '{"command":"ls","cwd":"."}', { turnId: "t2" }),
      result("d1", "a.txt", "completed", "t2"),
    );
    const outputs = asChat(renderKimiMessages, history, { harness: "kimi-code" })
      .filter((m) => m.role === "tool")
      .map((m) => m.content as string);
    expect(outputs.slice(0, 2)).toEqual(["a.txt", "a.txt"]);
    expect(outputs[2]).toBe(`a.txt\n\n${nudgeFor(3)}`);
    expect(outputs[3]).toBe(`a.txt\n\n${nudgeFor(3)}`);
    expect(outputs[4]).toBe(`a.txt\n\n${nudgeFor(5)}`);
    expect(outputs[4]).toContain("made 5 times in a row");
    expect(outputs[6]).toContain("made 7 times in a row");
    expect(outputs[7]).toBe(`a.txt\n\n${nudgeFor(8)}`);
    expect(outputs[8]).toBe(outputs[7]);
    // A new turn starts a new streak.
    expect(outputs[9]).toBe("a.txt");
    expect(nudgeFor(3)).toMatch(/^<system-reminder>\n[\s\S]+\n<\/system-reminder>$/);
  });

  it("does not nudge when the arguments change", () => {
    const history: HistoryEvent[] = [user("go")];
    for (let i = 1; i <= 4; i++) {
      history.push(call(`c${i}`, "Read", `{"path":"f${i % 2}.txt"}`, { step: i }), result(`c${i}`, "x"));
    }
    const outputs = asChat(renderKimiMessages, history, { harness: "kimi-code" }).filter(
      (m) => m.role === "tool",
    );
    expect(outputs.map((m) => m.content)).toEqual(["x", "x", "x", "x"]);
  });

  it("puts calls made under another harness into Kimi's terms, or shows them as text", () => {
    const messages = asChat(
      renderKimiMessages,
      [
        user("go"),
        call("x1", "Read", '{"file_path":"/w/a.ts","offset":5,"limit":10}', {
          harness: "claude-code",
          capability: "read",
        }),
        result("x1", "a"),
        call("x2", "shell_command", '{"command":"npm test","workdir":"/w"}', {
          harness: "codex",
          capability: "exec",
          step: 2,
        }),
        result("x2", "ok"),
        call("x3", "update_plan", '{"plan":[]}', { harness: "codex", capability: "plan", step: 3 }),
        result("x3", "Plan updated"),
      ],
      { harness: "kimi-code" },
    );
    const calls = messages.flatMap((m) => (m.role === "assistant" ? (m.tool_calls ?? []) : []));
    expect(calls.map((c) => [c.function.name, c.function.arguments])).toEqual([
      ["Read", '{"path":"/w/a.ts","line_offset":5,"n_lines":10}'],
      ["Bash", '{"command":"npm test","cwd":"/w"}'],
    ]);
    expect(messages.at(-2)).toEqual({
      role: "assistant",
      content: '[called update_plan with {"plan":[]}]',
      reasoning_content: "",
    });
    expect(messages.at(-1)).toEqual({ role: "user", content: "[result of update_plan]\nPlan updated" });
  });

  it("compacts JSON outside strings only", () => {
    expect(compactJson('{ "a" : "x  y\\" z" ,\n "b": [1, 2] }')).toBe('{"a":"x  y\\" z","b":[1,2]}');
  });
});
