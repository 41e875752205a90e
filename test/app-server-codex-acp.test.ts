import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream, type SessionUpdate } from "@agentclientprotocol/sdk/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { CALC_TEST, writeCalcProject } from "./support/calc-project.js";
import { TEST_CEILING } from "./support/ceiling.js";
import { codexBin } from "./support/codex-schema.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { tempDir, until } from "./support/in-process.js";
import { LAUNCHER } from "./support/spawn-agent.js";

const require = createRequire(import.meta.url);
const CODEX_ACP = (() => {
  try {
    return require.resolve("@agentclientprotocol/codex-acp/dist/index.js");
  } catch {
    return undefined;
  }
})();
const CODEX_ACP_VERSION = CODEX_ACP
  ? (require("@agentclientprotocol/codex-acp/package.json") as { version: string }).version
  : "not installed";

const FIX_PATCH = [
  "*** Begin Patch",
  "*** Update File: calc.mjs",
  "-  return a - b;",
  "+  return a + b;",
  "*** End Patch",
].join("\n");
/** Models outside Codex's catalog patch through the shell: `apply_patch` as a heredoc. */
const FIX_COMMAND = { cmd: `apply_patch <<'EOF'\n${FIX_PATCH}\nEOF` };

let model: FakeModel | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
  await model?.close();
});

/** codex-acp as Zed starts it, with CODEX_PATH at a wrapper that runs our `interpreter`. */
function startCodexAcp(home: string, modelUrl: string) {
  const wrapper = path.join(home, "codex-wrapper.sh");
  writeFileSync(wrapper, `#!/bin/sh\nexec "${LAUNCHER}" "$@" -m mock-model\n`);
  chmodSync(wrapper, 0o755);
  const child = spawn(process.execPath, [CODEX_ACP!], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      INTERPRETER_HOME: home,
      CODEX_PATH: wrapper,
      ...(process.env.OI_CODEX_ACP_LOGS ? { APP_SERVER_LOGS: process.env.OI_CODEX_ACP_LOGS } : {}),
      OPENAI_BASE_URL: modelUrl,
      OPENAI_API_KEY: "sk-canary-9012",
      ...TEST_CEILING,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  children.push(child);
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (c: string) => {
    stderr += c;
  });
  const updates: SessionUpdate[] = [];
  const permissions: string[] = [];
  const editor = client({ name: "test-editor" })
    .onNotification(methods.client.session.update, ({ params }) => {
      updates.push(params.update);
    })
    .onRequest(methods.client.session.requestPermission, async ({ params }) => {
      permissions.push(params.toolCall.title ?? "");
      const allow = params.options.find((o) => o.kind === "allow_once") ?? params.options[0]!;
      return { outcome: { outcome: "selected", optionId: allow.optionId } };
    });
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
  );
  const connection = editor.connect(stream);
  return { child, connection, updates, permissions, stderr: () => stderr };
}

const INIT = { protocolVersion: 1, clientCapabilities: {} } as const;
const suite = CODEX_ACP && codexBin() ? describe : describe.skip;

