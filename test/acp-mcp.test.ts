import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { methods } from "@agentclientprotocol/sdk/unstable";
import { afterEach, expect, it } from "vitest";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess, tempDir, until } from "./support/in-process.js";
import { BIN, MARKER_VAR, newMarker, processesWithMarker } from "./support/mcp-helpers.js";

let model: FakeModel;
let oi: InProcessAgent;
afterEach(async () => {
  await oi?.close();
  await model?.close();
});

type Body = {
  tools?: Array<{ function: { name: string } }>;
  messages: Array<{ role: string; content: string }>;
};

it("connects MCP servers from config and from the editor, gates their tools, and stops them on close", async () => {
  model = await startFakeModel();
  const files = tempDir("oi-mcp-files-");
  writeFileSync(path.join(files, "notes.txt"), "remember the milk\n");
  const marker = newMarker();
  const configToml = [
    "[mcp_servers.files]",
    `command = ${JSON.stringify(path.join(BIN, "mcp-server-filesystem"))}`,
    `args = [${JSON.stringify(files)}]`,
    `env = { ${MARKER_VAR} = "${marker}" }`,
    "[mcp_servers.broken]",
    'command = "/nonexistent/server"',
  ].join("\n");
  oi = await startInProcess({ model, configToml: `${configToml}\n` });
  const cwd = tempDir("oi-ws-");
  const { sessionId } = await oi.agent.request(methods.agent.session.new, {
    cwd,
    mcpServers: [
      {
        name: "everything",
        command: path.join(BIN, "mcp-server-everything"),
        args: ["stdio"],
        env: [{ name: MARKER_VAR, value: marker }],
      },
    ],
  });

  model.reply(
    {
      toolCalls: [
        { id: "m1", name: "mcp__files__read_text_file", arguments: { path: path.join(files, "notes.txt") } },
        {
          id: "m2",
          name: "mcp__files__write_file",
          arguments: { path: path.join(files, "new.txt"), content: "hi" },
        },
        { id: "m3", name: "mcp__everything__echo", arguments: { message: "ping" } },
      ],
    },
    { text: "done" },
  );
  oi.editor.setPermission((request) => (request.toolCall.toolCallId === "m2" ? "allow_once" : "reject_once"));
  expect(await oi.prompt(sessionId, "use the tools")).toBe("end_turn");

  const first = model.requests[0]!.body as Body;
  const names = (first.tools ?? []).map((t) => t.function.name);
  expect(names).toEqual(
    expect.arrayContaining(["exec_command", "mcp__files__read_text_file", "mcp__everything__echo"]),
  );
  expect(names.some((n) => n.startsWith("mcp__broken"))).toBe(false);
  // Read-only tools run unasked; the write asked once.
  expect(oi.editor.permissions.map((p) => p.toolCall.toolCallId)).toEqual(["m2"]);
  expect(readFileSync(path.join(files, "new.txt"), "utf8")).toBe("hi");
  const results = (model.requests[1]!.body as Body).messages
    .filter((m) => m.role === "tool")
    .map((m) => m.content);
  expect(results[0]).toContain("remember the milk");
  expect(results[2]).toContain("ping");

  await oi.prompt(sessionId, "/mcp");
  const status = oi.editor.text(sessionId);
  expect(status).toMatch(/`files` \(stdio, from config\): \d+ tools/);
  expect(status).toMatch(/`everything` \(stdio, from acp\): \d+ tools/);
  expect(status).toMatch(/`broken` .*failed/);

  expect(processesWithMarker(marker).length).toBeGreaterThanOrEqual(2);
  await oi.agent.request(methods.agent.session.close, { sessionId });
  await until(() => processesWithMarker(marker).length === 0, 5_000);
});
