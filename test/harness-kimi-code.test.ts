import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { kimiCodeHarness } from "../src/harnesses/kimi-code/kimi-code-harness.js";
import { AUTO_MODE_REMINDER, dateReminderFor } from "../src/harnesses/kimi-code/render.js";
import type { HarnessContext } from "../src/harnesses/types.js";
import type { HistoryEvent } from "../src/store/events.js";
import { harnessContext as baseContext, chatView, firstRequest } from "./support/harness-fixtures.js";
import { schemaShape } from "./support/schema-shape.js";

const golden = JSON.parse(readFileSync(new URL("./golden/kimi-code/tools.json", import.meta.url), "utf8"));

const harnessContext = (over: Partial<HarnessContext> = {}) =>
  baseContext({ model: "kimi-k2.5", isGitRepo: false, ...over });

const user = (text: string, turnId = "t1"): HistoryEvent => ({
  type: "user_message",
  turnId,
  content: [{ type: "text", text }],
});
describe("kimi-code tool surface", () => {
  const opened = kimiCodeHarness.open(harnessContext());
  const tools = opened.tools;

  it("has Kimi Code's core tools with its schema shapes, key order included", () => {
    const actual = tools.map((tool) => ({ name: tool.name, parameters: schemaShape(tool.parameters) }));
    expect(JSON.stringify(actual, null, 2)).toBe(JSON.stringify(golden, null, 2));
  });

  it("describes every tool and keeps the rules the model relies on", () => {
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.description]));
    for (const [name, text] of Object.entries(byName)) expect(text.length, name).toBeGreaterThan(500);
    expect(byName.Bash).toContain("`Command failed with exit code: N`");
    expect(byName.Bash).toContain("run_in_background=true");
    expect(byName.Bash).toContain("moves to the background as a task");
    expect(byName.Read).toContain("the budget is 100000 characters; a call may ask for up to 500000");
    expect(byName.Read).toContain("`Next Read`");
    expect(byName.Read).toContain("`<line-number>\\t<content>`");
    expect(byName.Read).not.toContain("{{");
    expect(byName.Edit).toContain("`old_string` must occur exactly once unless `replace_all` is set.");
    expect(byName.Glob).toContain("`offset` (0 by default) and `head_limit` (100 by default)");
    expect(byName.TodoList).toContain("pending / in_progress / done");
    expect(Object.fromEntries(tools.map((t) => [t.name, `${t.kind}/${t.capability}`]))).toEqual({
      Agent: "other/other",
      AskUserQuestion: "think/other",
      Bash: "execute/exec",
      EnterPlanMode: "think/other",
      ExitPlanMode: "think/plan",
      Edit: "edit/edit",
      FetchURL: "fetch/other",
      Glob: "search/search",
      Grep: "search/search",
      Read: "read/read",
      ReadMediaFile: "read/other",
      TaskList: "read/other",
      TaskOutput: "read/other",
      TaskStop: "execute/other",
      TodoList: "think/plan",
      WaitFor: "other/other",
      Write: "edit/write",
    });
  });

  it("is the natural choice for Kimi and Moonshot models", () => {
    expect(kimiCodeHarness.matches("kimi-k2.5")).toBe(true);
    expect(kimiCodeHarness.matches("moonshotai/Kimi-K2-Instruct")).toBe(true);
    expect(kimiCodeHarness.matches("moonshot-v1-128k")).toBe(true);
    expect(kimiCodeHarness.matches("qwen3-coder")).toBe(false);
    expect(kimiCodeHarness.matches("gpt-5")).toBe(false);
  });
});

