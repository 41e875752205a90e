import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { spawnAppServer } from "./support/app-server-client.js";
import { writeCalcProject } from "./support/calc-project.js";
import { codexBin, codexVersion, createCodexValidator } from "./support/codex-schema.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { tempDir, until } from "./support/in-process.js";

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
const servers: Array<ReturnType<typeof spawnAppServer>> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) if (s.child.exitCode === null) s.child.kill("SIGKILL");
  await model?.close();
});

const suite = codexBin() ? describe : describe.skip;

suite(`interpreter app-server against the schema of @openai/codex ${codexBin() ? codexVersion() : "(not installed)"}`, () => {
  it("runs an edit-and-test turn with a command approval; every message it writes is schema-valid", async () => {
    model = await startFakeModel();
    const home = tempDir("oi-home-");
    const cwd = tempDir("oi-ws-");
    writeCalcProject(cwd);
    const approvals: Array<{ method?: string; params?: Record<string, unknown> }> = [];
    const server = spawnAppServer({
      home,
      env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-canary-5678" },
      args: ["-m", "mock-model"],
      onServerRequest(m) {
        approvals.push(m);
        return { decision: "accept" };
      },
    });
    servers.push(server);
    const init = await server.request("initialize", {
      clientInfo: { name: "t", version: "1" },
      capabilities: {},
    });
    expect(init.codexHome).toBe(home);
    server.notify("initialized");
    expect(await server.request("account/read", { refreshToken: false })).toMatchObject({
      requiresOpenaiAuth: false,
      account: { type: "apiKey" },
    });
    await server.request("config/read", { includeLayers: false });
    const started = await server.request("thread/start", { cwd });
    const threadId = started.thread.id as string;
    expect(started.model).toBe("mock-model");
    const models = await server.request("model/list", {});
    expect(models.data.map((m: { id: string }) => m.id)).toContain("mock-model");

    model.reply(
      {
        reasoning: "the sign is wrong",
        toolCalls: [{ id: "p1", name: "exec_command", arguments: FIX_COMMAND }],
      },
      { toolCalls: [{ id: "t1", name: "exec_command", arguments: { cmd: "node test.mjs" } }] },
      { text: "Fixed: add adds, the tests pass." },
    );
    const turn = await server.request("turn/start", {
      threadId,
      input: [{ type: "text", text: "fix add", text_elements: [] }],
    });
    expect(turn.turn.status).toBe("inProgress");
    await until(() => server.notifications("turn/completed").length === 1, 20_000);
    const completed = server.notifications("turn/completed")[0]!.params.turn;
    expect(completed.status).toBe("completed");
    expect(readFileSync(path.join(cwd, "calc.mjs"), "utf8")).toContain("return a + b;");

    const items = server.notifications("item/completed").map((m) => m.params.item);
    expect(items.map((i) => i.type)).toEqual([
      "userMessage",
      "reasoning",
      "fileChange",
      "commandExecution",
      "agentMessage",
    ]);
    expect(items[2]).toMatchObject({
      status: "completed",
      changes: [{ path: path.join(cwd, "calc.mjs"), kind: { type: "update" } }],
    });
    expect(items[2].changes[0].diff).toContain("+  return a + b;");
    expect(items[3]).toMatchObject({ command: "node test.mjs", exitCode: 0, status: "completed" });
    expect(items[3].aggregatedOutput).toContain("TESTS PASSED");
    expect(items[4].text).toBe("Fixed: add adds, the tests pass.");
    const deltas = server
      .notifications("item/agentMessage/delta")
      .map((m) => m.params.delta)
      .join("");
    expect(deltas).toBe("Fixed: add adds, the tests pass.");
    const usage = server.notifications("thread/tokenUsage/updated");
    expect(usage).toHaveLength(1);
    expect(usage[0]!.params.tokenUsage.total.outputTokens).toBeGreaterThan(0);
    expect(approvals.map((a) => a.method)).toEqual(["item/commandExecution/requestApproval"]);
    expect(approvals[0]!.params).toMatchObject({ threadId, itemId: items[3].id, command: "node test.mjs" });

    const listed = await server.request("thread/list", {});
    expect(listed.data.map((t: { id: string }) => t.id)).toContain(threadId);
    const read = await server.request("thread/read", { threadId, includeTurns: true });
    expect(read.thread.turns).toHaveLength(1);
    const harnesses = await server.request("interpreter/harness/list", { threadId });
    expect(harnesses.data.length).toBeGreaterThan(1);
    // A fork: a new thread holding the history so far, named on its own; the source is kept.
    const fork = await server.request("thread/fork", { threadId });
    const forkId = fork.thread.id as string;
    expect(forkId).not.toBe(threadId);
    expect(JSON.stringify(fork.thread.turns)).toContain("Fixed: add adds, the tests pass.");
    await until(() => server.notifications("thread/started").some((n) => n.params.thread.id === forkId));
    await server.request("thread/name/set", { threadId: forkId, name: "calc, second attempt" });
    await until(() => server.notifications("thread/name/updated").length === 1);
    expect(server.notifications("thread/name/updated")[0]!.params).toEqual({
      threadId: forkId,
      threadName: "calc, second attempt",
    });
    const names = (await server.request("thread/list", {})).data.map((t: { id: string; name: string }) => [
      t.id,
      t.name,
    ]);
    expect(names).toContainEqual([forkId, "calc, second attempt"]);
    expect(names).toContainEqual([threadId, "fix add"]);
    await expect(server.request("thread/fork", { threadId, lastTurnId: "t-0" })).rejects.toThrow(
      /lastTurnId/,
    );
    await expect(server.request("thread/name/set", { threadId, name: " " })).rejects.toThrow(/title/);
    await server.request("thread/archive", { threadId: forkId });
    await until(() => server.notifications("thread/archived").length === 1);
    const ids = async (params: Record<string, unknown>) =>
      (await server.request("thread/list", params)).data.map((t: { id: string }) => t.id);
    expect(await ids({})).toEqual([threadId]);
    expect(await ids({ archived: true })).toEqual([forkId]);
    const unarchived = await server.request("thread/unarchive", { threadId: forkId });
    expect(unarchived.thread.id).toBe(forkId);
    expect((await ids({})).sort()).toEqual([threadId, forkId].sort());
    await expect(server.request("thread/archive", { threadId: "nope" })).rejects.toThrow(/no thread/);
    await server.request("thread/delete", { threadId });
    expect((await server.request("thread/list", {})).data.map((t: { id: string }) => t.id)).toEqual([forkId]);
    await expect(server.request("thread/read", { threadId })).rejects.toThrow(/no thread/);

    server.child.stdin!.end();
    expect(await server.exited).toBe(0);
    expect(server.violations).toEqual([]);
    expect([...server.unchecked]).toEqual(["interpreter/harness/list"]);
    expect(server.messages.map((m) => JSON.stringify(m)).join("\n")).not.toContain("sk-canary-5678");
    model.assertDone();
  });

  it("asks before an edit in read-only mode with a file-change approval, and a decline leaves the file alone", async () => {
    model = await startFakeModel();
    const home = tempDir("oi-home-");
    const cwd = tempDir("oi-ws-");
    writeCalcProject(cwd);
    writeFileSync(path.join(home, "config.toml"), 'mode = "read-only"\n');
    const asked: string[] = [];
    const server = spawnAppServer({
      home,
      env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-x" },
      args: ["-m", "mock-model"],
      onServerRequest(m) {
        asked.push(String(m.method));
        return { decision: "decline" };
      },
    });
    servers.push(server);
    await server.request("initialize", { clientInfo: { name: "t", version: "1" }, capabilities: {} });
    const { thread } = await server.request("thread/start", { cwd });
    expect(thread.id).toBeTruthy();
    model.reply(
      { toolCalls: [{ id: "p1", name: "exec_command", arguments: FIX_COMMAND }] },
      { text: "Left it as it was." },
    );
    await server.request("turn/start", {
      threadId: thread.id,
      input: [{ type: "text", text: "fix add", text_elements: [] }],
    });
    await until(() => server.notifications("turn/completed").length === 1, 20_000);
    expect(asked).toEqual(["item/fileChange/requestApproval"]);
    expect(readFileSync(path.join(cwd, "calc.mjs"), "utf8")).toContain("return a - b;");
    const change = server.notifications("item/completed").find((m) => m.params.item.type === "fileChange");
    expect(change?.params.item.status).toBe("failed");
    server.child.stdin!.end();
    expect(await server.exited).toBe(0);
    expect(server.violations).toEqual([]);
    model.assertDone();
  });

  it("steers input into the running turn with turn/steer, and refuses a steer that names no running turn", async () => {
    model = await startFakeModel();
    model.reply(
      { text: "Reading the code first.", chunkSize: 2, delayMs: 15 },
      { text: "Kept it to calc.mjs." },
    );
    const server = spawnAppServer({
      home: tempDir("oi-home-"),
      env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-x" },
      args: ["-m", "mock-model"],
      onServerRequest: () => ({ decision: "decline" }),
    });
    servers.push(server);
    await server.request("initialize", { clientInfo: { name: "t", version: "1" }, capabilities: {} });
    const { thread } = await server.request("thread/start", { cwd: tempDir("oi-ws-") });
    const threadId = thread.id as string;
    await expect(
      server.request("turn/steer", {
        threadId,
        expectedTurnId: "x",
        input: [{ type: "text", text: "hi", text_elements: [] }],
      }),
    ).rejects.toThrow(/no turn is running/);
    const { turn } = await server.request("turn/start", {
      threadId,
      input: [{ type: "text", text: "fix add", text_elements: [] }],
    });
    await until(() => model!.requests.length === 1);
    await expect(
      server.request("turn/steer", {
        threadId,
        expectedTurnId: "other",
        input: [{ type: "text", text: "x", text_elements: [] }],
      }),
    ).rejects.toThrow(/not the running turn/);
    const steered = await server.request("turn/steer", {
      threadId,
      expectedTurnId: turn.id,
      input: [{ type: "text", text: "Only touch calc.mjs.", text_elements: [] }],
    });
    expect(steered).toEqual({ turnId: turn.id });
    await until(() => server.notifications("turn/completed").length === 1, 20_000);
    expect(server.notifications("turn/completed")[0]!.params.turn.status).toBe("completed");
    // One turn: the second request carries the steer after the first answer, and the turn shows it.
    expect(model.requests).toHaveLength(2);
    expect(JSON.stringify(model.requests[1]!.body.messages.slice(-2))).toBe(
      JSON.stringify([
        { role: "assistant", content: "Reading the code first." },
        { role: "user", content: "Only touch calc.mjs." },
      ]),
    );
    const texts = server
      .notifications("item/completed")
      .map((m) => m.params.item)
      .map((i) => (i.type === "userMessage" ? `user:${i.content[0].text}` : `${i.type}:${i.text ?? ""}`));
    expect(texts).toEqual([
      "user:fix add",
      "agentMessage:Reading the code first.",
      "user:Only touch calc.mjs.",
      "agentMessage:Kept it to calc.mjs.",
    ]);
    server.child.stdin!.end();
    expect(await server.exited).toBe(0);
    expect(server.violations).toEqual([]);
  });

  it("upstream's catalog flow: pick a provider, a model and a harness, then start a thread that uses them", async () => {
    model = await startFakeModel();
    const server = spawnAppServer({
      home: tempDir("oi-home-"),
      env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-x" },
      args: ["-m", "mock-model"],
      onServerRequest: () => ({ decision: "decline" }),
    });
    servers.push(server);
    await server.request("initialize", { clientInfo: { name: "t", version: "1" }, capabilities: {} });
    const providers = await server.request("interpreter/provider/list", {});
    const current = providers.data.find((p: { isCurrent: boolean }) => p.isCurrent);
    expect(current).toMatchObject({ id: "openai", readiness: "ready", wireApi: "chat", configured: true });
    const every = await server.request("interpreter/provider/list", { includeUnconfigured: true });
    expect(every.data.length).toBeGreaterThan(providers.data.length);
    expect(await server.request("interpreter/provider/set", { providerId: "openai", profile: null })).toEqual(
      {},
    );
    await expect(server.request("interpreter/provider/set", { providerId: "deepseek" })).rejects.toThrow(
      /model_provider=.{0,2}deepseek/,
    );
    const models = await server.request("interpreter/model/list", {
      modelProvider: null,
      includeHidden: false,
    });
    expect(models.data.map((m: { model: string }) => m.model)).toContain("mock-model");
    const harnesses = await server.request("interpreter/harness/list", {
      providerId: "openai",
      model: "qwen3-coder",
    });
    const recommended = harnesses.data.filter((h: { isRecommended: boolean }) => h.isRecommended);
    expect(recommended).toMatchObject([{ id: "qwen-code", label: expect.stringContaining("(recommended)") }]);
    expect(harnesses.data.find((h: { id: string | null }) => h.id === null)).toBeDefined();
    await expect(server.request("interpreter/harness/set", { harness: "nope" })).rejects.toThrow(
      /unknown harness/,
    );
    expect(
      await server.request("interpreter/model/set", { model: "qwen3-coder", reasoningEffort: "medium" }),
    ).toEqual({});
    expect(await server.request("interpreter/harness/set", { harness: "qwen-code", profile: null })).toEqual(
      {},
    );

    const started = await server.request("thread/start", { cwd: tempDir("oi-ws-") });
    expect(started.model).toBe("qwen3-coder");
    model.reply({ text: "hello from qwen-code" });
    await server.request("turn/start", {
      threadId: started.thread.id,
      input: [{ type: "text", text: "hi", text_elements: [] }],
    });
    await until(() => server.notifications("turn/completed").length === 1, 20_000);
    const body = model.requests[0]!.body;
    expect(body.model).toBe("qwen3-coder");
    expect(body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain(
      "run_shell_command",
    );
    server.child.stdin!.end();
    expect(await server.exited).toBe(0);
    expect(server.violations).toEqual([]);
  });

  it("the schema check refuses what Codex's clients would refuse", () => {
    const validator = createCodexValidator();
    validator.check({
      method: "item/started",
      params: { threadId: "t", turnId: "u", item: { id: "i", type: "agentMessage" } },
    });
    validator.check({ id: 1, result: { thread: { id: "t" } } }, "thread/start");
    validator.check({
      method: "turn/completed",
      params: { threadId: "t", turn: { id: "u", items: [], status: "completed" } },
    });
    expect(validator.violations.map((v) => v.split(":")[0])).toEqual([
      "item/started",
      "thread/start response",
    ]);
  });
});