suite(`codex-acp ${CODEX_ACP_VERSION} driving interpreter app-server`, () => {
  it("fixes a project with an approved test run, lists and loads the session in a fresh process, and cancels a command with no survivors", async () => {
    model = await startFakeModel();
    const home = tempDir("oi-home-");
    const cwd = tempDir("oi-ws-");
    writeCalcProject(cwd);
    const first = startCodexAcp(home, model.url);
    const { agent } = first.connection;
    const init = await agent.request(methods.agent.initialize, INIT);
    expect((init as { agentInfo?: { name?: string } }).agentInfo?.name).toBe(
      "@agentclientprotocol/codex-acp",
    );
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });

    model.reply(
      { toolCalls: [{ id: "p1", name: "exec_command", arguments: FIX_COMMAND }] },
      { toolCalls: [{ id: "t1", name: "exec_command", arguments: { cmd: "node test.mjs" } }] },
      { text: "Fixed: add adds and the tests pass." },
    );
    const done = await agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "fix add and run the tests" }],
    });
    expect(done.stopReason).toBe("end_turn");
    expect(readFileSync(path.join(cwd, "calc.mjs"), "utf8")).toContain("return a + b;");
    expect(readFileSync(path.join(cwd, "test.mjs"), "utf8")).toBe(CALC_TEST);
    expect(first.permissions).toHaveLength(1);
    const said = first.updates
      .flatMap((u) =>
        u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? [u.content.text] : [],
      )
      .join("");
    expect(said).toContain("Fixed: add adds and the tests pass.");
    const tools = first.updates.filter(
      (u) => u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update",
    );
    expect(JSON.stringify(tools)).toContain("TESTS PASSED");

    const listed = await agent.request(methods.agent.session.list, {});
    expect(listed.sessions.map((s) => s.sessionId)).toContain(sessionId);
    first.child.stdin!.end();
    await until(() => first.child.exitCode !== null, 10_000);

    const second = startCodexAcp(home, model.url);
    await second.connection.agent.request(methods.agent.initialize, INIT);
    await second.connection.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    const replayed = JSON.stringify(second.updates);
    expect(replayed).toContain("fix add and run the tests");
    expect(replayed).toContain("Fixed: add adds and the tests pass.");

    model.reply({
      toolCalls: [
        {
          id: "s1",
          name: "exec_command",
          arguments: { cmd: "sleep 37; echo late > late.txt", yield_time_ms: 30_000 },
        },
      ],
    });
    const prompt = second.connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "wait a while" }],
    });
    await until(() => survivors().length > 0, 15_000);
    await second.connection.agent.notify(methods.agent.session.cancel, { sessionId });
    expect((await prompt).stopReason).toBe("cancelled");
    await until(() => survivors().length === 0, 10_000);
    second.child.stdin!.end();
    await until(() => second.child.exitCode !== null, 10_000);
    expect(survivors()).toEqual([]);
    expect(readFileSync(path.join(cwd, "calc.mjs"), "utf8")).toContain("return a + b;");
    expect(JSON.stringify([first.updates, second.updates])).not.toContain("sk-canary-9012");
    expect(existsSync(path.join(cwd, "late.txt"))).toBe(false);
    model.assertDone();
  }, 90_000);

  it("forks a session, titles the fork and steers its running turn, all through codex-acp", async () => {
    model = await startFakeModel();
    const home = tempDir("oi-home-");
    const cwd = tempDir("oi-ws-");
    const acp = startCodexAcp(home, model.url);
    const { agent } = acp.connection;
    const init = await agent.request(methods.agent.initialize, INIT);
    expect(
      (init as { agentCapabilities?: { sessionCapabilities?: object } }).agentCapabilities
        ?.sessionCapabilities,
    ).toMatchObject({ fork: {} });
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    model.reply({ text: "Noted: the number is 42." });
    await agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "remember the number 42" }],
    });

    const fork = await agent.request(methods.agent.session.fork, { sessionId, cwd, mcpServers: [] });
    expect(fork.sessionId).not.toBe(sessionId);
    await agent.request(methods.agent.session.setTitle, {
      sessionId: fork.sessionId,
      title: "the 42 branch",
    });
    const listed = await agent.request(methods.agent.session.list, {});
    expect(listed.sessions.find((s) => s.sessionId === fork.sessionId)?.title).toBe("the 42 branch");

    // The fork's turn streams slowly; a steer sent meanwhile joins it before its next request.
    model.reply({ text: "Doubling it.", chunkSize: 2, delayMs: 20 }, { text: "84, and halved: 21." });
    const turn = agent.request(methods.agent.session.prompt, {
      sessionId: fork.sessionId,
      prompt: [{ type: "text", text: "double the number" }],
    });
    await until(() => model!.requests.length === 2, 15_000);
    const steered = await agent.request("_session/steering", {
      sessionId: fork.sessionId,
      prompt: [{ type: "text", text: "also halve it" }],
    });
    expect(steered).toMatchObject({ outcome: "injected" });
    expect((await turn).stopReason).toBe("end_turn");
    const last = JSON.stringify(model.requests.at(-1)!.body.messages);
    // The fork saw the source's history, its own prompt, its first answer, then the steer.
    expect(last).toMatch(
      /remember the number 42.*Noted: the number is 42\..*double the number.*Doubling it\..*also halve it/,
    );
    acp.child.stdin!.end();
    await until(() => acp.child.exitCode !== null, 10_000);
    model.assertDone();
  }, 60_000);
});

/** The test's own sleep, wherever it runs (a sandbox may re-parent it). */
function survivors(): string[] {
  const out = execFileSync("ps", ["-eo", "pid,args"], { encoding: "utf8" });
  return out.split("\n").filter((l) => l.includes("sleep 37") && !l.includes("ps -eo"));
}
