import { describe, expect, it } from "vitest";
import { toSessionUpdates } from "../src/acp/map-output.js";
import { toRunEvents, unfence } from "../src/acp/run-events.js";
import type { RunEvent } from "../src/acp/run-once.js";
import { type CodexEvent, createCodexMapper, type TurnOutcome } from "../src/cli/exec/codex-events.js";
import { fence } from "../src/tools/markdown-fence.js";

const call = (over: Partial<Extract<RunEvent, { type: "tool_call" }>>): RunEvent => ({
  type: "tool_call",
  callId: "c1",
  title: "t",
  kind: "other",
  input: {},
  paths: [],
  diffs: [],
  ...over,
});
const done = (over: Partial<Extract<RunEvent, { type: "tool_done" }>>): RunEvent => ({
  type: "tool_done",
  callId: "c1",
  ok: true,
  text: "",
  diffs: [],
  ...over,
});
const END: TurnOutcome = {
  stopReason: "end_turn",
  usage: { inputTokens: 10, cachedInputTokens: 4, outputTokens: 3 },
};
const USAGE = { input_tokens: 10, cached_input_tokens: 4, output_tokens: 3 };

interface Case {
  name: string;
  events: RunEvent[];
  outcome?: TurnOutcome;
  expected: CodexEvent[];
}

