import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  methods,
  type RequestPermissionRequest,
  type SessionUpdate,
} from "@agentclientprotocol/sdk/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { claudeCodeHarness } from "../src/harnesses/claude-code/claude-code-harness.js";
import { codexHarness } from "../src/harnesses/codex/codex-harness.js";
import { kimiCodeHarness } from "../src/harnesses/kimi-code/kimi-code-harness.js";
import type { Harness } from "../src/harnesses/types.js";
import { TEST_CEILING } from "./support/ceiling.js";
import { type ChatBody, type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess, tempDir } from "./support/in-process.js";
import { BIN } from "./support/spawn-agent.js";

let model: FakeModel;
let oi: InProcessAgent;

afterEach(async () => {
  await oi?.close();
  await model?.close();
});

async function start(harness: Harness, clientCapabilities?: Record<string, unknown>) {
  model = await startFakeModel();
  oi = await startInProcess({
    model,
    harnesses: [harness],
    configToml: `harness = "${harness.id}"\nmode = "workspace-write"\n`,
    ...(clientCapabilities ? { clientCapabilities } : {}),
  });
  return oi.newSession();
}

type Message = { role: string; content: unknown; tool_call_id?: string };
/** The text the model was given for call `id`, from the request after it. */
function resultOf(id: string): string {
  for (const request of model.requests) {
    const message = ((request.body as ChatBody).messages as Message[]).find(
      (m) => m.role === "tool" && m.tool_call_id === id,
    );
    if (message)
      return typeof message.content === "string" ? message.content : JSON.stringify(message.content);
  }
  throw new Error(`no result for ${id}`);
}

/**
 * The modes the editor's menu went through after the session opened: option updates also come
 * when the model list is refreshed, so repeats (and a leading refresh of the first mode) are dropped.
 */
const modeUpdates = (sessionId: string) =>
  oi.editor
    .updates(sessionId)
    .filter(
      (u): u is Extract<SessionUpdate, { sessionUpdate: "current_mode_update" }> =>
        u.sessionUpdate === "current_mode_update",
    )
    .map((u) => u.currentModeId)
    .filter((mode, i, all) => mode !== all[i - 1])
    .filter((mode, i) => !(i === 0 && mode === "workspace-write"));

const contentText = (request: RequestPermissionRequest) =>
  (request.toolCall.content ?? [])
    .map((c) => (c.type === "content" && c.content.type === "text" ? c.content.text : ""))
    .join("");

