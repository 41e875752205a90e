import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { claudeCodeHarness } from "../src/harnesses/claude-code/claude-code-harness.js";
import { modelDisplayName } from "../src/harnesses/claude-code/environment-block.js";
import { claudeCodeBareHarness } from "../src/harnesses/claude-code-bare/claude-code-bare-harness.js";
import type { HarnessContext } from "../src/harnesses/types.js";
import type { HistoryEvent } from "../src/store/events.js";
import {
  harnessContext as baseContext,
  chatView,
  tempDir,
  toolContext,
  writeFileAt,
} from "./support/harness-fixtures.js";
import { schemaShape } from "./support/schema-shape.js";

const golden = JSON.parse(readFileSync(new URL("./golden/claude-code/tools.json", import.meta.url), "utf8"));

const harnessContext = (over: Partial<HarnessContext> = {}) =>
  baseContext({ model: "claude-sonnet-4-5-20250929", ...over });

const user = (text: string): HistoryEvent => ({
  type: "user_message",
  turnId: "t1",
  content: [{ type: "text", text }],
});

describe("claude-code tool surface", () => {
  const opened = claudeCodeHarness.open(harnessContext());
  const tools = opened.tools;

  it("has Claude Code 2.1.44's tools we implement, in its order, with its input schema shapes", () => {
    expect(tools.map((tool) => ({ name: tool.name, parameters: schemaShape(tool.parameters) }))).toEqual(
      golden,
    );
    expect(tools.map((tool) => tool.name)).toEqual([
      "Task",
      "TaskOutput",
      "Bash",
      "Glob",
      "Grep",
      "ExitPlanMode",
      "Read",
      "Edit",
      "Write",
      "NotebookEdit",
      "WebFetch",
      "TodoWrite",
      "WebSearch",
      "TaskStop",
      "AskUserQuestion",
      "EnterPlanMode",
    ]);
    // TaskStop, ExitPlanMode and EnterPlanMode require nothing, so 2.1.44 sends no `required`.
    const noRequired = ["TaskStop", "ExitPlanMode", "EnterPlanMode"];
    for (const tool of tools.filter((t) => !noRequired.includes(t.name))) {
      expect(Object.keys(tool.parameters)).toEqual([
        "$schema",
        "type",
        "properties",
        "required",
        "additionalProperties",
      ]);
    }
  });

  it("describes every tool, and maps each onto an ACP kind and a capability", () => {
    for (const tool of tools) expect(tool.description.length, tool.name).toBeGreaterThan(150);
    expect(tools.find((t) => t.name === "NotebookEdit")?.description).toContain("cell-N");
    expect(Object.fromEntries(tools.map((t) => [t.name, `${t.kind}/${t.capability}`]))).toEqual({
      Task: "other/other",
      TaskOutput: "read/other",
      Bash: "execute/exec",
      Glob: "search/search",
      Grep: "search/search",
      Read: "read/read",
      Edit: "edit/edit",
      Write: "edit/write",
      NotebookEdit: "edit/other",
      WebFetch: "fetch/other",
      TodoWrite: "think/plan",
      WebSearch: "search/other",
      TaskStop: "execute/other",
      ExitPlanMode: "think/plan",
      AskUserQuestion: "think/other",
      EnterPlanMode: "think/other",
    });
  });

  it("keeps the steering the model relies on in the descriptions", () => {
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.description]));
    expect(byName.Edit).toContain("spaces + line number + arrow (→)");
    expect(byName.Edit).toContain("`replace_all`");
    expect(byName.Read).toContain("2000 lines");
    expect(byName.Bash).toContain("120000 ms");
    expect(byName.Bash).toContain("30000 characters is saved to a file");
    expect(byName.TodoWrite).toContain("activeForm");
  });

  it("is the natural choice for Claude models only", () => {
    expect(claudeCodeHarness.matches("claude-opus-4-1")).toBe(true);
    expect(claudeCodeHarness.matches("anthropic/claude-sonnet-4.5")).toBe(true);
    expect(claudeCodeHarness.matches("deepseek-chat")).toBe(false);
    expect(claudeCodeHarness.matches("gpt-5")).toBe(false);
  });
});

