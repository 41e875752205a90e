import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { tempDir } from "./support/in-process.js";
import { BIN } from "./support/spawn-agent.js";

let model: FakeModel;
afterEach(async () => model?.close());

function run(args: string[], options: { cwd?: string; home?: string } = {}) {
  const home = options.home ?? tempDir("oi-home-");
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? tempDir("oi-ws-"),
    env: {
      PATH: process.env.PATH,
      HOME: home,
      INTERPRETER_HOME: home,
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: "sk-x",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("exit", (code) => resolve({ code, stdout, stderr })),
  );
}

describe("interpreter exec", () => {
  it("prints the answer on stdout and exits 0", async () => {
    model = await startFakeModel();
    model.reply({ text: "The answer is 42." });
    const result = await run(["exec", "-m", "mock-model", "what is the answer?"]);
    expect(result).toMatchObject({ code: 0, stdout: "The answer is 42.\n" });
    expect((model.requests[0]!.body.messages as Array<{ content: string }>).at(-1)!.content).toBe(
      "what is the answer?",
    );
  });

  it("runs commands with --full-auto, progress on stderr", async () => {
    model = await startFakeModel();
    const cwd = tempDir("oi-ws-");
    model.reply(
      { toolCalls: [{ name: "shell_command", arguments: { command: "touch made.txt" } }] },
      { text: "Made it." },
    );
    const result = await run(["exec", "-m", "mock-model", "--full-auto", "make a file"], { cwd });
    expect(result.code).toBe(0);
    expect(existsSync(path.join(cwd, "made.txt"))).toBe(true);
    expect(result.stderr).toContain("✓ touch made.txt");
    expect(result.stdout).toBe("Made it.\n");
  });

  it("rejects what needs approval when nobody can answer", async () => {
    model = await startFakeModel();
    const cwd = tempDir("oi-ws-");
    model.reply(
      { toolCalls: [{ name: "shell_command", arguments: { command: "touch no.txt" } }] },
      { text: "ok" },
    );
    const result = await run(["exec", "-m", "mock-model", "make a file"], { cwd });
    expect(existsSync(path.join(cwd, "no.txt"))).toBe(false);
    expect(result.stderr).toContain("needs approval, rejected: touch no.txt");
  });

  it("fails with a readable message when the endpoint does", async () => {
    model = await startFakeModel();
    model.reply({ status: 404, body: { error: { message: "model 'nope' not found" } } });
    const result = await run([
      "exec",
      "-m",
      "nope",
      "-c",
      "model_providers.openai.request_max_retries=0",
      "hi",
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/404/);
    expect(result.stderr).toMatch(/nope/);
  });

  it("exits 2 on usage errors", async () => {
    model = await startFakeModel();
    expect((await run(["exec"])).code).toBe(2);
    expect((await run(["bogus"])).code).toBe(2);
    expect((await run(["--no-such-flag"])).code).toBe(2);
  });
});
