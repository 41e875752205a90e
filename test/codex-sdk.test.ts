import { readFileSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Codex, type ThreadEvent, type ThreadItem } from "@openai/codex-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { tempDir } from "./support/in-process.js";
import { needs } from "./support/requires.js";
import { BIN } from "./support/spawn-agent.js";

/**
 * The real @openai/codex-sdk drives our binary through `codexPathOverride`: the argv it builds
 * (`exec --experimental-json --config openai_base_url=... --model ... --sandbox ... --cd ...
 * --skip-git-repo-check [--output-schema F] [resume <id>] [--image F]`, prompt on stdin,
 * CODEX_API_KEY in the environment) must run our agent, and our JSONL must parse as its events.
 */
let model: FakeModel;
let codex: Codex;
let codexBin: string;
const home = tempDir("oi-home-");
const cwd = realpathSync(tempDir("oi-ws-"));

beforeAll(async () => {
  model = await startFakeModel();
  codexBin = path.join(tempDir("oi-codex-bin-"), "codex");
  writeFileSync(codexBin, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
  codex = new Codex({
    codexPathOverride: codexBin,
    baseUrl: model.url,
    apiKey: "sk-test-codex",
    // Flattened by the SDK into `--config model_providers.openai.request_max_retries=0`.
    config: { model_providers: { openai: { request_max_retries: 0 } } },
    // The SDK passes only this environment: no OPENAI_* variables reach our binary.
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, INTERPRETER_HOME: home },
  });
});
afterAll(async () => model?.close());

const THREAD = {
  model: "mock-model",
  sandboxMode: "workspace-write",
  workingDirectory: cwd,
  skipGitRepoCheck: true,
  // Codex-only settings, passed as `--config` pairs our config must tolerate.
  approvalPolicy: "never",
  networkAccessEnabled: false,
  modelReasoningEffort: "low",
  webSearchMode: "disabled",
} as const;

const byType = <T extends ThreadItem["type"]>(items: ThreadItem[], type: T) =>
  items.filter((i): i is Extract<ThreadItem, { type: T }> => i.type === type);

