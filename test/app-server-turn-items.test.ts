import { describe, expect, it } from "vitest";
import type { SessionUpdate } from "../src/acp/local-client.js";
import { modeOf } from "../src/app-server/app-server-methods.js";
import { createTurnItems, wholeDiff } from "../src/app-server/turn-items.js";

const mapper = () => createTurnItems({ threadId: "th", turnId: "tu", cwd: "/w", now: () => 1000 });
const run = (updates: SessionUpdate[]) => {
  const m = mapper();
  const notices = updates.flatMap((u) => m.map(u));
  return [...notices, ...m.finish()].map(
    (n) => `${n.method}${"item" in n.params ? ` ${(n.params.item as { type: string }).type}` : ""}`,
  );
};

describe("ACP updates as Codex app-server items", () => {
  it.each<[string, SessionUpdate[], string[]]>([
    [
      "text streams as one agent message",
      [
        { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hel" } },
        { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "lo" } },
      ],
      [
        "item/started agentMessage",
        "item/agentMessage/delta",
        "item/agentMessage/delta",
        "item/completed agentMessage",
      ],
    ],
    [
      "reasoning closes before the answer starts",
      [
        { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hmm" } },
        { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "ok" } },
      ],
      [
        "item/started reasoning",
        "item/reasoning/textDelta",
        "item/completed reasoning",
        "item/started agentMessage",
        "item/agentMessage/delta",
        "item/completed agentMessage",
      ],
    ],
    [
      "a command streams only what extends the shown tail",
      [
        {
          sessionUpdate: "tool_call",
          toolCallId: "c",
          title: "ls",
          kind: "execute",
          rawInput: { command: "ls" },
        },
        {
          sessionUpdate: "tool_call_update",
          toolCallId: "c",
          status: "in_progress",
          content: [{ type: "content", content: { type: "text", text: "a" } }],
        },
        {
          sessionUpdate: "tool_call_update",
          toolCallId: "c",
          status: "in_progress",
          content: [{ type: "content", content: { type: "text", text: "ab" } }],
        },
        { sessionUpdate: "tool_call_update", toolCallId: "c", status: "completed", content: [] },
      ],
      [
        "item/started commandExecution",
        "item/commandExecution/outputDelta",
        "item/commandExecution/outputDelta",
        "item/completed commandExecution",
      ],
    ],
    [
      "a plan is a plan update, not an item",
      [{ sessionUpdate: "plan", entries: [{ content: "fix", status: "in_progress", priority: "medium" }] }],
      ["turn/plan/updated"],
    ],
    [
      "a call still open at the end completes as failed",
      [
        {
          sessionUpdate: "tool_call",
          toolCallId: "r",
          title: "Read a.txt",
          kind: "read",
          rawInput: { path: "a.txt" },
        },
      ],
      ["item/started mcpToolCall", "item/completed mcpToolCall"],
    ],
  ])("%s", (_name, updates, expected) => {
    expect(run(updates)).toEqual(expected);
  });

  it("a failed command keeps the exit code the harness told the model", () => {
    const m = mapper();
    m.map({
      sessionUpdate: "tool_call",
      toolCallId: "c",
      title: "t",
      kind: "execute",
      rawInput: { command: "false" },
    });
    const [done] = m.map({
      sessionUpdate: "tool_call_update",
      toolCallId: "c",
      status: "failed",
      content: [],
      rawOutput: { output: "Exit code: 3\nOutput:\n" },
    });
    expect(done!.params.item).toMatchObject({
      type: "commandExecution",
      status: "failed",
      exitCode: 3,
      command: "false",
    });
  });

  it("diffs are one unified hunk over the changed lines", () => {
    expect(wholeDiff("a\nb\nc\n", "a\nB\nc\n")).toBe("@@ -2,1 +2,1 @@\n-b\n+B\n");
  });
});

describe("a Codex client's per-turn policy as our mode", () => {
  it.each<[string, Record<string, unknown>, string | undefined]>([
    ["read-only sandbox", { sandboxPolicy: { type: "readOnly" }, approvalPolicy: "on-request" }, "read-only"],
    [
      "workspace sandbox",
      { sandboxPolicy: { type: "workspaceWrite" }, approvalPolicy: "on-request" },
      "workspace-write",
    ],
    [
      "no sandbox, never ask",
      { sandboxPolicy: { type: "dangerFullAccess" }, approvalPolicy: "never" },
      "full-access",
    ],
    [
      "no sandbox but asking",
      { sandboxPolicy: { type: "dangerFullAccess" }, approvalPolicy: "on-request" },
      undefined,
    ],
    ["nothing sent", {}, undefined],
  ])("%s", (_name, params, mode) => {
    expect(modeOf(params)).toBe(mode);
  });
});
