import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { methods } from "@agentclientprotocol/sdk/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { checkById, type DoctorJson, runCli } from "./support/doctor-run.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { startInProcess, tempDir } from "./support/in-process.js";
import { type AgentProcess, spawnAgent } from "./support/spawn-agent.js";
import { INIT, testClient } from "./support/test-client.js";

const HARNESS_IDS =
  "codex, claude-code, claude-code-bare, kimi-code, qwen-code, gemini-cli, pi, opencode, mini-swe-agent, hermes, swe-agent, terminus-2, little-coder, kimi-cli, deepseek-tui, minimal, zcode";
const UNCONFIGURED = "Nothing is configured yet: no model and no endpoint.";

let model: FakeModel | undefined;
const agents: AgentProcess[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) if (agent.child.exitCode === null) agent.child.kill("SIGKILL");
  await model?.close();
  model = undefined;
});

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe("a first run with nothing configured", () => {
  it("exec ends with one message naming what to set, exit 1, nothing on stdout", async () => {
    const home = tempDir("oi-home-");
    const result = await runCli(["exec", "hello"], { home });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(occurrences(result.stderr, UNCONFIGURED)).toBe(1);
    expect(result.stderr).toContain("OPENAI_BASE_URL");
    expect(result.stderr).toContain(path.join(home, "config.toml"));
    expect(result.stderr).not.toContain("retrying");
  });

  it("exec with a model but no key for hosted OpenAI says so once, before any request", async () => {
    const home = tempDir("oi-home-");
    const result = await runCli(["exec", "-m", "gpt-5", "hello"], { home });
    expect(result.code).toBe(1);
    expect(occurrences(result.stderr, "No API key for OpenAI")).toBe(1);
    expect(result.stderr).toContain("OPENAI_API_KEY");
    expect(result.stderr).not.toContain("retrying");
    expect(result.stderr).not.toContain("Cannot reach");
  });

  it("a provider whose env_key is unset is named before sending", async () => {
    model = await startFakeModel();
    const home = tempDir("oi-home-");
    writeFileSync(
      path.join(home, "config.toml"),
      `model_provider = "ds"\n[model_providers.ds]\nname = "DeepSeek"\nbase_url = "${model.url}"\nenv_key = "DEEPSEEK_API_KEY"\n`,
    );
    const result = await runCli(["exec", "-m", "deepseek-chat", "hello"], { home });
    expect(result.code).toBe(1);
    expect(occurrences(result.stderr, "reads its API key from `DEEPSEEK_API_KEY`, which is not set")).toBe(1);
    expect(model.requests).toHaveLength(0);
  });

  it("ACP: the prompt fails with a readable JSON-RPC error and agent text; after setting the variable the session works", async () => {
    const home = tempDir("oi-home-");
    const cwd = tempDir("oi-ws-");
    const first = spawnAgent({ home });
    agents.push(first);
    const editor = testClient();
    const connection = editor.app.connect(first.stream);
    await connection.agent.request(methods.agent.initialize, INIT);
    const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const failed = connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "hello" }],
    });
    await expect(failed).rejects.toMatchObject({ message: expect.stringContaining(UNCONFIGURED) });
    expect(occurrences(editor.text(sessionId), UNCONFIGURED)).toBe(1);
    first.child.stdin!.end();
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(first.violations).toEqual([]);

    // The user sets the endpoint in the editor's agent settings; the editor restarts the agent.
    model = await startFakeModel();
    const second = spawnAgent({ home, env: { OPENAI_BASE_URL: model.url }, args: ["-m", "mock-model"] });
    agents.push(second);
    const editor2 = testClient();
    const connection2 = editor2.app.connect(second.stream);
    await connection2.agent.request(methods.agent.initialize, INIT);
    await connection2.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    model.reply({ text: "Hello there." });
    const response = await connection2.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "hello again" }],
    });
    expect(response.stopReason).toBe("end_turn");
    expect(editor2.text(sessionId)).toContain("Hello there.");
    second.child.stdin!.end();
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(second.violations).toEqual([]);
  });

  it("doctor words the endpoint and harness checks without empty values", async () => {
    const home = tempDir("oi-home-");
    const result = await runCli(["doctor", "--json"], { home });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as DoctorJson;
    expect(checkById(report, "endpoint")).toMatchObject({
      status: "fail",
      detail: "Nothing is configured yet: no model and no endpoint",
      fix: expect.stringContaining("OPENAI_BASE_URL"),
    });
    expect(checkById(report, "models").status).toBe("skip");
    expect(checkById(report, "harness").detail).toBe(
      "codex (automatic: the default while no model is configured)",
    );
    const text = (await runCli(["doctor"], { home })).stdout;
    expect(text).not.toMatch(/''|for \)|\(model ''\)/);
  });

  it("doctor names no empty model when only the endpoint is set", async () => {
    const home = tempDir("oi-home-");
    const closed = await startFakeModel();
    await closed.close();
    const result = await runCli(["doctor", "--json"], { home, env: { OPENAI_BASE_URL: closed.url } });
    const endpoint = checkById(JSON.parse(result.stdout) as DoctorJson, "endpoint");
    expect(endpoint.detail).toContain(`Cannot reach openai at ${closed.url}: connection refused`);
    expect(endpoint.detail).not.toContain("model");
  });

  it("doctor says why a port that fetch refuses cannot be reached", async () => {
    const result = await runCli(["doctor", "--json"], {
      home: tempDir("oi-home-"),
      env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
    });
    expect(checkById(JSON.parse(result.stdout) as DoctorJson, "endpoint").detail).toContain(
      "Cannot reach openai at http://127.0.0.1:9/v1: fetch refuses this port (one of the ports browsers block)",
    );
  });
});

