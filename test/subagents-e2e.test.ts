import { methods } from "@agentclientprotocol/sdk/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { claudeCodeHarness } from "../src/harnesses/claude-code/claude-code-harness.js";
import { geminiCliHarness } from "../src/harnesses/gemini-cli/gemini-cli-harness.js";
import { kimiCodeHarness } from "../src/harnesses/kimi-code/kimi-code-harness.js";
import { opencodeHarness } from "../src/harnesses/opencode/opencode-harness.js";
import { qwenCodeHarness } from "../src/harnesses/qwen-code/qwen-code-harness.js";
import type { Harness } from "../src/harnesses/types.js";
import {
  capture,
  harnessSession,
  liveProcesses,
  processMarker,
  replyFrom,
  toolText,
} from "./support/background-kit.js";
import { type ChatBody, type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess, until } from "./support/in-process.js";

// Subagents end to end: the scripted model's parent calls the harness's subagent tool, the child
// session's requests follow in the same script (its own prompt and tools), its command runs and
// its answer comes back to the parent in the original's result text; a cancel mid-command
// leaves no process; the depth limit refuses; both sessions survive a daemon restart.

let model: FakeModel;
let oi: InProcessAgent | undefined;

afterEach(async () => {
  await oi?.close();
  oi = undefined;
  await model?.close();
});

async function session(harness: Harness, configToml = "") {
  const opened = await harnessSession(harness, configToml);
  model = opened.model;
  oi = opened.agent;
  return opened;
}

const toolNames = (body: ChatBody): string[] =>
  (body.tools ?? []).map((t: { function: { name: string } }) => t.function.name);
const systemText = (body: ChatBody): string =>
  body.messages
    .filter((m: { role: string }) => m.role === "system")
    .map((m: { content: string | Array<{ text?: string }> }) =>
      typeof m.content === "string" ? m.content : m.content.map((p) => p.text ?? "").join(""),
    )
    .join("\n");

