import { describe, expect, it } from "vitest";
import { type ClientFeatures, toSessionUpdates } from "../src/acp/map-output.js";
import type { SessionOutput } from "../src/sessions/types.js";
import type { HistoryEventOf } from "../src/store/events.js";
import { createAcpValidator } from "./support/acp-schema.js";

const patchCall: HistoryEventOf<"tool_call"> = {
  type: "tool_call",
  turnId: "t",
  step: 1,
  callId: "c",
  name: "apply_patch",
  harness: "codex",
  capability: "patch",
  arguments: '{"input":"x"}',
  title: "Edit a.txt",
  kind: "edit",
  locations: [{ path: "/w/a.txt" }],
  display: [{ type: "diff", path: "/w/a.txt", oldText: "a", newText: "b" }],
};

const cases: Array<[string, SessionOutput, unknown[]]> = [
  [
    "user text",
    { type: "event", event: { type: "user_message", turnId: "t", content: [{ type: "text", text: "hi" }] } },
    [{ sessionUpdate: "user_message_chunk", content: { type: "text", text: "hi" } }],
  ],
  [
    "reasoning before text",
    {
      type: "event",
      event: { type: "assistant_message", turnId: "t", step: 1, text: "answer", reasoning: "why" },
    },
    [
      { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "why" } },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "answer" } },
    ],
  ],
  [
    "tool call with its preview diff",
    {
      type: "event",
      event: patchCall,
    },
    [
      {
        sessionUpdate: "tool_call",
        toolCallId: "c",
        title: "Edit a.txt",
        name: "apply_patch",
        kind: "edit",
        status: "pending",
        locations: [{ path: "/w/a.txt" }],
        content: [{ type: "diff", path: "/w/a.txt", oldText: "a", newText: "b" }],
        rawInput: { input: "x" },
      },
    ],
  ],
  [
    "rejected call shows what the model was told",
    {
      type: "event",
      event: { type: "tool_result", turnId: "t", callId: "c", status: "rejected", output: "no", display: [] },
    },
    [
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "c",
        status: "failed",
        content: [{ type: "content", content: { type: "text", text: "no" } }],
        rawOutput: { output: "no" },
      },
    ],
  ],
  [
    "a result with an image shows the image",
    {
      type: "event",
      event: {
        type: "tool_result",
        turnId: "t",
        callId: "c",
        status: "completed",
        output: "[image]",
        display: [],
        parts: [
          { type: "text", text: "<image>" },
          { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=", detail: "high" },
        ],
      },
    },
    [
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "c",
        status: "completed",
        content: [
          { type: "content", content: { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" } },
        ],
        rawOutput: { output: "[image]" },
      },
    ],
  ],
  [
    "a replayed call with its result: one finished call showing the result",
    {
      type: "finished_call",
      call: patchCall,
      result: { type: "tool_result", turnId: "t", callId: "c", status: "failed", output: "no", display: [] },
    },
    [
      {
        sessionUpdate: "tool_call",
        toolCallId: "c",
        title: "Edit a.txt",
        name: "apply_patch",
        kind: "edit",
        status: "failed",
        locations: [{ path: "/w/a.txt" }],
        content: [{ type: "content", content: { type: "text", text: "no" } }],
        rawInput: { input: "x" },
        rawOutput: { output: "no" },
      },
    ],
  ],
  [
    "usage",
    {
      type: "event",
      event: {
        type: "usage",
        turnId: "t",
        inputTokens: 10,
        outputTokens: 5,
        contextUsed: 15,
        contextSize: 100,
      },
    },
    [{ sessionUpdate: "usage_update", used: 15, size: 100 }],
  ],
  [
    "bookkeeping events show nothing",
    { type: "event", event: { type: "turn_started", turnId: "t", pid: 1 } },
    [],
  ],
  [
    "live output is fenced",
    { type: "tool_progress", callId: "c", text: "line\n" },
    [
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "c",
        content: [{ type: "content", content: { type: "text", text: "```\nline\n```" } }],
      },
    ],
  ],
  [
    "interrupted turn fails its open calls and says so",
    { type: "interrupted", turnId: "t", openCallIds: ["c"] },
    [
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "c",
        status: "failed",
        content: [
          { type: "content", content: { type: "text", text: expect.stringMatching(/^Interrupted/) } },
        ],
      },
      {
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: expect.stringMatching(/interrupted/) },
      },
    ],
  ],
  [
    "title",
    { type: "title", title: "Fix tests", updatedAt: "2026-01-01T00:00:00.000Z" },
    [{ sessionUpdate: "session_info_update", title: "Fix tests", updatedAt: "2026-01-01T00:00:00.000Z" }],
  ],
  ...(["completed", "timed_out"] as const).map((status): [string, SessionOutput, unknown[]] => [
    `background command ${status}: one line of ours`,
    {
      type: "event",
      event: {
        type: "background_ended",
        id: "bash-ve626g9y",
        harness: "kimi-code",
        command: "npm run   dev",
        cwd: "/w",
        status,
        exitCode: status === "completed" ? 0 : null,
        outputBytes: 0,
        outputTail: "",
        durationMs: 5,
      },
    },
    [
      {
        sessionUpdate: "agent_message_chunk",
        content: {
          type: "text",
          text:
            status === "completed"
              ? "Background command `bash-ve626g9y` exited with code 0: `npm run dev`\n"
              : "Background command `bash-ve626g9y` was stopped by its time limit: `npm run dev`\n",
        },
        _meta: { "openinterpreter/notice": { severity: status === "completed" ? "info" : "warning" } },
      },
    ],
  ]),
];