describe("an unknown harness is refused, naming where it came from and the ids that exist", () => {
  const cases: Array<{ source: string; args: string[]; file?: string; expected: (file: string) => string }> =
    [
      { source: "flag", args: ["--harness", "nosuch"], expected: () => "--harness" },
      { source: "-c", args: ["-c", "harness=nosuch"], expected: () => "-c harness" },
      { source: "config file", args: [], file: 'harness = "nosuch"\n', expected: (f) => `${f}: harness` },
      {
        source: "profile",
        args: ["--profile", "p"],
        file: '[profiles.p]\nharness = "nosuch"\n',
        expected: (f) => `${f}: profiles.p.harness`,
      },
    ];
  for (const c of cases) {
    it(`from the ${c.source}`, async () => {
      model = await startFakeModel();
      const home = tempDir("oi-home-");
      const file = path.join(home, "config.toml");
      if (c.file) writeFileSync(file, c.file);
      const result = await runCli(["exec", "-m", "mock-model", ...c.args, "hello"], {
        home,
        env: { OPENAI_BASE_URL: model.url },
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `interpreter: ${c.expected(file)}: unknown harness "nosuch"; known harnesses: ${HARNESS_IDS}\n`,
      );
      expect(model.requests).toHaveLength(0);
    });
  }

  it("refuses a harness on a wire its original does not speak, before any request", async () => {
    model = await startFakeModel();
    const home = tempDir("oi-home-");
    const file = path.join(home, "config.toml");
    writeFileSync(
      file,
      `model_provider = "m"\nharness = "kimi-code"\n[model_providers.m]\nbase_url = "${model.url}"\nwire_api = "messages"\n`,
    );
    const result = await runCli(["exec", "-m", "kimi-k2", "hello"], { home, env: {} });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `interpreter: ${file}: harness: harness "kimi-code" does not run on wire_api = "messages" (it runs on chat); harnesses for "messages": claude-code, claude-code-bare, zcode\n`,
    );
    expect(model.requests).toHaveLength(0);
  });

  it("from the ACP harness config option: invalid params listing the ids, the session unchanged", async () => {
    model = await startFakeModel();
    const oi = await startInProcess({ model });
    try {
      const { sessionId } = await oi.newSession();
      await expect(
        oi.agent.request(methods.agent.session.setConfigOption, {
          sessionId,
          configId: "harness",
          value: "nosuch",
        }),
      ).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining(
          `harness option: unknown harness "nosuch"; known harnesses: ${HARNESS_IDS}`,
        ),
      });
      model.reply({ text: "still codex" });
      await oi.prompt(sessionId, "hi");
      expect(model.requests[0]!.body.tools).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ function: expect.objectContaining({ name: "exec_command" }) }),
        ]),
      );
    } finally {
      await oi.close();
    }
  });

  it("from a trusted project's config: a notice naming the file, and the session chooses by model", async () => {
    model = await startFakeModel();
    const oi = await startInProcess({ model });
    try {
      const cwd = tempDir("oi-ws-");
      mkdirSync(path.join(cwd, ".git"), { recursive: true });
      writeFileSync(path.join(cwd, ".git", "HEAD"), "ref: refs/heads/main\n");
      mkdirSync(path.join(cwd, ".openinterpreter"));
      const projectFile = path.join(cwd, ".openinterpreter", "config.toml");
      writeFileSync(projectFile, 'harness = "nosuch"\n');
      await runCli(["trust", cwd], { home: oi.home, env: { OPENAI_BASE_URL: model.url } });
      const { sessionId } = await oi.newSession({ cwd });
      const expected = `${projectFile}: harness: unknown harness "nosuch"; known harnesses: ${HARNESS_IDS}`;
      await expect.poll(() => oi.editor.text(sessionId)).toContain(expected);
      model.reply({ text: "ok" });
      await oi.prompt(sessionId, "hi");
      expect(oi.editor.text(sessionId)).toContain("ok");
    } finally {
      await oi.close();
    }
  });
});