describe("kimi-code request layout", () => {
  it("renders the system prompt slots: OS, shell, cwd, capped listing, AGENTS.md, additional dirs, skills", () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), "oi-kimi-prompt-"));
    const extra = mkdtempSync(path.join(os.tmpdir(), "oi-kimi-extra-"));
    for (let i = 0; i < 35; i++) writeFileSync(path.join(cwd, `f${String(i).padStart(2, "0")}.txt`), "");
    mkdirSync(path.join(cwd, "src"));
    for (let i = 0; i < 12; i++)
      writeFileSync(path.join(cwd, "src", `m${String(i).padStart(2, "0")}.ts`), "");
    mkdirSync(path.join(cwd, ".github"));
    writeFileSync(path.join(cwd, ".github", "ci.yml"), "");
    const ctx = harnessContext({
      cwd,
      roots: [cwd, extra],
      instructions: "Run `npm test` before committing.",
      skills: [
        {
          name: "release",
          description: "Cut a release",
          path: path.join(cwd, ".agents/skills/release/SKILL.md"),
        },
      ],
    });
    const system = firstRequest(kimiCodeHarness, ctx, [user("hi")]).messages[0];
    expect(system?.role).toBe("system");
    const text = system?.content as string;
    expect(text).toMatch(/^You are Open Interpreter, /);
    expect(text).toContain(
      "You are running on **Linux**. The Bash tool runs commands with **bash (`/bin/bash`)**.",
    );
    // Kimi Code 2.1.0 tells the date in a reminder, not in the system prompt.
    expect(text).not.toContain("2026-03-01");
    expect(text).toContain(`The current working directory is \`${cwd}\`.`);
    const listing = [
      "├── .github/",
      "├── src/",
      "│   ├── m00.ts",
      ...Array.from({ length: 8 }, (_, i) => `│   ├── m${String(i + 1).padStart(2, "0")}.ts`),
      "│   ├── m09.ts",
      "│   └── ... and 2 more",
      ...Array.from({ length: 28 }, (_, i) => `├── f${String(i).padStart(2, "0")}.txt`),
      "└── ... and 7 more entries",
    ].join("\n");
    expect(text).toContain(`\`\`\`\n${listing}\n\`\`\`\n\n## Additional Directories\n\n`);
    expect(text).toContain(`### ${extra}\n(empty directory)\n\n# Project information`);
    expect(text).toContain("```````\nRun `npm test` before committing.\n```````\n\n# Skills\n");
    expect(text).toContain(
      `### Project\n- release: Cut a release\n  Path: ${cwd}/.agents/skills/release/SKILL.md`,
    );
    expect(text).not.toMatch(/\{\{|\}\}/);
  });

  it("leaves out the optional sections when there is nothing to show", () => {
    const ctx = harnessContext();
    const text = firstRequest(kimiCodeHarness, ctx, []).messages[0]?.content as string;
    expect(text).toContain("```\n[not readable]\n```\n\n# Project information");
    expect(text).toMatch(/```````\n\n```````$/);
    expect(text).not.toContain("# Skills");
  });

  it("keeps the system prompt fixed for the session even when the directory changes", () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), "oi-kimi-memo-"));
    const ctx = harnessContext({ cwd, roots: [cwd] });
    const opened = kimiCodeHarness.open(ctx);
    const tools = opened.tools;
    const first = chatView(opened.render({ history: [], tools, ctx })).messages[0]?.content;
    writeFileSync(path.join(cwd, "new.txt"), "");
    expect(chatView(opened.render({ history: [], tools, ctx })).messages[0]?.content).toBe(first);
    const freshSession = kimiCodeHarness.open(ctx);
    const fresh = freshSession.tools;
    expect(chatView(freshSession.render({ history: [], tools: fresh, ctx })).messages[0]?.content).toContain(
      "└── new.txt",
    );
  });

  it("puts the date reminder after the first user message, the auto-mode one after every one, and sends Kimi Code's knobs", () => {
    const ctx = harnessContext();
    const request = firstRequest(kimiCodeHarness, ctx, [
      user("one"),
      { type: "assistant_message", turnId: "t1", step: 1, text: "ok", reasoning: "" },
      user("two", "t2"),
    ]);
    expect(request.messages.slice(1)).toEqual([
      { role: "user", content: "one" },
      { role: "user", content: dateReminderFor(ctx.currentDate) },
      { role: "user", content: AUTO_MODE_REMINDER },
      { role: "assistant", content: "ok", reasoning_content: "" },
      { role: "user", content: "two" },
      { role: "user", content: AUTO_MODE_REMINDER },
    ]);
    expect(dateReminderFor("2026-12-02")).toMatch(
      /^<system-reminder>\nIt is 2026-12-02 today\.[^{]*\n<\/system-reminder>$/,
    );
    expect(AUTO_MODE_REMINDER).toMatch(
      /^<system-reminder>\nAuto permission mode is on\.[\s\S]*\n {2}- [\s\S]*\n<\/system-reminder>$/,
    );
    expect(request.knobs).toEqual({
      max_completion_tokens: 32768,
      prompt_cache_key: "session_s1",
      thinking: { type: "enabled", keep: "all" },
    });
    const bash = request.tools.find(
      (t) => (t as { function?: { name: string } }).function?.name === "Bash",
    ) as {
      type: string;
      function: { name: string; parameters: unknown };
    };
    expect(bash).toEqual({
      type: "function",
      function: { name: "Bash", description: expect.any(String), parameters: expect.any(Object) },
    });
    expect(JSON.stringify(schemaShape(bash.function.parameters))).toBe(
      JSON.stringify(golden.find((t: { name: string }) => t.name === "Bash").parameters),
    );
  });
});
