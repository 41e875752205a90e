import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TEST_CEILING } from "./support/ceiling.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { tempDir } from "./support/in-process.js";
import { needs } from "./support/requires.js";
import { BIN } from "./support/spawn-agent.js";

let model: FakeModel;
afterEach(async () => model?.close());

function run(args: string[], options: { cwd?: string; home?: string; stdin?: string } = {}) {
  const home = options.home ?? tempDir("oi-home-");
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? tempDir("oi-ws-"),
    env: {
      PATH: process.env.PATH,
      HOME: home,
      INTERPRETER_HOME: home,
      ...TEST_CEILING,
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: "sk-x",
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  // No stdin text: an empty pipe, as from a script (never a terminal).
  child.stdin.end(options.stdin ?? "");
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("exit", (code) => resolve({ code, stdout, stderr })),
  );
}

function userContent(request: number): unknown {
  const messages = model.requests[request]!.body.messages as Array<{ role: string; content: unknown }>;
  return messages.filter((m) => m.role === "user").at(-1)!.content;
}

function jsonLines(stdout: string): Array<Record<string, unknown> & { type: string }> {
  return stdout
    .trimEnd()
    .split("\n")
    .map((line) => {
      const event = JSON.parse(line) as Record<string, unknown> & { type: string };
      expect(typeof event.type).toBe("string");
      return event;
    });
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

  needs("bwrap").it("runs commands with --full-auto, progress on stderr", async () => {
    model = await startFakeModel();
    const cwd = tempDir("oi-ws-");
    model.reply(
      { toolCalls: [{ name: "exec_command", arguments: { cmd: "touch made.txt" } }] },
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
      { toolCalls: [{ name: "exec_command", arguments: { cmd: "touch no.txt" } }] },
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
  it("reads the prompt from stdin (absent or `-`), runs in -C, writes --output-last-message", async () => {
    model = await startFakeModel();
    model.reply({ text: "first answer" }, { text: "second" });
    const dir = tempDir("oi-ws-");
    const out = path.join(tempDir("oi-out-"), "last.txt");
    const piped = await run(["exec", "-m", "mock-model", "-C", dir, "-o", out], {
      stdin: "prompt from stdin\n",
    });
    expect(piped).toMatchObject({ code: 0, stdout: "first answer\n" });
    expect(readFileSync(out, "utf8")).toBe("first answer");
    expect(userContent(0)).toContain("prompt from stdin");
    expect(JSON.stringify(model.requests[0]!.body.messages)).toContain(dir);
    const dash = await run(["exec", "-m", "mock-model", "-"], { stdin: "dash prompt" });
    expect(dash.code).toBe(0);
    expect(userContent(1)).toBe("dash prompt");
  });

  it("refuses writes by default (read-only, like codex exec); --mode workspace-write allows them", async () => {
    model = await startFakeModel();
    const cwd = tempDir("oi-ws-");
    const patch = "*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch";
    const edit = {
      toolCalls: [{ name: "exec_command", arguments: { cmd: `apply_patch <<'EOF'\n${patch}\nEOF` } }],
    };
    model.reply(edit, { text: "could not" }, edit, { text: "wrote it" });
    const refused = await run(["exec", "-m", "mock-model", "add hello"], { cwd });
    expect(refused.code).toBe(0);
    expect(existsSync(path.join(cwd, "hello.txt"))).toBe(false);
    expect(refused.stderr).toContain("(read-only)");
    expect(refused.stderr).toContain("needs approval, rejected: Create hello.txt");
    const allowed = await run(["exec", "-m", "mock-model", "--mode", "workspace-write", "add hello"], {
      cwd,
    });
    expect(allowed).toMatchObject({ code: 0, stdout: "wrote it\n" });
    expect(readFileSync(path.join(cwd, "hello.txt"), "utf8")).toBe("hi\n");
  });

  it("--json prints Codex JSONL only: every line an event with a type, usage at the end", async () => {
    model = await startFakeModel();
    model.reply(
      {
        text: "Checking.",
        toolCalls: [{ name: "exec_command", arguments: { cmd: "echo hi" } }],
        usage: { prompt_tokens: 100, completion_tokens: 5 },
      },
      { text: "Said hi.", usage: { prompt_tokens: 120, completion_tokens: 3, cached_tokens: 100 } },
    );
    const result = await run(["exec", "--json", "-m", "mock-model", "say hi"]);
    expect(result.code).toBe(0);
    const events = jsonLines(result.stdout);
    expect(events.map((e) => e.type)).toEqual([
      "thread.started",
      "turn.started",
      "item.completed",
      "item.started",
      "item.completed",
      "item.completed",
      "turn.completed",
    ]);
    expect(events[0]!.thread_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(events[2]!.item).toEqual({ id: "item_0", type: "agent_message", text: "Checking." });
    expect(events[3]!.item).toMatchObject({
      id: "item_1",
      type: "command_execution",
      command: "echo hi",
      status: "in_progress",
    });
    expect(events[4]!.item).toEqual({
      id: "item_1",
      type: "command_execution",
      command: "echo hi",
      aggregated_output: "hi\n",
      exit_code: 0,
      status: "completed",
    });
    expect(events[5]!.item).toEqual({ id: "item_2", type: "agent_message", text: "Said hi." });
    expect(events[6]!.usage).toEqual({ input_tokens: 220, cached_input_tokens: 100, output_tokens: 8 });
  });

  it("--experimental-json reports a failed turn as turn.failed and exits 1", async () => {
    model = await startFakeModel();
    model.reply({ status: 401, body: { error: { message: "invalid api key sk-x" } } });
    const retries = ["-c", "model_providers.openai.request_max_retries=0"];
    const result = await run(["exec", "--experimental-json", "-m", "mock-model", ...retries, "hi"]);
    expect(result.code).toBe(1);
    const events = jsonLines(result.stdout);
    expect(events.slice(0, 2).map((e) => e.type)).toEqual(["thread.started", "turn.started"]);
    expect(events.at(-1)).toMatchObject({
      type: "turn.failed",
      error: { message: expect.stringMatching(/401/) },
    });
  });

  it("sends --image as image content and --output-schema as an instruction; resume <id> continues", async () => {
    model = await startFakeModel();
    const home = tempDir("oi-home-");
    const cwd = tempDir("oi-ws-");
    writeFileSync(path.join(cwd, "dot.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    writeFileSync(path.join(cwd, "schema.json"), JSON.stringify({ type: "object", required: ["n"] }));
    model.reply({ text: '{"n":1}' }, { text: "two" });
    const args = ["exec", "--json", "-m", "mock-model"];
    const first = await run([...args, "-i", "dot.png", "--output-schema", "schema.json", "count"], {
      cwd,
      home,
    });
    expect(first.code).toBe(0);
    const threadId = jsonLines(first.stdout)[0]!.thread_id as string;
    const content = userContent(0) as Array<{ type: string; text?: string; image_url?: { url: string } }>;
    expect(content[0]).toEqual({ type: "text", text: "count" });
    expect(content[1]!.text).toContain('{"type":"object","required":["n"]}');
    expect(content[2]).toEqual({ type: "image_url", image_url: { url: "data:image/png;base64,iVBORw==" } });
    const second = await run([...args, "resume", threadId, "and again"], { cwd, home });
    expect(second.code).toBe(0);
    expect(jsonLines(second.stdout)[0]).toEqual({ type: "thread.started", thread_id: threadId });
    const history = JSON.stringify(model.requests[1]!.body.messages);
    expect(history).toContain('{\\"n\\":1}');
    expect(userContent(1)).toBe("and again");
    model.reply({ text: "three" });
    const latest = await run([...args, "resume", "--last", "once more"], { cwd, home });
    expect(jsonLines(latest.stdout)[0]).toEqual({ type: "thread.started", thread_id: threadId });
    expect(JSON.stringify(model.requests[2]!.body.messages)).toContain("and again");
    const unknown = await run([...args, "resume", "no-such-session", "x"], { cwd, home });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no-such-session");
  });
});
