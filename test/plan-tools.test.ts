import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { claudeCodeHarness } from "../src/harnesses/claude-code/claude-code-harness.js";
import { codexHarness } from "../src/harnesses/codex/codex-harness.js";
import { geminiCliHarness } from "../src/harnesses/gemini-cli/gemini-cli-harness.js";
import { kimiCodeHarness } from "../src/harnesses/kimi-code/kimi-code-harness.js";
import type { Harness } from "../src/harnesses/types.js";
import { decide } from "../src/sessions/permissions.js";
import { modeBeforePlan, modeChanged } from "../src/sessions/plan-mode.js";
import { NO_USER_TEXT } from "../src/tools/ask/ask-questions.js";
import type { ChoiceRequest, FormAnswer, PlanPort, UserPort } from "../src/tools/ask/types.js";
import type { ToolAccess } from "../src/tools/types.js";
import {
  firstRequest,
  harnessContext,
  tempDir,
  toolContext,
  toolRunner,
} from "./support/harness-fixtures.js";

/** A user who answers permission-style choices with `choose` (by option label) and forms with `form`. */
function user(o: { choose?: (r: ChoiceRequest) => string; form?: FormAnswer; forms?: boolean }) {
  const asked: ChoiceRequest[] = [];
  const port: UserPort = {
    forms: o.forms ?? false,
    form: async () => o.form ?? { action: "decline" },
    choose: async (request) => {
      asked.push(request);
      const label = o.choose?.(request);
      return request.options.find((option) => option.label === label)?.id ?? "cancelled";
    },
  };
  return { port, asked };
}

function plan(active: boolean, dir = tempDir("oi-plan-")) {
  const state = { active, entered: 0, exited: 0 };
  const port: PlanPort = {
    active: () => state.active,
    file: path.join(dir, "plan.md"),
    enter: () => {
      state.active = true;
      state.entered++;
    },
    exit: () => {
      state.active = false;
      state.exited++;
    },
  };
  return { port, state };
}

function runner(harness: Harness, model: string, extra: { user?: UserPort; plan?: PlanPort }) {
  const cwd = tempDir("oi-ws-");
  const tools = harness.open(harnessContext({ model })).tools;
  return toolRunner(tools, toolContext(cwd, { callId: "call-1", ...extra }));
}

const QUESTION = {
  question: "Which database?",
  header: "Database",
  options: [
    { label: "SQLite", description: "One file" },
    { label: "Postgres", description: "A server" },
  ],
  multiSelect: false,
};