describe("toSessionUpdates", () => {
  it.each(cases)("%s", (_name, output, expected) => {
    expect(toSessionUpdates(output)).toEqual(expected);
  });
});

const compaction = {
  type: "event",
  event: { type: "compaction", id: "compaction-1", reason: "threshold", summary: "did X", replaced: 12 },
} as const satisfies SessionOutput;
const oldCompaction = {
  type: "event",
  event: { type: "compaction", summary: "did X", replaced: 12 },
} as const satisfies SessionOutput;
const compactionCases: Array<[string, SessionOutput, ClientFeatures, unknown[]]> = [
  [
    "compaction, editor with compaction support",
    compaction,
    { compaction: true },
    [
      {
        sessionUpdate: "compaction_update",
        compactionId: "compaction-1",
        status: "completed",
        summary: [{ type: "text", text: "did X" }],
      },
    ],
  ],
  [
    "compaction stored without an id gets one from its position",
    oldCompaction,
    { compaction: true },
    [expect.objectContaining({ sessionUpdate: "compaction_update", compactionId: "compaction-12" })],
  ],
  [
    "compaction, editor without compaction support",
    compaction,
    {},
    [
      {
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: expect.stringMatching(/12 earlier events/) },
      },
    ],
  ],
  [
    "compaction starting",
    { type: "compaction", compactionId: "compaction-1", status: "in_progress" },
    { compaction: true },
    [{ sessionUpdate: "compaction_update", compactionId: "compaction-1", status: "in_progress" }],
  ],
  [
    "compaction failing",
    { type: "compaction", compactionId: "compaction-1", status: "failed", error: "HTTP 500" },
    { compaction: true },
    [
      {
        sessionUpdate: "compaction_update",
        compactionId: "compaction-1",
        status: "failed",
        error: "HTTP 500",
      },
    ],
  ],
  [
    "compaction starting, editor without compaction support",
    { type: "compaction", compactionId: "compaction-1", status: "in_progress" },
    {},
    [
      {
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: expect.stringMatching(/Compacting/) },
      },
    ],
  ],
  [
    "compaction failing, editor without compaction support (the notice says it)",
    { type: "compaction", compactionId: "compaction-1", status: "failed", error: "HTTP 500" },
    {},
    [],
  ],
];

describe("toSessionUpdates for compactions", () => {
  const acp = createAcpValidator();
  it.each(compactionCases)("%s", (_name, output, features, expected) => {
    const updates = toSessionUpdates(output, features);
    expect(updates).toEqual(expected);
    // Each one is a valid `session/update` of the SDK's stable v1 schema.
    for (const update of updates) {
      acp.check({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update } }, new Map());
    }
  });
});

describe("fence", () => {
  it("outlasts any backtick run in the output", async () => {
    const { fence } = await import("../src/tools/markdown-fence.js");
    expect(fence("a\n")).toBe("```\na\n```");
    expect(fence("x ```` y")).toBe("`````\nx ```` y\n`````");
  });
});
