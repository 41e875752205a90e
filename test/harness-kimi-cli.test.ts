import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { kimiCliHarness } from "../src/harnesses/kimi-cli/kimi-cli-harness.js";
import { renderKimiCliMessages } from "../src/harnesses/kimi-cli/render.js";
import { kimiCliSystemPrompt } from "../src/harnesses/kimi-cli/system-prompt.js";
import { chatMessages } from "../src/providers/chat-wire.js";
import type { HistoryEvent } from "../src/store/events.js";
import { chatView, harnessContext, tempDir } from "./support/harness-fixtures.js";

describe("kimi-cli tool surface", () => {
  it("offers 1.49.0's default agent tools in its agent.yaml order, pinned to 1.49.0", () => {
    const ctx = harnessContext({ images: false });
    expect(kimiCliHarness.open(ctx).tools.map((t) => t.name)).toEqual([
      "Agent",
      "AskUserQuestion",
      "SetTodoList",
      "Shell",
      "TaskList",
      "TaskOutput",
      "TaskStop",
      "ReadFile",
      "Glob",
      "Grep",
      "WriteFile",
      "StrReplaceFile",
      "SearchWeb",
      "FetchURL",
      "ExitPlanMode",
      "EnterPlanMode",
    ]);
    expect(kimiCliHarness.original?.version).toBe("1.49.0");
    expect(kimiCliHarness.matches("kimi-k2-0905-preview")).toBe(false);
  });

  it("sends 1.49.0's schemas: pydantic's key order, defaults, nullable anyOf, bounds", () => {
    const tools = Object.fromEntries(
      kimiCliHarness.open(harnessContext()).tools.map((t) => [t.name, t.parameters]),
    );
    expect(tools.Shell).toMatchObject({
      properties: {
        timeout: { default: 60, maximum: 86400, minimum: 1, type: "integer" },
        run_in_background: { default: false, type: "boolean" },
        description: { default: "", type: "string" },
      },
      required: ["command"],
      type: "object",
    });
    expect(Object.keys(tools.Shell!.properties as object)).toEqual([
      "command",
      "timeout",
      "run_in_background",
      "description",
    ]);
    expect(Object.keys((tools.Shell!.properties as Record<string, object>).timeout!)).toEqual([
      "default",
      "description",
      "maximum",
      "minimum",
      "type",
    ]);
    expect(tools.ReadFile).toMatchObject({
      properties: { line_offset: { default: 1, type: "integer" }, n_lines: { default: 1000, minimum: 1 } },
      required: ["path"],
    });
    expect(tools.Glob).toMatchObject({
      properties: { directory: { anyOf: [{ type: "string" }, { type: "null" }], default: null } },
    });
    expect(Object.keys(tools.Grep!.properties as object)).toEqual([
      "pattern",
      "path",
      "glob",
      "output_mode",
      "-B",
      "-A",
      "-C",
      "-n",
      "-i",
      "type",
      "head_limit",
      "offset",
      "multiline",
      "include_ignored",
    ]);
    expect(tools.Grep).toMatchObject({
      properties: {
        head_limit: { anyOf: [{ minimum: 0, type: "integer" }, { type: "null" }], default: 250 },
      },
    });
    expect(tools.StrReplaceFile).toMatchObject({ required: ["path", "edit"] });
    expect((tools.StrReplaceFile!.properties as { edit: { anyOf: unknown[] } }).edit.anyOf).toHaveLength(2);
    expect(tools.SetTodoList).not.toHaveProperty("required");
    expect(tools.WriteFile).toMatchObject({
      properties: { mode: { default: "overwrite", enum: ["overwrite", "append"] } },
    });
    for (const schema of Object.values(tools)) expect(schema).not.toHaveProperty("additionalProperties");
  });

  it("sends the whole tool surface as recorded in its golden (names, descriptions, schemas, key order)", async () => {
    const tools = kimiCliHarness.open(harnessContext()).tools.map((t) => ({
      name: t.name,
      description: t.description,
      parameters: t.parameters,
    }));
    await expect(JSON.stringify(tools, null, 2)).toMatchFileSnapshot("golden/kimi-cli/tools.json");
  });

  it("compacts at 85 % or 50,000 tokens left, with its XML-sectioned prompt under its <system> line", () => {
    const rule = kimiCliHarness.compaction!;
    expect(rule).toMatchObject({ ratio: 0.85, reserve: 50_000 });
    expect(rule.summaryPrefix).toBe(
      "<system>Previous context has been compacted. Here is the compaction output:</system>",
    );
    const sections = [...(rule.prompt ?? "").matchAll(/^<([a-z_]+)>$/gm)].map((m) => m[1]);
    expect(sections).toEqual([
      "current_focus",
      "environment",
      "completed_tasks",
      "active_issues",
      "code_state",
      "file",
      "file",
      "important_context",
    ]);
  });

  it("sends prompt_cache_key = session id, max_completion_tokens 32000 and thinking by the model's name", () => {
    const on = harnessContext({ model: "kimi-k2-thinking-turbo" });
    const off = harnessContext({ model: "kimi-k2-0905-preview" });
    const request = (ctx: typeof on) =>
      chatView(kimiCliHarness.open(ctx).render({ history: [], tools: [], ctx }));
    expect(request(on).knobs).toEqual({
      prompt_cache_key: on.sessionId,
      max_completion_tokens: 32000,
      thinking: { type: "enabled" },
    });
    expect(request(off).knobs).toMatchObject({ thinking: { type: "disabled" } });
  });
});

