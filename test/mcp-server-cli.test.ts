import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  type CallToolResult,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { TEST_CEILING } from "./support/ceiling.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { tempDir } from "./support/in-process.js";
import { needs } from "./support/requires.js";
import { BIN } from "./support/spawn-agent.js";

// `interpreter mcp-server` driven by the MCP SDK's own client over stdio, against the scripted
// fake model: what an MCP host that delegates coding work would see.

let model: FakeModel | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await model?.close();
  client = undefined;
  model = undefined;
});

async function connect(options: { elicit?: "accept" | "decline" | "cancel" } = {}) {
  const home = tempDir("oi-home-");
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp-server", "-m", "mock-model"],
    env: {
      PATH: process.env.PATH ?? "",
      HOME: home,
      INTERPRETER_HOME: home,
      ...TEST_CEILING,
      OPENAI_BASE_URL: model!.url,
      OPENAI_API_KEY: "sk-x",
    },
    stderr: "pipe",
  });
  const elicited: string[] = [];
  const logs: string[] = [];
  client = new Client(
    { name: "test-host", version: "1" },
    { capabilities: options.elicit ? { elicitation: {} } : {} },
  );
  if (options.elicit) {
    const action = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      elicited.push(request.params.message);
      return { action };
    });
  }
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logs.push(String(n.params.data));
  });
  await client.connect(transport);
  return { client, elicited, logs };
}

function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/** A command asking to leave the read-only sandbox: only a person's yes lets it run. */
const ESCALATED_TOUCH = {
  cmd: "touch x.txt",
  sandbox_permissions: "require_escalated",
  justification: "make x",
};

const call = (c: Client, name: string, args: Record<string, unknown>, extra = {}) =>
  c.callTool({ name, arguments: args }, undefined, extra) as Promise<CallToolResult>;