const CASES: Case[] = [
  {
    name: "text chunks become one agent_message, completed only",
    events: [
      { type: "text", text: "Hel" },
      { type: "text", text: "lo." },
    ],
    expected: [
      { type: "item.completed", item: { id: "item_0", type: "agent_message", text: "Hello." } },
      { type: "turn.completed", usage: USAGE },
    ],
  },
  {
    name: "reasoning before the message, each its own item",
    events: [
      { type: "thought", text: "think " },
      { type: "thought", text: "hard" },
      { type: "text", text: "Done." },
    ],
    expected: [
      { type: "item.completed", item: { id: "item_0", type: "reasoning", text: "think hard" } },
      { type: "item.completed", item: { id: "item_1", type: "agent_message", text: "Done." } },
      { type: "turn.completed", usage: USAGE },
    ],
  },
  {
    name: "a command: started in progress, completed with output and exit code",
    events: [
      { type: "text", text: "Let me look." },
      call({ kind: "execute", title: "ls", input: { command: "ls -a" } }),
      { type: "tool_output", callId: "c1", text: "a\n" },
      done({ text: "a\nb\n", output: "Exit code: 0\nOutput:\na\nb\n" }),
      { type: "text", text: "Two files." },
    ],
    expected: [
      { type: "item.completed", item: { id: "item_0", type: "agent_message", text: "Let me look." } },
      {
        type: "item.started",
        item: {
          id: "item_1",
          type: "command_execution",
          command: "ls -a",
          aggregated_output: "",
          exit_code: null,
          status: "in_progress",
        },
      },
      {
        type: "item.completed",
        item: {
          id: "item_1",
          type: "command_execution",
          command: "ls -a",
          aggregated_output: "a\nb\n",
          exit_code: 0,
          status: "completed",
        },
      },
      { type: "item.completed", item: { id: "item_2", type: "agent_message", text: "Two files." } },
      { type: "turn.completed", usage: USAGE },
    ],
  },
  {
    name: "a failing command reports the harness's exit code; argv arrays are joined",
    events: [
      call({ kind: "execute", input: { command: ["bash", "-lc", "false"] } }),
      done({ ok: false, text: "", output: "Exit code 3\nWall time: 0 seconds" }),
    ],
    expected: [
      {
        type: "item.started",
        item: {
          id: "item_0",
          type: "command_execution",
          command: "bash -lc false",
          aggregated_output: "",
          exit_code: null,
          status: "in_progress",
        },
      },
      {
        type: "item.completed",
        item: {
          id: "item_0",
          type: "command_execution",
          command: "bash -lc false",
          aggregated_output: "",
          exit_code: 3,
          status: "failed",
        },
      },
      { type: "turn.completed", usage: USAGE },
    ],
  },
  {
    name: "a rejected command fails with no exit code",
    events: [
      call({ kind: "execute", title: "rm x", input: { cmd: "rm x" } }),
      { type: "rejected", callId: "c1", title: "rm x" },
      done({ ok: false, text: "The user rejected this action.", output: "The user rejected this action." }),
    ],
    expected: [
      {
        type: "item.started",
        item: {
          id: "item_0",
          type: "command_execution",
          command: "rm x",
          aggregated_output: "",
          exit_code: null,
          status: "in_progress",
        },
      },
      {
        type: "item.completed",
        item: {
          id: "item_0",
          type: "command_execution",
          command: "rm x",
          aggregated_output: "The user rejected this action.",
          exit_code: null,
          status: "failed",
        },
      },
      { type: "turn.completed", usage: USAGE },
    ],
  },
  {
    name: "file changes only on completion, kinds from the diffs (a patch through the shell too)",
    events: [
      call({
        kind: "execute",
        diffs: [
          { path: "/w/new.txt", oldText: null, newText: "x" },
          { path: "/w/old.txt", oldText: "a", newText: "b" },
          { path: "/w/gone.txt", oldText: "a", newText: "" },
        ],
      }),
      done({}),
    ],
    expected: [
      {
        type: "item.completed",
        item: {
          id: "item_0",
          type: "file_change",
          changes: [
            { path: "/w/new.txt", kind: "add" },
            { path: "/w/old.txt", kind: "update" },
            { path: "/w/gone.txt", kind: "delete" },
          ],
          status: "completed",
        },
      },
      { type: "turn.completed", usage: USAGE },
    ],
  },
  {
    name: "an edit without diffs uses its locations; a failed edit is failed",
    events: [call({ kind: "delete", paths: ["/w/a.txt"] }), done({ ok: false, text: "no such file" })],
    expected: [
      {
        type: "item.completed",
        item: {
          id: "item_0",
          type: "file_change",
          changes: [{ path: "/w/a.txt", kind: "delete" }],
          status: "failed",
        },
      },
      { type: "turn.completed", usage: USAGE },
    ],
  },
  {
    name: "MCP tools by title, built-in tools under the interpreter server",
    events: [
      call({
        callId: "m",
        name: "mcp__everything__echo",
        title: "everything: echo",
        input: { message: "hi" },
      }),
      done({ callId: "m", text: "Echo: hi" }),
      call({ callId: "r", kind: "read", name: "read_file", title: "Read a.txt", input: { path: "a.txt" } }),
      done({ callId: "r", ok: false, text: "ENOENT" }),
    ],
    expected: [
      {
        type: "item.started",
        item: {
          id: "item_0",
          type: "mcp_tool_call",
          server: "everything",
          tool: "echo",
          arguments: { message: "hi" },
          result: null,
          error: null,
          status: "in_progress",
        },
      },
      {
        type: "item.completed",
        item: {
          id: "item_0",
          type: "mcp_tool_call",
          server: "everything",
          tool: "echo",
          arguments: { message: "hi" },
          result: { content: [{ type: "text", text: "Echo: hi" }], structured_content: null },
          error: null,
          status: "completed",
        },
      },
      {
        type: "item.started",
        item: {
          id: "item_1",
          type: "mcp_tool_call",
          server: "interpreter",
          tool: "read_file",
          arguments: { path: "a.txt" },
          result: null,
          error: null,
          status: "in_progress",
        },
      },
      {
        type: "item.completed",
        item: {
          id: "item_1",
          type: "mcp_tool_call",
          server: "interpreter",
          tool: "read_file",
          arguments: { path: "a.txt" },
          result: null,
          error: { message: "ENOENT" },
          status: "failed",
        },
      },
      { type: "turn.completed", usage: USAGE },
    ],
  },
  {
    name: "plans: a todo_list started, updated, completed at the end; plan tool calls are no items",
    events: [
      call({ kind: "think", name: "update_plan" }),
      {
        type: "plan",
        entries: [
          { content: "read", status: "in_progress" },
          { content: "write", status: "pending" },
        ],
      },
      done({}),
      {
        type: "plan",
        entries: [
          { content: "read", status: "completed" },
          { content: "write", status: "completed" },
        ],
      },
    ],
    expected: [
      {
        type: "item.started",
        item: {
          id: "item_0",
          type: "todo_list",
          items: [
            { text: "read", completed: false },
            { text: "write", completed: false },
          ],
        },
      },
      {
        type: "item.updated",
        item: {
          id: "item_0",
          type: "todo_list",
          items: [
            { text: "read", completed: true },
            { text: "write", completed: true },
          ],
        },
      },
      {
        type: "item.completed",
        item: {
          id: "item_0",
          type: "todo_list",
          items: [
            { text: "read", completed: true },
            { text: "write", completed: true },
          ],
        },
      },
      { type: "turn.completed", usage: USAGE },
    ],
  },
  {
    name: "warnings are error items; an error notice and a failed turn",
    events: [
      { type: "notice", severity: "warning", text: "no sandbox" },
      { type: "notice", severity: "error", text: "HTTP 404: model not found" },
    ],
    outcome: { error: "HTTP 404: model not found" },
    expected: [
      { type: "item.completed", item: { id: "item_0", type: "error", message: "no sandbox" } },
      { type: "error", message: "HTTP 404: model not found" },
      { type: "turn.failed", error: { message: "HTTP 404: model not found" } },
    ],
  },
  {
    name: "a cancelled turn fails; a call still running is closed as failed",
    events: [call({ kind: "execute", input: { command: "sleep 9" } })],
    outcome: { stopReason: "cancelled" },
    expected: [
      {
        type: "item.started",
        item: {
          id: "item_0",
          type: "command_execution",
          command: "sleep 9",
          aggregated_output: "",
          exit_code: null,
          status: "in_progress",
        },
      },
      {
        type: "item.completed",
        item: {
          id: "item_0",
          type: "command_execution",
          command: "sleep 9",
          aggregated_output: "",
          exit_code: 1,
          status: "failed",
        },
      },
      { type: "turn.failed", error: { message: "turn cancelled" } },
    ],
  },
];

