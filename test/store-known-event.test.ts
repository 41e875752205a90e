import { describe, expect, it } from "vitest";
import { HistoryEvent } from "../src/store/events.js";
import { knownEvent } from "../src/store/known-event.js";

// The fast path must never accept what the schema refuses, nor read a row differently.
const valid: unknown[] = [
  { type: "turn_started", turnId: "t1", pid: 42 },
  { type: "turn_ended", turnId: "t1", stopReason: "end_turn" },
  { type: "turn_ended", turnId: "t1", stopReason: null, error: "endpoint down" },
  { type: "user_message", turnId: "t1", content: [{ type: "text", text: "hi", extra: { a: 1 } }] },
  { type: "user_message", turnId: "t1", content: [] },
  { type: "assistant_message", turnId: "t1", step: 1, text: "a", reasoning: "b" },
  { type: "assistant_message", turnId: "t1", step: 2 },
  {
    type: "tool_call",
    turnId: "t1",
    step: 1,
    callId: "c1",
    name: "shell_command",
    harness: "codex",
    capability: "exec",
    arguments: '{"command":"ls"}',
    title: "ls",
    kind: "execute",
    stray: "dropped",
  },
  {
    type: "tool_call",
    turnId: "t1",
    step: 1,
    callId: "c2",
    name: "apply_patch",
    harness: "codex",
    capability: "patch",
    arguments: "{}",
    title: "Edit a.ts",
    kind: "edit",
    locations: [{ path: "/w/a.ts" }, { path: "/w/b.ts", line: 3 }],
    display: [{ type: "diff", path: "/w/a.ts", oldText: null, newText: "x" }],
  },
  { type: "tool_result", turnId: "t1", callId: "c1", status: "completed", output: "ok" },
  {
    type: "tool_result",
    turnId: "t1",
    callId: "c1",
    status: "failed",
    output: "no",
    display: [
      { type: "text", text: "```\nno\n```" },
      { type: "diff", path: "p", oldText: "a", newText: "b" },
    ],
  },
];

const invalid: unknown[] = [
  null,
  [],
  "turn_started",
  { type: "turn_started", turnId: "t1" },
  { type: "turn_started", turnId: "t1", pid: 1.5 },
  { type: "turn_started", turnId: 7, pid: 1 },
  { type: "turn_ended", turnId: "t1", stopReason: "bored" },
  { type: "turn_ended", turnId: "t1" },
  { type: "turn_ended", turnId: "t1", stopReason: null, error: 3 },
  { type: "user_message", turnId: "t1", content: [{ text: "no type" }] },
  { type: "user_message", turnId: "t1", content: "hi" },
  { type: "assistant_message", turnId: "t1", step: "1", text: "a" },
  { type: "assistant_message", turnId: "t1", step: 1, text: null },
  { type: "tool_call", turnId: "t1", step: 1, callId: "c", name: "x", harness: "h", capability: "exec" },
  ...["capability", "kind", "locations", "display", "arguments"].map((field) => ({
    type: "tool_call",
    turnId: "t1",
    step: 1,
    callId: "c",
    name: "x",
    harness: "h",
    capability: "exec",
    arguments: "{}",
    title: "x",
    kind: "execute",
    [field]:
      field === "locations" ? [{ path: "a", line: 0.5 }] : field === "display" ? [{ type: "image" }] : 9,
  })),
  { type: "tool_result", turnId: "t1", callId: "c1", status: "done", output: "ok" },
  { type: "tool_result", turnId: "t1", callId: "c1", status: "completed" },
  {
    type: "tool_result",
    turnId: "t1",
    callId: "c1",
    status: "completed",
    output: "ok",
    display: [{ type: "diff", path: "p", newText: "b" }],
  },
];

describe("knownEvent (the read path's fast validation)", () => {
  it.each(valid.map((value) => [value]))("reads %j exactly as the schema does", (value) => {
    const known = knownEvent(value);
    expect(known).toBeDefined();
    expect(known).toStrictEqual(HistoryEvent.parse(value));
  });

  it.each(invalid.map((value) => [value]))("leaves %j to the schema, which refuses it", (value) => {
    expect(knownEvent(value)).toBeUndefined();
    expect(HistoryEvent.safeParse(value).success).toBe(false);
  });

  it("leaves a response's opaque reasoning data to the schema, which keeps it", () => {
    const value = {
      type: "assistant_message",
      turnId: "t1",
      step: 1,
      continuation: [{ wire: "messages", block: { type: "thinking", thinking: "x", signature: "sig" } }],
    };
    expect(knownEvent(value)).toBeUndefined();
    expect(HistoryEvent.parse(value)).toMatchObject({ continuation: value.continuation, text: "" });
  });

  it("covers every field the schema has for the types it reads (a new field must be added there too)", () => {
    const fields = Object.fromEntries(
      HistoryEvent.options.map((option) => [option.shape.type.value, Object.keys(option.shape).sort()]),
    );
    expect({
      turn_started: fields.turn_started,
      turn_ended: fields.turn_ended,
      user_message: fields.user_message,
      assistant_message: fields.assistant_message,
      tool_call: fields.tool_call,
      tool_result: fields.tool_result,
    }).toEqual({
      turn_started: ["pid", "turnId", "type"],
      turn_ended: ["error", "stopReason", "turnId", "type"],
      user_message: ["content", "turnId", "type"],
      // `continuation` is left to the schema (knownEvent returns undefined for it).
      assistant_message: ["continuation", "reasoning", "step", "text", "turnId", "type"],
      tool_call: [
        "arguments",
        "callId",
        "capability",
        "display",
        "harness",
        "kind",
        "locations",
        "name",
        "step",
        "title",
        "turnId",
        "type",
      ],
      // `parts` (images) is left to the schema as well.
      tool_result: ["callId", "display", "output", "parts", "status", "turnId", "type"],
    });
  });

  it("leaves a result with images to the schema, which reads them back as stored", () => {
    const value = {
      type: "tool_result",
      turnId: "t1",
      callId: "c1",
      status: "completed",
      output: "[image]",
      parts: [
        { type: "text", text: "<image>" },
        { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=", detail: "high" },
      ],
    };
    expect(knownEvent(value)).toBeUndefined();
    expect(HistoryEvent.parse(value)).toEqual({ ...value, display: [] });
    expect(HistoryEvent.safeParse({ ...value, parts: [{ type: "image", data: "x" }] }).success).toBe(false);
  });

  it("leaves the rarer event types to the schema", () => {
    const notice = { type: "notice", severity: "info", text: "hello" };
    expect(knownEvent(notice)).toBeUndefined();
    expect(HistoryEvent.parse(notice)).toEqual(notice);
  });
});