describe("plan mode, end to end", () => {
  it("claude-code: EnterPlanMode refuses a write and a command that writes, approval brings the mode back, and the write then succeeds", async () => {
    const { sessionId, cwd } = await start(claudeCodeHarness);
    const file = path.join(cwd, "out.txt");
    model.reply(
      { toolCalls: [{ id: "c1", name: "EnterPlanMode", arguments: {} }] },
      {
        toolCalls: [
          { id: "c2", name: "Write", arguments: { file_path: file, content: "too early\n" } },
          { id: "c3", name: "Bash", arguments: { command: "ls -a", description: "List the files" } },
          { id: "c4", name: "Bash", arguments: { command: "touch made.txt", description: "Make a file" } },
        ],
      },
      { toolCalls: [{ id: "c5", name: "ExitPlanMode", arguments: { plan: "# Plan\n1. Write out.txt" } }] },
      { toolCalls: [{ id: "c6", name: "Write", arguments: { file_path: file, content: "done\n" } }] },
      { text: "Written." },
    );
    oi.editor.setPermission((request) =>
      request.options.some((o) => o.optionId === "approve") ? "approve" : "allow_once",
    );

    expect(await oi.prompt(sessionId, "plan, then write out.txt")).toBe("end_turn");

    expect(resultOf("c1")).toContain("Entered plan mode.");
    expect(resultOf("c2")).toContain("plan mode");
    expect(resultOf("c4")).toContain("plan mode");
    expect(resultOf("c3")).toContain("..");
    expect(resultOf("c3")).not.toContain("plan mode");
    expect(existsSync(path.join(cwd, "made.txt"))).toBe(false);
    // The plan was shown for approval, and nothing else was asked.
    expect(oi.editor.permissions.map((p) => p.toolCall.title)).toEqual([
      "Approve this plan and leave plan mode?",
    ]);
    expect(contentText(oi.editor.permissions[0]!)).toBe("# Plan\n1. Write out.txt");
    expect(resultOf("c5")).toContain("User has approved your plan. You can now start coding.");
    expect(resultOf("c5")).toContain("## Approved Plan:\n# Plan\n1. Write out.txt");
    // The editor's mode menu followed both switches.
    expect(modeUpdates(sessionId)).toEqual(["plan", "workspace-write"]);
    expect(readFileSync(file, "utf8")).toBe("done\n");
    // While plan mode is on, the model is reminded of it and told where the plan file is.
    const planFile = path.join(oi.home, "sessions", sessionId, "plan.md");
    const sent = model.requests.map((r) => JSON.stringify((r.body as ChatBody).messages));
    expect(sent.map((text) => text.includes("Plan mode is active."))).toEqual([
      false,
      true,
      true,
      false,
      false,
    ]);
    expect(sent[1]).toContain(planFile);
  });

  it("kimi-code: plan mode from the mode menu lets only the plan file be written; the approach the user picks comes back", async () => {
    const { sessionId, cwd } = await start(kimiCodeHarness);
    await oi.agent.request(methods.agent.session.setMode, { sessionId, modeId: "plan" });
    const planFile = path.join(oi.home, "sessions", sessionId, "plan.md");
    model.reply(
      {
        toolCalls: [
          { id: "k1", name: "Write", arguments: { path: planFile, content: "Step 1: add a flag." } },
          { id: "k2", name: "Write", arguments: { path: path.join(cwd, "src.txt"), content: "x\n" } },
        ],
      },
      {
        toolCalls: [
          {
            id: "k3",
            name: "ExitPlanMode",
            arguments: { options: [{ label: "Small change" }, { label: "Rewrite" }] },
          },
        ],
      },
      { text: "Going with the rewrite." },
    );
    oi.editor.setPermission((request) => {
      const option = request.options.find((o) => o.name === "Rewrite");
      return option ? option.optionId : "allow_once";
    });

    expect(await oi.prompt(sessionId, "plan it")).toBe("end_turn");

    expect(readFileSync(planFile, "utf8")).toBe("Step 1: add a flag.");
    expect(existsSync(path.join(cwd, "src.txt"))).toBe(false);
    expect(resultOf("k2")).toContain("plan mode");
    const asked = oi.editor.permissions.at(-1)!;
    expect(asked.options.map((o) => o.name)).toEqual([
      "Small change",
      "Rewrite",
      "Keep planning",
      "Reject and leave plan mode",
    ]);
    expect(contentText(asked)).toBe("Step 1: add a flag.");
    expect(resultOf("k3")).toBe(
      `Exited plan mode. Selected approach: Rewrite\nExecute ONLY the selected approach. Do not execute any unselected alternatives.\n\nPlan mode deactivated. All tools are now available.\nPlan saved to: ${planFile}\n\n## Approved Plan:\nStep 1: add a flag.`,
    );
    expect(modeUpdates(sessionId)).toEqual(["plan", "workspace-write"]);
    // Kimi Code's plan-mode reminder closes each request while plan mode is on, naming the plan file.
    const last = model.requests.map((r) =>
      JSON.stringify(((r.body as ChatBody).messages as Message[]).at(-1)),
    );
    expect(last.map((text) => text.includes("Plan mode is active."))).toEqual([true, true, false]);
    expect(last[0]).toContain(planFile);
  });

  it("claude-code: keeping on planning leaves the session in plan mode", async () => {
    const { sessionId } = await start(claudeCodeHarness);
    await oi.agent.request(methods.agent.session.setMode, { sessionId, modeId: "plan" });
    model.reply(
      { toolCalls: [{ id: "r1", name: "ExitPlanMode", arguments: { plan: "# Plan" } }] },
      { text: "ok" },
    );
    oi.editor.setPermission(() => "keep-planning");
    expect(await oi.prompt(sessionId, "go")).toBe("end_turn");
    expect(resultOf("r1")).toContain("The user doesn't want to proceed with this tool use.");
    expect(modeUpdates(sessionId)).toEqual(["plan"]);
  });
});