describe("@openai/codex-sdk driving interpreter exec", () => {
  needs("bwrap").it("runs a task, streams a second turn, and resumes the thread", async () => {
    const patch = "*** Begin Patch\n*** Add File: notes.md\n+remember this\n*** End Patch";
    model.reply(
      {
        toolCalls: [
          { name: "exec_command", arguments: { cmd: "printf 'hello\\n' > out.txt && cat out.txt" } },
        ],
        usage: { prompt_tokens: 50, completion_tokens: 7 },
      },
      {
        // Models outside Codex's catalog patch through the shell.
        toolCalls: [{ name: "exec_command", arguments: { cmd: `apply_patch <<'EOF'\n${patch}\nEOF` } }],
        usage: { prompt_tokens: 80, completion_tokens: 9, cached_tokens: 40 },
      },
      {
        text: "Wrote out.txt and notes.md.",
        usage: { prompt_tokens: 100, completion_tokens: 4, cached_tokens: 80 },
      },
    );
    const thread = codex.startThread(THREAD);
    const turn = await thread.run("make two files");

    expect(turn.finalResponse).toBe("Wrote out.txt and notes.md.");
    expect(thread.id).toMatch(/^[0-9a-f-]{36}$/);
    const [command] = byType(turn.items, "command_execution");
    expect(command).toMatchObject({ aggregated_output: "hello\n", exit_code: 0, status: "completed" });
    expect(command!.command).toContain("printf");
    expect(byType(turn.items, "file_change")).toEqual([
      expect.objectContaining({
        changes: [{ path: path.join(cwd, "notes.md"), kind: "add" }],
        status: "completed",
      }),
    ]);
    expect(turn.items.at(-1)).toMatchObject({ type: "agent_message", text: "Wrote out.txt and notes.md." });
    expect(turn.usage).toEqual({
      input_tokens: 230,
      cached_input_tokens: 120,
      output_tokens: 20,
      cache_write_input_tokens: 0, // filled in by the SDK
    });
    expect(readFileSync(path.join(cwd, "out.txt"), "utf8")).toBe("hello\n");
    expect(readFileSync(path.join(cwd, "notes.md"), "utf8")).toBe("remember this\n");
    expect(model.requests[0]!.headers.authorization).toBe("Bearer sk-test-codex");

    // A second run on the same Thread: the SDK adds `resume <id>` itself.
    model.reply(
      { toolCalls: [{ name: "exec_command", arguments: { cmd: "cat notes.md" } }] },
      { reasoning: "all done", text: "Checked." },
    );
    const streamed = await thread.runStreamed("check it");
    const events: ThreadEvent[] = [];
    for await (const event of streamed.events) events.push(event);
    expect(
      events.map((e) =>
        e.type.startsWith("item.") ? `${e.type}:${(e as { item: ThreadItem }).item.type}` : e.type,
      ),
    ).toEqual([
      "thread.started",
      "turn.started",
      "item.started:command_execution",
      "item.completed:command_execution",
      "item.completed:reasoning",
      "item.completed:agent_message",
      "turn.completed",
    ]);
    expect(events[0]).toEqual({ type: "thread.started", thread_id: thread.id });
    expect(events[3]).toMatchObject({
      item: {
        command: "cat notes.md",
        aggregated_output: "remember this\n",
        exit_code: 0,
        status: "completed",
      },
    });

    // resumeThread(id) in a fresh Thread, with an output schema and an image.
    const image = path.join(cwd, "dot.png");
    writeFileSync(image, Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    model.reply({ text: '{"files":2}' });
    const resumed = codex.resumeThread(thread.id as string, THREAD);
    const last = await resumed.run(
      [
        { type: "text", text: "how many files?" },
        { type: "local_image", path: image },
      ],
      { outputSchema: { type: "object", properties: { files: { type: "number" } }, required: ["files"] } },
    );
    expect(JSON.parse(last.finalResponse)).toEqual({ files: 2 });
    const request = model.requests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
    const history = JSON.stringify(request);
    expect(history).toContain("make two files");
    expect(history).toContain("Wrote out.txt and notes.md.");
    expect(history).toContain("check it");
    const user = request.at(-1)!.content as Array<{ type: string; text?: string }>;
    expect(user[0]).toEqual({ type: "text", text: "how many files?" });
    expect(user[1]!.text).toContain('"required":["files"]');
    expect(user[2]).toEqual({ type: "image_url", image_url: { url: "data:image/png;base64,iVBORw==" } });
    model.assertDone();
  });

  it("streams a plan tool's list as a todo_list item (Claude Code's TodoWrite; Codex has no plan tool)", async () => {
    const planning = new Codex({
      codexPathOverride: codexBin,
      baseUrl: model.url,
      apiKey: "sk-test-codex",
      config: { harness: "claude-code", model_providers: { openai: { request_max_retries: 0 } } },
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, INTERPRETER_HOME: home },
    });
    const todos = [{ content: "check", status: "completed", activeForm: "Checking" }];
    model.reply(
      { toolCalls: [{ name: "TodoWrite", arguments: { todos } }] },
      { reasoning: "all done", text: "Checked." },
    );
    const streamed = await planning.startThread(THREAD).runStreamed("check it");
    const events: ThreadEvent[] = [];
    for await (const event of streamed.events) events.push(event);
    expect(
      events.map((e) =>
        e.type.startsWith("item.") ? `${e.type}:${(e as { item: ThreadItem }).item.type}` : e.type,
      ),
    ).toEqual([
      "thread.started",
      "turn.started",
      "item.started:todo_list",
      "item.completed:reasoning",
      "item.completed:agent_message",
      "item.completed:todo_list",
      "turn.completed",
    ]);
    expect(events[2]).toMatchObject({ item: { items: [{ text: "check", completed: true }] } });
    model.assertDone();
  });

  it("turns a failed turn into a rejected run()", async () => {
    model.reply({ status: 400, body: { error: { message: "context too long for mock-model" } } });
    const thread = codex.startThread(THREAD);
    await expect(thread.run("hi")).rejects.toThrow(/400|context too long/);
    model.assertDone();
  });
});