describe("interpreter mcp-server", () => {
  it("lists upstream's two tools with their parameters", async () => {
    model = await startFakeModel();
    const { client: c } = await connect();
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual(["codex", "codex-reply"]);
    const [start, reply] = tools;
    expect(Object.keys(start!.inputSchema.properties ?? {}).sort()).toEqual(
      [
        "approval-policy",
        "base-instructions",
        "compact-prompt",
        "config",
        "cwd",
        "developer-instructions",
        "harness",
        "mode",
        "model",
        "prompt",
        "sandbox",
      ].sort(),
    );
    expect(start!.inputSchema.required).toEqual(["prompt"]);
    expect(Object.keys(reply!.inputSchema.properties ?? {}).sort()).toEqual([
      "conversationId",
      "prompt",
      "threadId",
    ]);
    expect(start!.outputSchema?.required).toEqual(["threadId", "content"]);
  });

  needs("bwrap").it("edits a file and runs a command, then continues by id with history", async () => {
    model = await startFakeModel();
    const cwd = tempDir("oi-ws-");
    writeFileSync(path.join(cwd, "a.txt"), "old\n");
    model.reply(
      {
        toolCalls: [
          {
            name: "exec_command",
            arguments: {
              cmd: "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: a.txt\n@@\n-old\n+new\n*** End Patch\nEOF",
            },
          },
        ],
      },
      { toolCalls: [{ name: "exec_command", arguments: { cmd: "cat a.txt > b.txt" } }] },
      { text: "Changed a.txt." },
      { text: "You asked me to change a.txt." },
    );
    const { client: c, logs } = await connect();
    const progress: string[] = [];
    const first = await call(
      c,
      "codex",
      { prompt: "change a.txt", cwd, sandbox: "danger-full-access" },
      { onprogress: (p: { message?: string }) => progress.push(p.message ?? "") },
    );
    expect(first.isError).toBeFalsy();
    expect(textOf(first)).toBe("Changed a.txt.");
    expect(readFileSync(path.join(cwd, "a.txt"), "utf8")).toBe("new\n");
    expect(readFileSync(path.join(cwd, "b.txt"), "utf8")).toBe("new\n");
    expect(progress.some((line) => line.includes("cat a.txt"))).toBe(true);
    expect(logs.some((line) => line.includes("cat a.txt"))).toBe(true);
    const threadId = (first.structuredContent as { threadId: string }).threadId;
    expect(threadId).toBeTruthy();

    const second = await call(c, "codex-reply", { threadId, prompt: "what did I ask?" });
    expect(textOf(second)).toBe("You asked me to change a.txt.");
    const shown = JSON.stringify(model.requests.at(-1)!.body.messages);
    expect(shown).toContain("change a.txt");
    expect(shown).toContain("Changed a.txt.");
    expect((second.structuredContent as { threadId: string }).threadId).toBe(threadId);
  });

  for (const [answer, made] of [
    ["accept", true],
    ["decline", false],
  ] as const) {
    needs("bwrap").it(`asks approvals through elicitation (${answer})`, async () => {
      model = await startFakeModel();
      const cwd = tempDir("oi-ws-");
      model.reply({ toolCalls: [{ name: "exec_command", arguments: ESCALATED_TOUCH }] }, { text: "ok" });
      const { client: c, elicited } = await connect({ elicit: answer });
      const result = await call(c, "codex", { prompt: "make x", cwd, sandbox: "read-only" });
      expect(elicited).toHaveLength(1);
      expect(elicited[0]).toContain("touch x.txt");
      expect(existsSync(path.join(cwd, "x.txt"))).toBe(made);
      expect(textOf(result)).toContain("ok");
    });
  }

  it("refuses approvals with a clear text when the client cannot elicit", async () => {
    model = await startFakeModel();
    const cwd = tempDir("oi-ws-");
    model.reply({ toolCalls: [{ name: "exec_command", arguments: ESCALATED_TOUCH }] }, { text: "ok" });
    const { client: c } = await connect();
    const result = await call(c, "codex", { prompt: "make x", cwd, sandbox: "read-only" });
    expect(existsSync(path.join(cwd, "x.txt"))).toBe(false);
    expect(textOf(result)).toMatch(/refused without asking.*elicitation.*touch x\.txt/);
  });

  it("cancelling the request ends the turn and its command", async () => {
    model = await startFakeModel();
    const cwd = tempDir("oi-ws-");
    model.reply(
      {
        toolCalls: [
          {
            name: "exec_command",
            arguments: { cmd: "echo $$ > pid.txt; exec sleep 60", yield_time_ms: 30_000 },
          },
        ],
      },
      { text: "never" },
    );
    const { client: c } = await connect();
    const controller = new AbortController();
    const pending = call(
      c,
      "codex",
      { prompt: "wait", cwd, sandbox: "danger-full-access" },
      { signal: controller.signal },
    ).catch((error: Error) => error);
    const pidFile = path.join(cwd, "pid.txt");
    for (let i = 0; i < 200 && !(existsSync(pidFile) && readFileSync(pidFile, "utf8").trim()); i++)
      await new Promise((r) => setTimeout(r, 50));
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    let alive = true;
    for (let i = 0; i < 100 && alive; i++) {
      try {
        process.kill(pid, 0);
        await new Promise((r) => setTimeout(r, 50));
      } catch {
        alive = false;
      }
    }
    expect(alive).toBe(false);
  });

  needs("bwrap").it("starts the session in the harness and mode it is given", async () => {
    model = await startFakeModel();
    const cwd = tempDir("oi-ws-");
    model.reply({ toolCalls: [{ name: "Bash", arguments: { command: "touch x.txt" } }] }, { text: "Tried." });
    const { client: c } = await connect();
    const result = await call(c, "codex", {
      prompt: "make x",
      cwd,
      harness: "claude-code",
      mode: "read-only",
    });
    expect(result.isError).toBeFalsy();
    const tools = (model.requests[0]!.body.tools as Array<{ function: { name: string } }>).map(
      (t) => t.function.name,
    );
    expect(tools).toContain("Bash");
    expect(tools).not.toContain("exec_command");
    // Read-only: a command that writes needs a yes, which this client cannot give.
    expect(existsSync(path.join(cwd, "x.txt"))).toBe(false);
    expect(textOf(result)).toContain("refused without asking");
    expect(JSON.stringify(model.requests.at(-1)!.body.messages)).toContain("<tool_use_error>");
  });

  it("answers bad input with a clear error", async () => {
    model = await startFakeModel();
    const { client: c } = await connect();
    const unknown = await call(c, "codex-reply", { threadId: "no-such-session", prompt: "hi" });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain("unknown session id: no-such-session");
    const missing = await call(c, "codex", {});
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain("missing field `prompt`");
    const badCwd = await call(c, "codex", { prompt: "hi", cwd: "/nonexistent/dir" });
    expect(textOf(badCwd)).toContain("/nonexistent/dir: not a directory");
    const extra = await call(c, "codex", { prompt: "hi", profile: "work" });
    expect(textOf(extra)).toContain("unknown field `profile`");
    const both = await call(c, "codex", { prompt: "hi", mode: "auto", sandbox: "read-only" });
    expect(textOf(both)).toContain("give either mode or sandbox, not both");
    const badMode = await call(c, "codex", { prompt: "hi", mode: "yolo" });
    expect(textOf(badMode)).toContain("mode must be one of read-only, workspace-write, auto");
    const badHarness = await call(c, "codex", { prompt: "hi", harness: "nope" });
    expect(badHarness.isError).toBe(true);
    expect(textOf(badHarness)).toMatch(/unknown harness "nope"; known harnesses: codex, claude-code/);
  });
});