const call = (callId: string, name: string, args: string, harness = "kimi-cli"): HistoryEvent => ({
  type: "tool_call",
  turnId: "t1",
  step: 1,
  callId,
  name,
  harness,
  capability: "other",
  arguments: args,
  title: name,
  kind: "other",
  locations: [],
  display: [],
});
const result = (
  callId: string,
  output: string,
  status: "completed" | "failed" | "rejected" = "completed",
): HistoryEvent => ({
  type: "tool_result",
  turnId: "t1",
  callId,
  status,
  output,
  display: [],
});

describe("kimi-cli request layout", () => {
  it("sends each result's <system> line and output as two parts, errors and empties in their own lines", () => {
    const history: HistoryEvent[] = [
      { type: "user_message", turnId: "t1", content: [{ type: "text", text: "go" }] },
      call("Shell:0", "Shell", '{"command": "ls"}'),
      call("ReadFile:1", "ReadFile", '{"path":"x"}'),
      call("Mcp:2", "mcp__x__y", "{}"),
      call("Bad:3", "Nope", "{}"),
      call("No:4", "Shell", '{"command":"rm x"}'),
      result("Shell:0", "<system>Command executed successfully.</system>a\n"),
      result("ReadFile:1", "<system>ERROR: `x` does not exist.</system>", "failed"),
      result("Mcp:2", ""),
      result("Bad:3", "unknown tool", "failed"),
      result(
        "No:4",
        "The user rejected this action. Do not try it again; continue another way or ask the user.",
        "rejected",
      ),
    ];
    const messages = chatMessages({ system: [], messages: renderKimiCliMessages(history, []), tools: [] });
    expect(messages[1]).toMatchObject({
      role: "assistant",
      tool_calls: [
        { id: "Shell:0", function: { name: "Shell", arguments: '{"command": "ls"}' } },
        {},
        {},
        {},
        {},
      ],
    });
    expect(messages.slice(2)).toEqual([
      {
        role: "tool",
        tool_call_id: "Shell:0",
        content: [
          { type: "text", text: "<system>Command executed successfully.</system>" },
          { type: "text", text: "a\n" },
        ],
      },
      { role: "tool", tool_call_id: "ReadFile:1", content: "<system>ERROR: `x` does not exist.</system>" },
      { role: "tool", tool_call_id: "Mcp:2", content: "<system>Tool output is empty.</system>" },
      { role: "tool", tool_call_id: "Bad:3", content: "<system>ERROR: unknown tool</system>" },
      {
        role: "tool",
        tool_call_id: "No:4",
        content:
          "<system>ERROR: The tool call is rejected by the user. Stop what you are doing and wait for the user to tell you how to proceed.</system>",
      },
    ]);
  });
});

describe("kimi-cli plan mode", () => {
  it("adds 1.49.0's plan-mode reminder to the prompt while plan mode is on, naming the plan file", () => {
    const ctx = harnessContext({ mode: "plan", scratchDir: tempDir("oi-kimi-cli-plan-") });
    const history: HistoryEvent[] = [
      { type: "user_message", turnId: "t1", content: [{ type: "text", text: "plan it" }] },
    ];
    const request = chatView(kimiCliHarness.open(ctx).render({ history, tools: [], ctx }));
    const content = request.messages.at(-1)?.content as Array<{ text: string }>;
    expect(content[0]).toEqual({ type: "text", text: "plan it" });
    expect(content[1]?.text).toMatch(/^<system-reminder>\nPlan mode is active\. You MUST NOT make any edits/);
    expect(content[1]?.text).toContain(
      `Plan file: ${path.join(ctx.scratchDir, "plan.md")} (create it with WriteFile;`,
    );
    const off = harnessContext({ mode: "workspace-write" });
    const plain = chatView(kimiCliHarness.open(off).render({ history, tools: [], ctx: off }));
    expect(plain.messages.at(-1)).toEqual({ role: "user", content: "plan it" });
  });
});

