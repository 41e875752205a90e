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

describe("grep_search and glob", () => {
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

  it("globs with Qwen's wording", async () => {
    const { run, file, cwd } = setup();
    file("b.txt", "12345");
    file("lib/x.js", "");
    expect((await run("glob", { pattern: "**/*.TXT" })).output).toBe(
      `Found 1 file(s) matching "**/*.TXT" in the workspace directory, sorted by modification time (newest first):\n---\n${path.join(cwd, "b.txt")}`,
    );
    expect((await run("glob", { pattern: "*.md", path: cwd })).output).toBe(
      `No files found matching pattern "*.md" within ${cwd}`,
    );
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
  it("opens the first user message with the skills, environment and date reminders, then the prompt", () => {
    const skill = { name: "release", description: "Cut a release", path: "/skills/release/SKILL.md" };
    const { ctx, file } = setup({
      instructions: "Use pnpm.",
      isGitRepo: true,
      sandboxed: true,
      skills: [skill],
    });
    file("README.md", "");
    file(".env", "");
    mkdirSync(path.join(ctx.cwd, "src"));
    const opened = qwenCodeHarness.open(ctx);
    const tools = opened.tools;
    const history: HistoryEvent[] = [
      { type: "user_message", turnId: "t1", content: [{ type: "text", text: "Hi" }] },
    ];
    const request = chatView(opened.render({ history, tools, ctx }));
    const [system, user, ...rest] = request.messages;
    expect(rest).toEqual([]);
    const prompt = system!.content as string;
    expect(prompt.startsWith("You are Qwen Code")).toBe(true);
    expect(
      prompt.endsWith(
        "\n\n---\n\n--- Context from: AGENTS.md ---\nUse pnpm.\n--- End of Context from: AGENTS.md ---",
      ),
    ).toBe(true);
    // Qwen Code 0.24.4's outline in `-p` mode, without its auto-memory section.
    expect(prompt.split("\n").filter((line) => /^#{1,2} /.test(line))).toEqual([
      "# Core Mandates",
      "# Primary Workflows",
      "## Software Engineering Tasks",
      "## New Applications",
      "# Operational Guidelines",
      "## Communicating With the User",
      "## Tone and Style (CLI Interaction)",
      "## Security and Safety Rules",
      "## Using Your Tools",
      "## Interaction Details",
      "# Sandbox",
      "# Executing actions with care",
      "# Git Repository",
      "## Git as Source of Truth",
      "# Examples (Illustrating Tone and Workflow)",
      "# Final Reminder",
      "# Output language preference: auto",
      "## Rule",
      "## Exception",
      "## Mixed-language input",
      "## Keep technical artifacts unchanged",
      "## Tool / system outputs",
    ]);
    expect(prompt.match(/<example>/g)).toHaveLength(7);
    expect(prompt).not.toContain("todo_write");
    const parts = user!.content as Array<{ type: string; text: string }>;
    expect(parts.map((part) => part.type)).toEqual(["text", "text", "text", "text"]);
    const [skills, environment, date, text] = parts.map((part) => part.text);
    expect(skills).toMatch(
      /^<system-reminder>\n[^\n]+\n<available_skills>\n<skill>\n<name>release<\/name>\n/,
    );
    expect(skills).toContain("<location>/skills/release/SKILL.md</location>");
    expect(environment).toMatch(/^<system-reminder>\n/);
    expect(environment).toContain(`${ctx.cwd}/\n├───README.md\n└───src/`);
    expect(environment).toContain("linux");
    expect(date).toMatch(/^<system-reminder>\nToday is Friday, August 21, 2026\./);
    expect(text).toBe("Hi");
    expect(request.knobs).toEqual({ max_tokens: 32000 });
  });

  it("moves the date reminder to the newest prompt and sends results as text parts", () => {
    const { ctx } = setup();
    const opened = qwenCodeHarness.open(ctx);
    const history: HistoryEvent[] = [
      { type: "user_message", turnId: "t1", content: [{ type: "text", text: "one" }] },
      { type: "assistant_message", turnId: "t1", step: 1, text: "done", reasoning: "" },
      { type: "user_message", turnId: "t2", content: [{ type: "text", text: "two" }] },
    ];
    const [, first, answer, second] = chatView(opened.render({ history, tools: opened.tools, ctx }))
      .messages as Array<{
      role: string;
      content: Array<{ text: string }> | string;
    }>;
    const heads = (m: typeof first) =>
      (m!.content as Array<{ text: string }>).map((p) => p.text.split("\n")[0]);
    // No skills in this session: the environment reminder alone opens the conversation.
    expect(heads(first)).toEqual(["<system-reminder>", "one"]);
    expect(answer).toEqual({ role: "assistant", content: "done" });
    expect(heads(second)).toEqual(["<system-reminder>", "two"]);
    expect((second!.content as Array<{ text: string }>)[0]!.text).toContain("Today is");
  });

  it("replays tool calls with arguments in Qwen's key order and no text as null", () => {
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
    const rendered = chatView(opened.render({ history, tools, ctx })).messages;
    const assistant = rendered[2] as {
      content: string | null;
      reasoning_content: string;
      tool_calls: Array<{ function: { arguments: string } }>;
    };
    expect(assistant.content).toBeNull();
    expect(rendered[3]).toEqual({ role: "tool", tool_call_id: "a", content: [{ type: "text", text: "ok" }] });
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