describe("claude-code Task", () => {
  it("runs an Explore subagent that runs a command, and hands its answer back as 2.1.44 does", async () => {
    const { sessionId, cwd, agent } = await session(claudeCodeHarness);
    model.reply(
      {
        expect: (body) => expect(toolNames(body)[0]).toBe("Task"),
        toolCalls: [
          {
            id: "toolu_task",
            name: "Task",
            arguments: {
              description: "Count the files",
              prompt: "How many files are in the workspace? Use ls.",
              subagent_type: "Explore",
            },
          },
        ],
      },
      {
        // The child's first request: the Explore prompt and its read-only tools.
        expect: (body) => {
          expect(systemText(body)).toContain("file-search specialist");
          expect(toolNames(body)).not.toContain("Task");
          expect(toolNames(body)).not.toContain("Edit");
          expect(toolNames(body)).toContain("Bash");
          const user = JSON.stringify(body.messages.at(-1));
          expect(user).toContain("How many files are in the workspace? Use ls.");
        },
        toolCalls: [
          {
            id: "toolu_ls",
            name: "Bash",
            // Long enough for the editor to see the child's progress before it answers.
            arguments: { command: "sleep 0.4; echo child-ran-this", description: "List files" },
          },
        ],
      },
      {
        expect: (body) => expect(toolText(body, "toolu_ls")).toContain("child-ran-this"),
        text: "The workspace is empty.",
      },
      {
        expect: (body) => {
          const result = toolText(body, "toolu_task");
          expect(result).toMatch(
            /^The workspace is empty\.\nagentId: a[0-9a-f]{6} \(for resuming to continue this agent's work if needed\)\n<usage>total_tokens: \d+\ntool_uses: 1\nduration_ms: \d+<\/usage>$/,
          );
        },
        text: "Your workspace has no files.",
      },
    );
    expect(await agent.prompt(sessionId, "Count my files.")).toBe("end_turn");
    model.assertDone();

    // The editor saw the Task call with the child's progress on it.
    const progress = oi!.editor
      .updates(sessionId)
      .filter((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_task")
      .map((u) => JSON.stringify(u))
      .join("\n");
    expect(progress).toContain("→ sleep 0.4; echo child-ran-this");

    // The child's command asked the editor on the parent's session, on the Task call.
    const asked = oi!.editor.permissions.map((p) => [p.sessionId, p.toolCall.toolCallId, p.toolCall.title]);
    expect(asked).toEqual([[sessionId, "toolu_task", "Count the files: sleep 0.4; echo child-ran-this"]]);

    // The child is stored under its parent.
    const children = oi!.runtime.store.childSessions(sessionId);
    expect(children.map((c) => [c.title, c.parentId, c.harness])).toEqual([
      ["Count the files", sessionId, "claude-code"],
    ]);
    expect(cwd).toBe(children[0]!.cwd);
  });
});

describe("subagent sessions for an editor that shows them (ACP's unstable subagents)", () => {
  it("announces the child on its parent, sends the child's own updates under its id, then its end", async () => {
    model = await startFakeModel();
    oi = await startInProcess({
      model,
      harnesses: [claudeCodeHarness],
      configToml: 'harness = "claude-code"\n',
      clientCapabilities: { subagents: {} },
    });
    const { sessionId } = await oi.newSession();
    model.reply(
      {
        toolCalls: [
          {
            id: "toolu_task",
            name: "Task",
            arguments: { description: "Say hello", prompt: "Run echo.", subagent_type: "general-purpose" },
          },
        ],
      },
      { toolCalls: [{ id: "toolu_echo", name: "Bash", arguments: { command: "echo linked-child" } }] },
      { text: "Said hello." },
      { text: "Done." },
    );
    expect(await oi.prompt(sessionId, "Delegate a hello.")).toBe("end_turn");
    model.assertDone();

    const [child] = oi.runtime.store.childSessions(sessionId);
    const childId = child!.id;
    const { notifications } = oi.editor;
    const announced = notifications.filter(
      (n) => n.sessionId === sessionId && n.update.sessionUpdate === "subagent_update",
    );
    expect(announced.map((n) => n.update)).toEqual([
      {
        sessionUpdate: "subagent_update",
        sessionId: childId,
        title: "Say hello",
        description: "general-purpose",
        state: { state: "running" },
      },
      {
        sessionUpdate: "subagent_update",
        sessionId: childId,
        state: { state: "idle", stopReason: "end_turn" },
      },
    ]);
    // The announcement comes before any of the child's own traffic, its end after all of it.
    const childIndexes = notifications.flatMap((n, i) => (n.sessionId === childId ? [i] : []));
    expect(childIndexes.length).toBeGreaterThan(0);
    expect(notifications.indexOf(announced[0]!)).toBeLessThan(childIndexes[0]!);
    expect(notifications.indexOf(announced[1]!)).toBeGreaterThan(childIndexes.at(-1)!);
    const childUpdates = oi.editor.updates(childId);
    expect(childUpdates.some((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "toolu_echo")).toBe(
      true,
    );
    expect(oi.editor.text(childId)).toContain("Said hello.");
  });

  it("announces nothing to an editor that did not ask for subagent sessions", async () => {
    const { sessionId } = await session(claudeCodeHarness);
    model.reply(
      {
        toolCalls: [
          {
            id: "toolu_task",
            name: "Task",
            arguments: { description: "Hi", prompt: "Answer hi.", subagent_type: "general-purpose" },
          },
        ],
      },
      { text: "hi" },
      { text: "Done." },
    );
    expect(await oi!.prompt(sessionId, "Delegate.")).toBe("end_turn");
    const [child] = oi!.runtime.store.childSessions(sessionId);
    expect(oi!.editor.notifications.filter((n) => n.sessionId === child!.id)).toEqual([]);
    expect(oi!.editor.updates(sessionId).some((u) => u.sessionUpdate === "subagent_update")).toBe(false);
  });
});

describe("claude-code Task resume", () => {
  it("continues the same subagent, with its transcript, when Task names its agent id", async () => {
    const { sessionId, agent } = await session(claudeCodeHarness);
    const ids: Record<string, string> = {};
    const task = (id: string, extra: object) => ({
      id,
      name: "Task",
      arguments: { description: "Remember", subagent_type: "Explore", ...extra },
    });
    model.reply(
      { toolCalls: [task("toolu_1", { prompt: "Remember the word kiwi." })] },
      { text: "Remembered." },
      replyFrom((body) => {
        ids.agent = capture(/agentId: (a[0-9a-f]{6}) /, toolText(body, "toolu_1"));
        return { toolCalls: [task("toolu_2", { prompt: "Which word?", resume: ids.agent })] };
      }),
      {
        // The resumed child: its first exchange, then the new prompt; the Explore prompt again.
        expect: (body) => {
          expect(systemText(body)).toContain("file-search specialist");
          const transcript = JSON.stringify(body.messages);
          expect(transcript).toContain("Remember the word kiwi.");
          expect(transcript).toContain("Remembered.");
          expect(JSON.stringify(body.messages.at(-1))).toContain("Which word?");
        },
        text: "kiwi",
      },
      {
        expect: (body) => {
          expect(toolText(body, "toolu_2")).toMatch(new RegExp(`^kiwi\\nagentId: ${ids.agent} `));
        },
        toolCalls: [task("toolu_3", { prompt: "Anything.", resume: "a000000" })],
      },
      {
        expect: (body) =>
          expect(toolText(body, "toolu_3")).toBe(
            "<tool_use_error>No agent found with ID: a000000</tool_use_error>",
          ),
        text: "The subagent remembered kiwi.",
      },
    );
    expect(await agent.prompt(sessionId, "Test the subagent's memory.")).toBe("end_turn");
    model.assertDone();
    const children = oi!.runtime.store.childSessions(sessionId);
    expect(children.map((c) => c.agentType)).toEqual(["Explore"]);
    const prompts = oi!.runtime.store.history(children[0]!.id).filter((e) => e.type === "user_message");
    expect(prompts).toHaveLength(2);
  });
});

describe("claude-code Task on the Messages wire", () => {
  it("hands back the answer and the agent id block as two text blocks, as 2.1.44 sends them", async () => {
    model = await startFakeModel();
    oi = await startInProcess({
      model,
      cli: { model: "claude-sonnet-4-5" },
      harnesses: [claudeCodeHarness],
      configToml: [
        'harness = "claude-code"',
        'model_provider = "fake"',
        "[model_providers.fake]",
        `base_url = "${model.url}"`,
        'env_key = "FAKE_KEY"',
        'wire_api = "messages"',
        "",
      ].join("\n"),
      env: { FAKE_KEY: "sk-fake" },
    });
    const { sessionId } = await oi.newSession();
    model.reply(
      {
        toolCalls: [
          {
            id: "toolu_task",
            name: "Task",
            arguments: { description: "Plan it", prompt: "Plan the change.", subagent_type: "Plan" },
          },
        ],
      },
      {
        expect: (body) => {
          const system = JSON.stringify(body.system);
          expect(system).toContain("software architect and planning specialist");
          expect(body.tools.map((t: { name: string }) => t.name)).not.toContain("Write");
        },
        text: "Step 1: change nothing.",
      },
      {
        expect: (body) => {
          const result = body.messages
            .flatMap((m: ChatBody) => (Array.isArray(m.content) ? m.content : []))
            .find((block: ChatBody) => block.type === "tool_result");
          expect(result.content).toEqual([
            { type: "text", text: "Step 1: change nothing." },
            {
              type: "text",
              text: expect.stringMatching(
                /^agentId: a[0-9a-f]{6} \(for resuming to continue this agent's work if needed\)\n<usage>total_tokens: \d+\ntool_uses: 0\nduration_ms: \d+<\/usage>$/,
              ),
            },
          ]);
        },
        text: "Planned.",
      },
    );
    expect(await oi.prompt(sessionId, "Plan the change.")).toBe("end_turn");
    model.assertDone();
  });
});

describe("kimi-code Agent", () => {
  it("runs a coder subagent whose own Agent call is refused at max_depth, and answers as 2.1.0 does", async () => {
    const { sessionId, agent } = await session(kimiCodeHarness);
    model.reply(
      {
        expect: (body) => expect(toolNames(body)[0]).toBe("Agent"),
        toolCalls: [
          {
            id: "call_agent",
            name: "Agent",
            arguments: { description: "Check the tree", prompt: "Run a command and report." },
          },
        ],
      },
      {
        // The coder subagent keeps Agent; a second level is past the default max_depth of 1.
        expect: (body) => {
          expect(toolNames(body)).toContain("Agent");
          expect(toolNames(body)).not.toContain("WaitFor");
        },
        toolCalls: [
          { id: "call_echo", name: "Bash", arguments: { command: "echo from-the-coder" } },
          {
            id: "call_nested",
            name: "Agent",
            arguments: { description: "Go deeper", prompt: "Anything." },
          },
        ],
      },
      {
        expect: (body) => {
          expect(toolText(body, "call_echo")).toContain("from-the-coder");
          expect(toolText(body, "call_nested")).toContain(
            "subagent error: This agent cannot start another subagent: 2 levels would exceed [agents] max_depth = 1.",
          );
        },
        text: "The command printed from-the-coder.",
      },
      {
        expect: (body) =>
          expect(toolText(body, "call_agent")).toMatch(
            /^agent_id: [0-9a-f-]{36}\nactual_subagent_type: coder\nstatus: completed\n\n\[summary\]\nThe command printed from-the-coder\.$/,
          ),
        text: "Done.",
      },
    );
    expect(await agent.prompt(sessionId, "Delegate a check.")).toBe("end_turn");
    model.assertDone();
    expect(oi!.runtime.store.childSessions(sessionId)).toHaveLength(1);
  });
});

describe("gemini-cli invoke_agent", () => {
  it("runs the codebase investigator with its read-only tools and answers as 0.61 does", async () => {
    const { sessionId, agent } = await session(geminiCliHarness);
    model.reply(
      {
        toolCalls: [
          {
            id: "call_invoke",
            name: "invoke_agent",
            arguments: { agent_name: "codebase_investigator", prompt: "Where is the entry point?" },
          },
        ],
      },
      {
        expect: (body) => {
          expect(systemText(body)).toContain("Codebase Investigator");
          expect(toolNames(body)).toEqual(["list_directory", "read_file", "grep_search", "glob"]);
        },
        text: "There is no entry point yet.",
      },
      {
        expect: (body) =>
          expect(toolText(body, "call_invoke")).toBe(
            "Subagent 'codebase_investigator' finished.\nTermination Reason: GOAL\nResult:\nThere is no entry point yet.",
          ),
        text: "Nothing to run yet.",
      },
    );
    expect(await agent.prompt(sessionId, "Find the entry point.")).toBe("end_turn");
    model.assertDone();
  });
});

describe("opencode task", () => {
  it("runs an explore subagent that runs a command, and hands back its text in 1.18.33's <task> block", async () => {
    const { sessionId, agent } = await session(opencodeHarness);
    let childId = "";
    model.reply(
      {
        expect: (body) => expect(toolNames(body)).toContain("task"),
        toolCalls: [
          {
            id: "call_bad",
            name: "task",
            arguments: { description: "x", prompt: "y", subagent_type: "scout" },
          },
        ],
      },
      {
        expect: (body) =>
          expect(toolText(body, "call_bad")).toBe("Unknown agent type: scout is not a valid agent type"),
        toolCalls: [
          {
            id: "call_task",
            name: "task",
            arguments: {
              description: "Look around",
              prompt: "What is here? Use ls.",
              subagent_type: "explore",
            },
          },
        ],
      },
      {
        // The child: explore's own prompt in place of the family's, and its five tools.
        expect: (body) => {
          expect(systemText(body)).toContain("You are a file search specialist.");
          expect(systemText(body)).toContain("<env>");
          expect(toolNames(body)).toEqual(["bash", "glob", "grep", "read", "webfetch"]);
        },
        toolCalls: [
          { id: "call_ls", name: "bash", arguments: { command: "echo explored-here", description: "ls" } },
        ],
      },
      {
        expect: (body) => expect(toolText(body, "call_ls")).toContain("explored-here"),
        text: "Nothing but an empty folder.",
      },
      {
        expect: (body) => {
          childId = oi!.runtime.store.childSessions(sessionId)[0]!.id;
          expect(toolText(body, "call_task")).toBe(
            `<task id="${childId}" state="completed">\n<task_result>\nNothing but an empty folder.\n</task_result>\n</task>`,
          );
        },
        text: "The folder is empty.",
      },
    );
    expect(await agent.prompt(sessionId, "What is in here?")).toBe("end_turn");
    model.assertDone();
    expect(childId).not.toBe("");
  });
});

describe("qwen-code agent", () => {
  it("runs an Explore subagent and hands back its answer as 0.24.4's foreground path does", async () => {
    const { sessionId, agent } = await session(qwenCodeHarness);
    model.reply(
      {
        expect: (body) => expect(toolNames(body)[0]).toBe("agent"),
        toolCalls: [
          {
            id: "call_agent",
            name: "agent",
            arguments: {
              description: "Find tests",
              prompt: "Where are the tests?",
              subagent_type: "Explore",
            },
          },
        ],
      },
      {
        expect: (body) => {
          expect(systemText(body)).toContain("read-only exploration subagent");
          expect(toolNames(body)).toEqual(["glob", "grep_search", "read_file", "run_shell_command", "skill"]);
        },
        text: "<analysis>I looked around.</analysis>\n<summary>There are no tests.</summary>",
      },
      {
        expect: (body) => expect(toolText(body, "call_agent")).toBe("There are no tests."),
        text: "No tests yet.",
      },
    );
    expect(await agent.prompt(sessionId, "Find the tests.")).toBe("end_turn");
    model.assertDone();
  });
});

describe("subagent limits and cancel", () => {
  const task = (id: string, prompt: string) => ({
    id,
    name: "Task",
    arguments: { description: "Run the job", prompt, subagent_type: "general-purpose" },
  });

  it("cancelling the parent mid-command cancels the subagent and leaves no process", async () => {
    const { sessionId, agent } = await session(claudeCodeHarness);
    const marker = processMarker();
    model.reply(
      { toolCalls: [task("toolu_task", "Run the long job.")] },
      {
        toolCalls: [
          { id: "toolu_sleep", name: "Bash", arguments: { command: `exec -a ${marker} sleep 60` } },
        ],
      },
    );
    const stop = agent.prompt(sessionId, "Start the job.");
    await until(() => liveProcesses(marker).length > 0, 10_000);
    await oi!.agent.notify(methods.agent.session.cancel, { sessionId });
    expect(await stop).toBe("cancelled");
    model.assertDone();
    expect(liveProcesses(marker)).toEqual([]);
    // The child's turn ended cancelled in its own history.
    const [child] = oi!.runtime.store.childSessions(sessionId);
    const ended = oi!.runtime.store.history(child!.id).filter((e) => e.type === "turn_ended");
    expect(ended).toEqual([expect.objectContaining({ stopReason: "cancelled" })]);
  }, 30_000);

  it("refuses a subagent past [agents] max_threads while another session's runs", async () => {
    const { sessionId, agent } = await session(claudeCodeHarness, "[agents]\nmax_threads = 1\n");
    const other = await agent.newSession();
    const marker = processMarker();
    model.reply(
      { toolCalls: [task("toolu_a", "Run the long job.")] },
      {
        toolCalls: [
          { id: "toolu_sleep", name: "Bash", arguments: { command: `exec -a ${marker} sleep 60` } },
        ],
      },
      // The other session's model, while the first session's subagent is still in its command.
      { toolCalls: [task("toolu_b", "Another job.")] },
      {
        expect: (body) =>
          expect(toolText(body, "toolu_b")).toBe(
            "<tool_use_error>No subagent was started: 1 already running, the most [agents] max_threads = 1 allows. Wait for them to finish, or do the task yourself.</tool_use_error>",
          ),
        text: "I will do it myself.",
      },
    );
    const first = agent.prompt(sessionId, "Start the long job.");
    await until(() => liveProcesses(marker).length > 0, 10_000);
    expect(await agent.prompt(other.sessionId, "Start another job.")).toBe("end_turn");
    await oi!.agent.notify(methods.agent.session.cancel, { sessionId });
    expect(await first).toBe("cancelled");
    model.assertDone();
    expect(liveProcesses(marker)).toEqual([]);
  }, 30_000);

  it("refuses a subagent past [agents] max_depth with a result that says why", async () => {
    const { sessionId, agent } = await session(claudeCodeHarness, "[agents]\nmax_depth = 0\n");
    model.reply(
      { toolCalls: [task("toolu_task", "Anything.")] },
      {
        expect: (body) =>
          expect(toolText(body, "toolu_task")).toBe(
            "<tool_use_error>Subagents are turned off ([agents] max_depth = 0).</tool_use_error>",
          ),
        text: "I will do it myself.",
      },
    );
    expect(await agent.prompt(sessionId, "Delegate this.")).toBe("end_turn");
    model.assertDone();
    expect(oi!.runtime.store.childSessions(sessionId)).toEqual([]);
  });
});

describe("subagent sessions in session/list and session/load", () => {
  it("lists the child under its parent and replays each, after a daemon restart", async () => {
    const { sessionId, cwd, agent } = await session(claudeCodeHarness);
    model.reply(
      {
        toolCalls: [
          {
            id: "toolu_task",
            name: "Task",
            arguments: { description: "Say hello", prompt: "Say hello.", subagent_type: "general-purpose" },
          },
        ],
      },
      { text: "Hello from the child." },
      { text: "The child said hello." },
    );
    expect(await agent.prompt(sessionId, "Ask a subagent to say hello.")).toBe("end_turn");
    model.assertDone();
    const [child] = oi!.runtime.store.childSessions(sessionId);

    const home = agent.home;
    await agent.close();
    oi = await startInProcess({ model, home, harnesses: [claudeCodeHarness] });

    const listed = await oi.agent.request(methods.agent.session.list, {});
    expect(listed.sessions.map((s) => s.sessionId)).toEqual([sessionId]);
    expect(listed.sessions[0]!._meta).toEqual({
      "openinterpreter/subagentSessions": [
        { sessionId: child!.id, title: "Say hello", updatedAt: expect.any(String) },
      ],
    });

    await oi.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    expect(oi.editor.text(sessionId)).toBe("The child said hello.");
    const call = oi.editor
      .updates(sessionId)
      .find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "toolu_task");
    expect(JSON.stringify(call)).toContain("Hello from the child.");

    await oi.agent.request(methods.agent.session.load, { sessionId: child!.id, cwd, mcpServers: [] });
    expect(oi.editor.text(child!.id)).toBe("Hello from the child.");
    const prompt = oi.editor.updates(child!.id).find((u) => u.sessionUpdate === "user_message_chunk");
    expect(JSON.stringify(prompt)).toContain("Say hello.");
  });
});