describe("kimi-cli background notification", () => {
  it("tells a task's end as 1.49.0's <notification> user message with the output tail", () => {
    const history: HistoryEvent[] = [
      { type: "user_message", turnId: "t1", content: [{ type: "text", text: "go" }] },
      {
        type: "background_ended",
        id: "bash-abcd1234",
        harness: "kimi-cli",
        command: "make",
        description: "build",
        cwd: "/w",
        status: "failed",
        exitCode: 2,
        outputBytes: 4,
        outputTail: "err\n",
        durationMs: 90_500,
      },
    ];
    const messages = chatMessages({ system: [], messages: renderKimiCliMessages(history, []), tools: [] });
    expect(messages.at(-1)).toEqual({
      role: "user",
      content: [
        '<notification id="task:bash-abcd1234" category="task" type="task.failed" source_kind="background_task" source_id="bash-abcd1234">',
        "Title: Background task failed: build",
        "Severity: error",
        "Task ID: bash-abcd1234",
        "Status: failed (Duration: 1m 30s)",
        "Description: build",
        "Exit code: 2",
        "<task-notification>",
        "Task ID: bash-abcd1234",
        "Task Type: bash",
        "Description: build",
        "Status: failed",
        "Exit code: 2",
        "Output tail:",
        "err",
        "</task-notification>",
        "</notification>",
      ].join("\n"),
    });
  });
});

describe("kimi-cli repeated calls", () => {
  it("appends 1.49.0's reminders after the output from the 3rd and 5th identical call", () => {
    const history: HistoryEvent[] = [
      { type: "user_message", turnId: "t1", content: [{ type: "text", text: "go" }] },
    ];
    for (let i = 1; i <= 5; i++) {
      history.push(
        call(`c${i}`, "Shell", i % 2 ? '{"command":"ls","timeout":5}' : '{"timeout":5,"command":"ls"}'),
        result(`c${i}`, "<system>Command executed successfully.</system>a\n"),
      );
    }
    const messages = chatMessages({ system: [], messages: renderKimiCliMessages(history, []), tools: [] });
    const tool = (id: string) => {
      const found = messages.find((m) => m.role === "tool" && m.tool_call_id === id);
      return (found?.content as Array<{ text: string }> | undefined)?.[1]?.text;
    };
    expect(tool("c2")).toBe("a\n");
    expect(tool("c3")).toMatch(/^a\n\n\n<system-reminder>\nYou are repeating exactly the same tool call/);
    expect(tool("c5")).toContain(
      '- tool: Shell\n- repeated_times: 5\n- arguments: {"command":"ls","timeout":5}\n',
    );
  });
});

describe("kimi-cli system prompt", () => {
  it("fills 1.49.0's slots: OS, shell, date, directory and its listing, no additional directories", () => {
    const cwd = tempDir("oi-kimi-cli-prompt-");
    writeFileSync(path.join(cwd, "b.txt"), "");
    mkdirSync(path.join(cwd, "A"));
    const system = kimiCliSystemPrompt(harnessContext({ cwd, platform: "linux", currentDate: "2026-12-06" }));
    expect(system).toMatch(/^You are Kimi Code CLI, /);
    expect(system).toContain(
      "You run on **Linux**. The Shell tool runs commands with **bash (`/bin/bash`)**.\n\nThe environment",
    );
    expect(system).toContain("ISO format is `2026-12-06`.");
    expect(system).toContain("```\n├── A/\n└── b.txt\n```");
    expect(system).not.toContain("Additional Directories");
    expect(system).not.toMatch(/\$\{|\{%/);
    expect(system).toContain("can show.\n\n# Project Information");
    expect(system).toContain("No skills found.");
  });

  it("merges AGENTS.md root to leaf with <!-- From --> lines, .kimi/AGENTS.md first in a directory", () => {
    const root = tempDir("oi-kimi-cli-agents-");
    mkdirSync(path.join(root, ".git"));
    writeFileSync(path.join(root, ".git", "HEAD"), "ref: refs/heads/main\n");
    mkdirSync(path.join(root, "pkg", ".kimi"), { recursive: true });
    writeFileSync(path.join(root, "AGENTS.md"), "root rules\n");
    writeFileSync(path.join(root, "pkg", ".kimi", "AGENTS.md"), "kimi rules");
    writeFileSync(path.join(root, "pkg", "agents.md"), "pkg rules");
    const system = kimiCliSystemPrompt(harnessContext({ cwd: path.join(root, "pkg") }));
    const pkg = path.join(root, "pkg");
    expect(system).toContain(
      `\`\`\`\`\`\`\`\`\`\n<!-- From: ${root}/AGENTS.md -->\nroot rules\n\n<!-- From: ${pkg}/.kimi/AGENTS.md -->\nkimi rules\n\n<!-- From: ${pkg}/agents.md -->\npkg rules\n\`\`\`\`\`\`\`\`\``,
    );
  });

  it("lists additional directories under their heading", () => {
    const cwd = tempDir("oi-kimi-cli-main-");
    const extra = tempDir("oi-kimi-cli-extra-");
    writeFileSync(path.join(extra, "e.txt"), "");
    const system = kimiCliSystemPrompt(harnessContext({ cwd, roots: [cwd, extra] }));
    expect(system).toContain(`## Additional Directories\n\n`);
    expect(system).toContain(`### \`${extra}\`\n\n\`\`\`\n└── e.txt\n\`\`\`\n\n# Project Information`);
  });
});