describe("claude-code request layout", () => {
  it("sends the identity, 2.1.44's prompt sections, the <env> block and the git snapshot, with its knobs", () => {
    const git = { branch: "dev", mainBranch: "main", status: " M a.ts", recentCommits: "abc1234 init" };
    const ctx = harnessContext({ git });
    const opened = claudeCodeHarness.open(ctx);
    const tools = opened.tools;
    const request = chatView(opened.render({ history: [user("fix it")], tools, ctx }));
    expect(request.knobs).toEqual({ max_tokens: 32000, temperature: 1 });
    const system = request.messages[0]!;
    expect(system.role).toBe("system");
    const text = system.content as string;
    expect(
      text.startsWith("You are a Claude agent, working as a coding assistant in Open Interpreter.\n\n"),
    ).toBe(true);
    const headings = text.split("\n").filter((line) => line.startsWith("# "));
    expect(headings).toEqual([
      "# Tone and style",
      "# Professional objectivity",
      "# No time estimates",
      "# Task Management",
      "# Asking questions as you work",
      "# Doing tasks",
      "# Tool usage policy",
      "# Code References",
    ]);
    const env = text.slice(text.indexOf("<env>"));
    expect(env).toMatch(
      /^<env>\nWorking directory: \/work\/project\nIs directory a git repo: Yes\nPlatform: linux\nOS Version: .+\nToday's date: 2026-03-01\n<\/env>\nYou are powered by the model named Sonnet 4\.5\. The exact model ID is claude-sonnet-4-5-20250929\.\n\ngitStatus: .+\nCurrent branch: dev\n\nMain branch .+: main\n\nStatus:\n M a\.ts\n\nRecent commits:\nabc1234 init$/,
    );
    expect(request.messages.slice(1)).toHaveLength(1);
    expect(request.messages[1]!.content).toMatch(
      /^<system-reminder>\n[^\n]+\n# currentDate\n.*2026-03-01.*\n[\s\S]*<\/system-reminder>\n\nfix it$/,
    );
    expect(request.tools.map((t) => t.function.name)).toEqual(tools.map((t) => t.name));
    expect(request.tools[2]).toEqual({
      type: "function",
      function: { name: "Bash", description: tools[2]!.description, parameters: tools[2]!.parameters },
    });
  });

  it("puts AGENTS.md where Claude Code puts CLAUDE.md: a claudeMd reminder opening the first user message", () => {
    const ctx = harnessContext({ instructions: "Run npm test before finishing.\n" });
    const history = [user("first"), user("second")];
    const request = chatView(claudeCodeHarness.open(ctx).render({ history, tools: [], ctx }));
    const first = request.messages[1]!;
    expect(first.role).toBe("user");
    const content = first.content as string;
    expect(content.startsWith("<system-reminder>\n")).toBe(true);
    expect(content).toContain("\n# claudeMd\n");
    expect(content).toContain(
      "\n\nContents of AGENTS.md (project instructions, checked into the codebase):\n\nRun npm test before finishing.\n# currentDate\n",
    );
    expect(content.endsWith("</system-reminder>\n\nfirst\n\nsecond")).toBe(true);
    expect(request.messages.filter((m) => m.role === "user")).toHaveLength(1);
  });

  it("lists skills in a reminder before the AGENTS.md one, for the Skill tool", () => {
    const skills = [{ name: "release", description: "Cut a release", path: "/skills/release/SKILL.md" }];
    const ctx = harnessContext({ instructions: "Be brief.", skills });
    const content = chatView(claudeCodeHarness.open(ctx).render({ history: [user("go")], tools: [], ctx }))
      .messages[1]!.content as string;
    expect(content).toMatch(
      /^<system-reminder>\n.*Skill tool.*:\n\n- release: Cut a release \(file: \/skills\/release\/SKILL\.md\)\n<\/system-reminder>\n\n<system-reminder>\n[\s\S]*# claudeMd[\s\S]*Be brief\.[\s\S]*<\/system-reminder>\n\ngo$/,
    );
  });

  it("offers the Skill tool only with skills, and it loads SKILL.md", async () => {
    const dir = tempDir("oi-cc-skill-");
    const file = writeFileAt(
      dir,
      "release/SKILL.md",
      "---\nname: release\ndescription: Cut a release\n---\nTag, then push.\n",
    );
    expect(claudeCodeHarness.open(harnessContext()).tools.map((t) => t.name)).not.toContain("Skill");
    const skills = [{ name: "release", description: "Cut a release", path: file }];
    const skill = claudeCodeHarness.open(harnessContext({ skills })).tools.find((t) => t.name === "Skill")!;
    expect(skill.parameters).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        skill: { description: expect.any(String), type: "string" },
        args: { description: expect.any(String), type: "string" },
      },
      required: ["skill"],
      additionalProperties: false,
    });
    const result = await skill.execute({ skill: "release", args: "v2" }, toolContext(dir));
    expect(result.output).toBe(
      `Launching skill: release\n\nBase directory for this skill: ${dir}/release\n\nTag, then push.\n\nARGUMENTS: v2`,
    );
  });

  it("names the model plainly when it is not a Claude model", () => {
    const ctx = harnessContext({ model: "glm-4.6" });
    const request = chatView(claudeCodeHarness.open(ctx).render({ history: [], tools: [], ctx }));
    expect(request.messages[0]!.content).toContain("</env>\nYou are powered by the model glm-4.6.");
    expect(modelDisplayName("anthropic/claude-opus-4-1:thinking")).toBe("Opus 4.1");
    expect(modelDisplayName("claude-3-haiku")).toBe("claude-3-haiku");
  });
});

