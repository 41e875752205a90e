import { mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { qwenArguments } from "../src/harnesses/qwen-code/argument-order.js";
import { qwenCodeHarness } from "../src/harnesses/qwen-code/qwen-code-harness.js";
import type { HarnessContext } from "../src/harnesses/types.js";
import type { HistoryEvent } from "../src/store/events.js";
import { chatView, firstRequest, harnessWorkspace } from "./support/harness-fixtures.js";

/** A temp workspace; the harness's tools are built on the first `run`. */
const setup = (overrides: Partial<HarnessContext> = {}) =>
  harnessWorkspace(qwenCodeHarness, {
    prefix: "oi-qc-",
    context: { model: "qwen3-coder-plus", currentDate: "2026-08-21", isGitRepo: false, ...overrides },
  });

describe("grep_search, glob and list_directory", () => {
  it("prints absolute path:line:text matches, case-insensitively, with Qwen's header", async () => {
    const { run, file } = setup();
    const a = file("src/a.ts", "export function Alpha() {}\n");
    file("src/b.md", "alpha notes\n");
    expect((await run("grep_search", { pattern: "alpha", glob: "*.ts" })).output).toBe(
      `Found 1 match for pattern "alpha" in the workspace directory (filter: "*.ts"):\n---\n${a}:1:export function Alpha() {}`,
    );
    expect((await run("grep_search", { pattern: "zzz", path: "src" })).output).toBe(
      'No matches found for pattern "zzz" in path "src".',
    );
    expect((await run("grep_search", { pattern: "(" })).output).toMatch(
      /^Invalid regular expression pattern: \(\. Error: /,
    );
  });

  it("truncates grep output to the limit with a count of the lines left out", async () => {
    const { run, file } = setup();
    const many = file("many.txt", Array.from({ length: 7 }, (_, i) => `hit ${i}`).join("\n"));
    expect((await run("grep_search", { pattern: "hit", limit: 2 })).output).toBe(
      `Found 7 matches for pattern "hit" in the workspace directory:\n---\n${many}:1:hit 0\n${many}:2:hit 1\n---\n[5 lines truncated] ...`,
    );
  });

  it("globs and lists with Qwen's wording", async () => {
    const { run, file, cwd } = setup();
    file("b.txt", "12345");
    file("lib/x.js", "");
    expect((await run("glob", { pattern: "**/*.TXT" })).output).toBe(
      `Found 1 file(s) matching "**/*.TXT" in the workspace directory, sorted by modification time (newest first):\n---\n${path.join(cwd, "b.txt")}`,
    );
    expect((await run("glob", { pattern: "*.md", path: cwd })).output).toBe(
      `No files found matching pattern "*.md" within ${cwd}`,
    );
    expect((await run("list_directory", { path: cwd })).output).toBe(
      `Listed 2 item(s) in ${cwd}:\n---\n[DIR] lib\nb.txt`,
    );
    expect((await run("list_directory", { path: "lib" })).output).toBe("Path must be absolute: lib");
  });

  it("caps glob results at 100 files", async () => {
    const { run, file } = setup();
    for (let i = 0; i < 103; i++) file(`f/${i}.log`, "");
    const { output } = await run("glob", { pattern: "f/*.log" });
    expect(output.split("\n")[0]).toBe(
      'Found 103 file(s) matching "f/*.log" in the workspace directory, sorted by modification time (newest first):',
    );
    expect(output.endsWith("\n---\n[3 files truncated] ...")).toBe(true);
  });
});

describe("request layout", () => {
  it("sends the prompt with AGENTS.md, the startup context, its acknowledgement, then the conversation", () => {
    const { ctx, file } = setup({ instructions: "Use pnpm.", isGitRepo: true, sandboxed: true });
    file("README.md", "");
    file(".env", "");
    mkdirSync(path.join(ctx.cwd, "src"));
    const opened = qwenCodeHarness.open(ctx);
    const tools = opened.tools;
    const history: HistoryEvent[] = [
      { type: "user_message", turnId: "t1", content: [{ type: "text", text: "Hi" }] },
    ];
    const request = chatView(opened.render({ history, tools, ctx }));
    const [system, startup, ack, user] = request.messages;
    const prompt = system!.content as string;
    expect(prompt.startsWith("You are Qwen Code, an interactive CLI agent")).toBe(true);
    expect(
      prompt.endsWith(
        "\n\n---\n\n--- Context from: AGENTS.md ---\nUse pnpm.\n--- End of Context from: AGENTS.md ---",
      ),
    ).toBe(true);
    expect(prompt.split("\n").filter((line) => /^#{1,2} /.test(line))).toEqual([
      "# Core Mandates",
      "# Task Management",
      "# Asking questions as you work",
      "# Primary Workflows",
      "## Software Engineering Tasks",
      "## New Applications",
      "# Operational Guidelines",
      "## Tone and Style (CLI Interaction)",
      "## Security and Safety Rules",
      "## Tool Usage",
      "## Interaction Details",
      "# Sandbox",
      "# Executing actions with care",
      "# Git Repository",
      "# Examples (Illustrating Tone and Workflow)",
      "# Final Reminder",
    ]);
    expect(startup).toEqual({
      role: "user",
      content: [
        {
          type: "text",
          text: `This is the Qwen Code. We are setting up the context for our chat.\nToday's date is Friday, August 21, 2026 (formatted according to the user's locale).\nMy operating system is: linux\nI'm currently working in the directory: ${ctx.cwd}\nHere is the folder structure of the current working directories:\n\nShowing up to 20 items:\n\n${ctx.cwd}/\n├───README.md\n└───src/`,
        },
      ],
    });
    expect(ack).toEqual({ role: "assistant", content: "Got it. Thanks for the context!" });
    expect(user).toEqual({ role: "user", content: "Hi" });
    expect(request.knobs).toEqual({ max_tokens: 8000 });
  });

  it("replays tool calls with arguments in Qwen's key order and empty text as an empty string", () => {
    const { ctx } = setup();
    const opened = qwenCodeHarness.open(ctx);
    const tools = opened.tools;
    const call = (callId: string, name: string, args: string): HistoryEvent => ({
      type: "tool_call",
      turnId: "t1",
      step: 1,
      callId,
      name,
      harness: "qwen-code",
      capability: "other",
      arguments: args,
      title: name,
      kind: "other",
      locations: [],
      display: [],
    });
    const history: HistoryEvent[] = [
      { type: "user_message", turnId: "t1", content: [{ type: "text", text: "go" }] },
      { type: "assistant_message", turnId: "t1", step: 1, text: "", reasoning: "thinking\n\n" },
      call("a", "edit", '{ "new_string": "b", "old_string": "a", "extra": 1, "file_path": "/x" }'),
      call("b", "glob", '{ "path": "/x",  "pattern": "*" }'),
      { type: "tool_result", turnId: "t1", callId: "a", status: "completed", output: "ok", display: [] },
      { type: "tool_result", turnId: "t1", callId: "b", status: "completed", output: "ok", display: [] },
    ];
    const assistant = chatView(opened.render({ history, tools, ctx })).messages[4] as {
      content: string;
      reasoning_content: string;
      tool_calls: Array<{ function: { arguments: string } }>;
    };
    expect(assistant.content).toBe("");
    expect(assistant.reasoning_content).toBe("thinking");
    expect(assistant.tool_calls.map((c) => c.function.arguments)).toEqual([
      '{"file_path":"/x","old_string":"a","new_string":"b"}',
      '{"path":"/x","pattern":"*"}',
    ]);
    expect(qwenArguments("run_shell_command", '{"timeout":5,"command":"ls","directory":"/w"}')).toBe(
      '{"command":"ls","directory":"/w","timeout":5}',
    );
    expect(qwenArguments("read_file", "not json")).toBe("not json");
  });

  it("says the commands run outside a sandbox in full-access mode", () => {
    const { ctx } = setup({ mode: "full-access" });
    const prompt = firstRequest(qwenCodeHarness, ctx, []).messages[0]!.content as string;
    expect(prompt).toContain("# Outside of Sandbox");
    expect(prompt).not.toContain("# Git Repository");
  });
});