describe("questions to the user, end to end", () => {
  const QUESTIONS = [
    {
      question: "Which database?",
      header: "Database",
      options: [
        { label: "SQLite", description: "One file" },
        { label: "Postgres", description: "A server" },
      ],
      multiSelect: false,
    },
    {
      question: "Which extras?",
      header: "Extras",
      options: [
        { label: "Cache", description: "Faster reads" },
        { label: "Auth", description: "Logins" },
      ],
      multiSelect: true,
    },
  ];

  it("claude-code AskUserQuestion through permission requests: one per question, its options as buttons, Skip leaves it out", async () => {
    const { sessionId } = await start(claudeCodeHarness);
    model.reply(
      { toolCalls: [{ id: "q1", name: "AskUserQuestion", arguments: { questions: QUESTIONS } }] },
      { text: "ok" },
    );
    oi.editor.setPermission((request) =>
      request.toolCall.title?.startsWith("Database") ? "option-1" : "skip",
    );
    expect(await oi.prompt(sessionId, "ask me")).toBe("end_turn");
    expect(oi.editor.permissions.map((p) => p.options.map((o) => o.name))).toEqual([
      ["SQLite", "Postgres", "Skip"],
      ["Cache", "Auth", "Skip"],
    ]);
    expect(oi.editor.permissions[0]!.toolCall.toolCallId).toBe("q1");
    expect(resultOf("q1")).toBe(
      `User has answered your questions: "Which database?"="Postgres". You can now continue with the user's answers in mind.`,
    );
  });

  it("claude-code AskUserQuestion through an elicitation form where the editor advertises forms", async () => {
    const { sessionId } = await start(claudeCodeHarness, { elicitation: { form: {} } });
    model.reply(
      { toolCalls: [{ id: "q2", name: "AskUserQuestion", arguments: { questions: QUESTIONS } }] },
      { text: "ok" },
    );
    oi.editor.setElicitation(() => ({
      action: "accept",
      content: { q0: "SQLite", q1: ["Auth", "Cache"], q1_other: "Logs" },
    }));
    expect(await oi.prompt(sessionId, "ask me")).toBe("end_turn");
    expect(oi.editor.permissions).toEqual([]);
    const [form] = oi.editor.elicitations;
    expect(form).toMatchObject({ mode: "form", sessionId, toolCallId: "q2" });
    const properties = (form as { requestedSchema: { properties: Record<string, Record<string, unknown>> } })
      .requestedSchema.properties;
    expect(properties.q0).toMatchObject({
      type: "string",
      title: "Database",
      oneOf: [
        { const: "SQLite", title: "SQLite", description: "One file" },
        { const: "Postgres", title: "Postgres", description: "A server" },
      ],
    });
    expect(properties.q1).toMatchObject({
      type: "array",
      items: { anyOf: [{ const: "Cache" }, { const: "Auth" }] },
    });
    expect(resultOf("q2")).toBe(
      `User has answered your questions: "Which database?"="SQLite", "Which extras?"="Cache, Auth, Logs". You can now continue with the user's answers in mind.`,
    );
  });

  it("codex request_user_input: refused outside plan mode as in Codex's Default mode, answered as Codex's JSON in plan mode", async () => {
    const { sessionId } = await start(codexHarness, { elicitation: { form: {} } });
    const args = {
      questions: [
        {
          id: "db",
          header: "Database",
          question: "Which database?",
          options: [
            { label: "SQLite", description: "One file" },
            { label: "Postgres", description: "A server" },
          ],
        },
      ],
    };
    model.reply(
      { toolCalls: [{ id: "u1", name: "request_user_input", arguments: args }] },
      { text: "Not now." },
    );
    expect(await oi.prompt(sessionId, "ask")).toBe("end_turn");
    expect(resultOf("u1")).toContain("request_user_input is unavailable in Default mode");
    expect(oi.editor.elicitations).toEqual([]);

    await oi.agent.request(methods.agent.session.setMode, { sessionId, modeId: "plan" });
    oi.editor.setElicitation(() => ({ action: "accept", content: { q0: "Postgres" } }));
    model.reply({ toolCalls: [{ id: "u2", name: "request_user_input", arguments: args }] }, { text: "ok" });
    expect(await oi.prompt(sessionId, "ask again")).toBe("end_turn");
    expect(resultOf("u2")).toContain('{"answers":{"db":{"answers":["Postgres"]}}}');

    oi.editor.setElicitation(() => ({ action: "decline" }));
    model.reply({ toolCalls: [{ id: "u3", name: "request_user_input", arguments: args }] }, { text: "ok" });
    expect(await oi.prompt(sessionId, "and again")).toBe("end_turn");
    expect(resultOf("u3")).toContain("request_user_input was cancelled before receiving a response");
  });
});

describe("questions where nobody can answer", () => {
  it("interpreter exec answers request_user_input in plan mode with a result the model can act on", async () => {
    model = await startFakeModel();
    model.reply(
      {
        toolCalls: [
          {
            id: "x1",
            name: "request_user_input",
            arguments: {
              questions: [
                {
                  id: "db",
                  header: "Database",
                  question: "Which?",
                  options: [{ label: "A", description: "a" }],
                },
              ],
            },
          },
        ],
      },
      { text: "I will assume A." },
    );
    const home = tempDir("oi-home-");
    const child = spawn(process.execPath, [BIN, "exec", "-m", "mock-model", "--mode", "plan", "ask me"], {
      cwd: tempDir("oi-ws-"),
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
    child.stdin.end("");
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    const code = await new Promise((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    expect(stdout).toBe("I will assume A.\n");
    expect(resultOf("x1")).toContain("No user is available to answer: this session runs unattended.");
  });
});