describe("claude-code-bare", () => {
  const git = { branch: "main", mainBranch: "main", status: "", recentCommits: "abc1234 init" };
  const ctx = harnessContext({ model: "deepseek-chat", instructions: "Use pnpm.", git });
  const opened = claudeCodeBareHarness.open(ctx);
  const tools = opened.tools;

  it("exposes only Bash, Read and Edit, with Claude Code's schemas and one-line descriptions", () => {
    const full = Object.fromEntries(
      (golden as Array<{ name: string; parameters: object }>).map((t) => [t.name, t.parameters]),
    );
    expect(tools.map((t) => [t.name, t.description])).toEqual([
      ["Bash", "execute shell commands"],
      ["Read", "read text files"],
      ["Edit", "modify file contents in place"],
    ]);
    for (const tool of tools) expect(schemaShape(tool.parameters)).toEqual(full[tool.name]);
  });

  it("is DeepSeek's default", () => {
    expect(claudeCodeBareHarness.matches("deepseek-chat")).toBe(true);
    expect(claudeCodeBareHarness.matches("deepseek/deepseek-v3.2")).toBe(true);
    expect(claudeCodeBareHarness.matches("claude-sonnet-4-5")).toBe(false);
  });

  it("sends the identity block, CWD, Date and the git snapshot, the claudeMd reminder and no max_tokens", () => {
    const request = chatView(opened.render({ history: [user("go")], tools, ctx }));
    expect(request.knobs).toBeUndefined();
    expect(request.messages[0]).toEqual({
      role: "system",
      content: expect.stringMatching(
        /^You are a Claude agent, working as a coding assistant in Open Interpreter\.\n\nCWD: \/work\/project\nDate: 2026-03-01\n\ngitStatus: .+\nCurrent branch: main\n/,
      ),
    });
    const first = request.messages[1]!.content as string;
    expect(first).toMatch(
      /^<system-reminder>\n[\s\S]*# claudeMd[\s\S]*Use pnpm\.[\s\S]*<\/system-reminder>\n\ngo$/,
    );
    expect(first).not.toContain("# currentDate");
  });

  it("sends the identity as its own cached block on Messages, as the original's minimal mode does", () => {
    const messages = { ...ctx, wire: "messages" as const };
    const request = claudeCodeBareHarness
      .open(messages)
      .render({ history: [user("go")], tools, ctx: messages });
    expect(request.system.map((part) => [part.text.split("\n")[0], part.cache])).toEqual([
      ["You are a Claude agent, working as a coding assistant in Open Interpreter.", true],
      ["CWD: /work/project", true],
    ]);
  });
});

describe("loop errors the Claude Code way", () => {
  it("wraps errors raised before a tool runs in <tool_use_error>", async () => {
    const { startFakeModel } = await import("./support/fake-model.js");
    const { startInProcess } = await import("./support/in-process.js");
    const model = await startFakeModel();
    const oi = await startInProcess({ model, configToml: 'harness = "claude-code"\n' });
    try {
      const { sessionId } = await oi.newSession();
      model.reply({ toolCalls: [{ id: "x", name: "Read", arguments: "{not json" }] }, { text: "ok" });
      await oi.prompt(sessionId, "read it");
      const tool = (model.requests[1]!.body.messages as Array<{ role: string; content: string }>).find(
        (m) => m.role === "tool",
      );
      expect(tool?.content).toMatch(
        /^<tool_use_error>failed to parse function arguments for Read: .*<\/tool_use_error>$/s,
      );
    } finally {
      await oi.close();
      await model.close();
    }
  });
});
