import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, expect } from "vitest";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess, tempDir } from "./support/in-process.js";
import { needs } from "./support/requires.js";

let model: FakeModel;
let oi: InProcessAgent;
afterEach(async () => {
  await oi?.close();
  await model?.close();
});

type Body = { messages: Array<{ role: string; content: string }> };

needs("bwrap").it(
  "confines approved commands, and runs an approved escalation outside the sandbox for that call only",
  async () => {
    model = await startFakeModel();
    oi = await startInProcess({ model });
    const { sessionId } = await oi.newSession();
    const outside = tempDir("oi-outside-");
    const first = path.join(outside, "first.txt");
    const second = path.join(outside, "second.txt");
    model.reply(
      { toolCalls: [{ id: "c1", name: "exec_command", arguments: { cmd: `touch ${first}` } }] },
      {
        toolCalls: [
          {
            id: "c2",
            name: "exec_command",
            arguments: {
              cmd: `touch ${second}`,
              sandbox_permissions: "require_escalated",
              justification: "The file lives outside the workspace.",
            },
          },
        ],
      },
      { toolCalls: [{ id: "c3", name: "exec_command", arguments: { cmd: `touch ${first}` } }] },
      { text: "done" },
    );
    expect(await oi.prompt(sessionId, "make the files")).toBe("end_turn");
    // Allowed, but still confined: the sandbox refused the write outside the workspace.
    expect(existsSync(first)).toBe(false);
    const firstResult = (model.requests[1]!.body as Body).messages.find((m) => m.role === "tool")!.content;
    // (Inside the sandbox /tmp is private, so the folder outside the workspace does not even exist.)
    expect(firstResult).toMatch(
      /^Chunk ID: [0-9a-f]{6}\nWall time: \d+\.\d{4} seconds\nProcess exited with code 1\n[\s\S]*(Read-only file system|Permission denied|No such file or directory)/,
    );
    // The escalation was asked for with its justification and ran unconfined.
    expect(oi.editor.permissions[1]!.toolCall.title).toBe(`touch ${second}`);
    expect(oi.editor.permissions[1]!.options.find((o) => o.kind === "allow_always")?.name).toContain(
      "outside the sandbox",
    );
    expect(existsSync(second)).toBe(true);
    // The next call is confined again.
    expect(existsSync(first)).toBe(false);
    expect(oi.editor.permissions).toHaveLength(3);
  },
);