describe("Codex JSONL mapping", () => {
  it.each(CASES)("$name", ({ events, outcome, expected }) => {
    const mapper = createCodexMapper();
    const out = [...events.flatMap((e) => mapper.map(e)), ...mapper.finish(outcome ?? END)];
    expect(out).toEqual(expected);
  });

  it("starts with the thread and the turn, and keeps the final message only on success", () => {
    const ok = createCodexMapper();
    expect(ok.start("abc")).toEqual([{ type: "thread.started", thread_id: "abc" }, { type: "turn.started" }]);
    ok.map({ type: "text", text: '  {"a":1}\n' });
    ok.finish(END);
    expect(ok.finalMessage()).toBe('{"a":1}');
    const failed = createCodexMapper();
    failed.map({ type: "text", text: "partial" });
    failed.finish({ stopReason: "max_tokens" });
    expect(failed.finalMessage()).toBeUndefined();
  });
});

describe("ACP updates as run events", () => {
  const run = (output: Parameters<typeof toSessionUpdates>[0]) =>
    toSessionUpdates(output).flatMap(toRunEvents);

  it("tells the agent's own warnings and errors from model text", () => {
    expect(
      run({ type: "event", event: { type: "notice", severity: "warning", text: "no sandbox" } }),
    ).toEqual([{ type: "notice", severity: "warning", text: "no sandbox" }]);
    expect(
      run({ type: "event", event: { type: "notice", severity: "error", text: "HTTP 500\nbody" } }),
    ).toEqual([{ type: "notice", severity: "error", text: "HTTP 500\nbody" }]);
    expect(
      run({
        type: "event",
        event: {
          type: "assistant_message",
          turnId: "t",
          step: 0,
          text: "**Warning:** just text",
          reasoning: "",
        },
      }),
    ).toEqual([{ type: "text", text: "**Warning:** just text" }]);
  });

  it("takes command output out of its code fence", () => {
    for (const text of ["a\nb\n", "has ``` inside\n", ""]) expect(unfence(fence(text))).toBe(text);
    expect(run({ type: "tool_progress", callId: "c", text: "so far\n" })).toEqual([
      { type: "tool_output", callId: "c", text: "so far\n" },
    ]);
  });
});