describe("claude-code plan and question tools", () => {
  const model = "claude-sonnet-4-5-20250929";

  it("EnterPlanMode switches to plan mode and answers with 2.1.44's steps", async () => {
    const mode = plan(false);
    const result = await runner(claudeCodeHarness, model, { plan: mode.port })("EnterPlanMode", {});
    expect(mode.state.entered).toBe(1);
    expect(result.output).toMatch(/^Entered plan mode\. You should now focus on exploring the codebase/);
    expect(result.output).toContain("6. When ready, use ExitPlanMode to present your plan for approval");
  });

  it("ExitPlanMode outside plan mode is a tool_use_error; an empty plan file approves with 2.1.44's short text", async () => {
    const outside = await runner(claudeCodeHarness, model, { plan: plan(false).port })("ExitPlanMode", {});
    expect(outside).toMatchObject({
      isError: true,
      output:
        "<tool_use_error>You are not in plan mode. This tool is only for exiting plan mode after writing a plan. If your plan was already approved, continue with implementation.</tool_use_error>",
    });
    const mode = plan(true);
    const approver = user({ choose: () => "Approve the plan" });
    const empty = await runner(claudeCodeHarness, model, { plan: mode.port, user: approver.port })(
      "ExitPlanMode",
      {},
    );
    expect(empty.output).toBe("User has approved exiting plan mode. You can now proceed.");
    expect(mode.state.exited).toBe(1);
  });

  it("ExitPlanMode reads the plan file, and a rejection keeps plan mode with Claude Code's rejection", async () => {
    const mode = plan(true);
    const run = runner(claudeCodeHarness, model, {
      plan: mode.port,
      user: user({ choose: () => "Keep planning" }).port,
    });
    await import("node:fs/promises").then((fs) => fs.writeFile(mode.port.file, "# The plan"));
    const rejected = await run("ExitPlanMode", {});
    expect(rejected.isError).toBe(true);
    expect(rejected.output).toMatch(/^The user doesn't want to proceed with this tool use\./);
    expect(mode.state).toMatchObject({ active: true, exited: 0 });
  });

  it("AskUserQuestion with nobody to answer tells the model so", async () => {
    const result = await runner(claudeCodeHarness, model, {})("AskUserQuestion", { questions: [QUESTION] });
    expect(result).toMatchObject({ isError: true, output: NO_USER_TEXT });
  });
});

describe("kimi-code plan and question tools", () => {
  const model = "kimi-for-coding";

  it("EnterPlanMode names the plan file it starts, and refuses when plan mode is on", async () => {
    const mode = plan(false);
    const run = runner(kimiCodeHarness, model, { plan: mode.port });
    const entered = await run("EnterPlanMode", {});
    expect(entered.output).toBe(
      [
        "Plan mode is now active. Your workflow:",
        "",
        `Plan file: ${mode.port.file}`,
        "",
        "1. Use read-only tools (Read, Grep, Glob) to investigate the codebase. Use Bash only when needed.",
        "2. Design a concrete, step-by-step plan.",
        "3. Write the plan to the plan file with Write or Edit.",
        "4. When the plan is ready, call ExitPlanMode for user approval.",
        "",
        "Do NOT edit files other than the plan file while plan mode is active.",
        "Use Bash only when needed; Bash follows the normal permission mode and rules.",
      ].join("\n"),
    );
    expect(readFileSync(mode.port.file, "utf8")).toBe("");
    expect(await run("EnterPlanMode", {})).toMatchObject({
      isError: true,
      output: "Plan mode is already active. Use ExitPlanMode when the plan is ready.",
    });
  });

  it("ExitPlanMode: no plan written, revisions asked, dismissed, rejected and left", async () => {
    const mode = plan(true);
    let answer = "Keep planning";
    const run = runner(kimiCodeHarness, model, {
      plan: mode.port,
      user: user({ choose: () => answer }).port,
    });
    expect((await run("ExitPlanMode", {})).output).toBe(
      `No plan file found. Write your plan to ${mode.port.file} first, then call ExitPlanMode.`,
    );
    await import("node:fs/promises").then((fs) => fs.writeFile(mode.port.file, "Do it."));
    expect((await run("ExitPlanMode", {})).output).toBe(
      "User requested revisions. Plan mode remains active.",
    );
    answer = "nothing offered";
    expect((await run("ExitPlanMode", {})).output).toBe("Plan approval dismissed. Plan mode remains active.");
    answer = "Reject and leave plan mode";
    expect(await run("ExitPlanMode", {})).toMatchObject({
      isError: true,
      output: "Plan rejected by user. Plan mode deactivated.",
    });
    expect(mode.state.active).toBe(false);
    expect((await run("ExitPlanMode", {})).output).toBe(
      "ExitPlanMode can only be called while plan mode is active. Use EnterPlanMode (or /plan) first.",
    );
  });

  it("AskUserQuestion answers with 2.1.0's JSON keyed by question text; a dismissal and duplicates as 2.1.0 words them", async () => {
    const kimiQuestion = {
      question: "Which database?",
      options: [{ label: "SQLite" }, { label: "Postgres", description: "A server" }],
    };
    const answered = await runner(kimiCodeHarness, model, { user: user({ choose: () => "Postgres" }).port })(
      "AskUserQuestion",
      { questions: [kimiQuestion] },
    );
    expect(answered.output).toBe('{"answers":{"Which database?":"Postgres"}}');
    const skipped = await runner(kimiCodeHarness, model, { user: user({ choose: () => "Skip" }).port })(
      "AskUserQuestion",
      { questions: [kimiQuestion] },
    );
    expect(skipped.output).toBe('{"answers":{},"note":"User dismissed the question without answering."}');
    const twice = await runner(kimiCodeHarness, model, { user: user({}).port })("AskUserQuestion", {
      questions: [kimiQuestion, kimiQuestion],
    });
    expect(twice.output).toBe(
      'Invalid questions: duplicate question text "Which database?". Question texts must be unique across questions, and option labels must be unique within each question. Rephrase the duplicates and call the tool again.',
    );
    const nobody = await runner(kimiCodeHarness, model, {})("AskUserQuestion", { questions: [kimiQuestion] });
    expect(nobody.output).toBe(
      "The connected client does not support interactive questions. Do NOT call this tool again. Ask the user directly in your text response instead.",
    );
  });
});

describe("codex and gemini-cli", () => {
  it("request_user_input requires options for every question", async () => {
    const result = await runner(codexHarness, "mock-model", { plan: plan(true).port, user: user({}).port })(
      "request_user_input",
      { questions: [{ id: "a", header: "A", question: "A?", options: [] }] },
    );
    expect(result).toMatchObject({
      isError: true,
      output: "request_user_input requires non-empty options for every question",
    });
  });

  it("codex in plan mode sends the Plan collaboration mode's instructions; outside it, none", () => {
    const history = [
      { type: "user_message" as const, turnId: "t1", content: [{ type: "text" as const, text: "hi" }] },
    ];
    const system = (mode: "plan" | "workspace-write") =>
      JSON.stringify(
        firstRequest(codexHarness, harnessContext({ model: "mock-model", mode }), history).messages[0],
      );
    expect(system("plan")).toContain("<collaboration_mode># Plan Mode (Conversational)");
    expect(system("plan")).toContain("<proposed_plan>");
    expect(system("workspace-write")).not.toContain("<collaboration_mode>");
  });

  it("enter_plan_mode answers 0.61's text", async () => {
    const mode = plan(false);
    const result = await runner(geminiCliHarness, "gemini-2.5-flash", { plan: mode.port })(
      "enter_plan_mode",
      {
        reason: "big change",
      },
    );
    expect(result.output).toBe("Switching to Plan mode.");
    expect(mode.state.active).toBe(true);
  });
});

describe("plan mode's permission table", () => {
  const roots = [tempDir("oi-root-")];
  const planFile = path.join(tempDir("oi-scratch-"), "plan.md");
  const verdict = (access: ToolAccess) =>
    decide({ access, mode: "plan", sandboxed: true, roots, rules: [], planFile }).decision;

  it("runs reads, known read-only commands and writes to the plan file; refuses every other write, command and tool", () => {
    expect(verdict({ type: "read", paths: [path.join(roots[0]!, "a")] })).toBe("allow");
    expect(verdict({ type: "exec", command: "grep -rn plan .", cwd: roots[0]! })).toBe("allow");
    expect(verdict({ type: "write", paths: [planFile] })).toBe("allow");
    expect(verdict({ type: "write", paths: [path.join(roots[0]!, "a")] })).toBe("deny");
    expect(verdict({ type: "exec", command: "npm install", cwd: roots[0]! })).toBe("deny");
    expect(verdict({ type: "exec", command: "ls", cwd: roots[0]!, escalated: {} })).toBe("deny");
    expect(verdict({ type: "tool", key: "mcp:x", label: "x" })).toBe("deny");
    expect(verdict({ type: "fetch", hosts: ["example.com"], listed: false })).toBe("ask");
  });

  it("remembers the mode plan mode left, from the history", () => {
    const history = [modeChanged("auto", "workspace-write"), modeChanged("plan", "auto")];
    expect(modeBeforePlan(history, "workspace-write")).toBe("auto");
    expect(modeBeforePlan([], "workspace-write")).toBe("workspace-write");
  });
});
