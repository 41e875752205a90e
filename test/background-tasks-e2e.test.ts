import { methods } from "@agentclientprotocol/sdk/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { claudeCodeHarness } from "../src/harnesses/claude-code/claude-code-harness.js";
import { kimiCodeHarness } from "../src/harnesses/kimi-code/kimi-code-harness.js";
import type { Harness } from "../src/harnesses/types.js";
import {
  capture,
  harnessSession,
  liveProcesses,
  processMarker,
  replyFrom,
  statusText,
  toolText,
  userTexts,
} from "./support/background-kit.js";
import type { FakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess, until } from "./support/in-process.js";

// Background tasks end to end in the harnesses whose originals have task tools: the scripted
// model starts commands in the background, reads their output in a later call and in a later
// turn, stops one, hears of an end the way its original tells it, and when the session closes
// nothing it started survives.

let model: FakeModel;
let oi: InProcessAgent | undefined;

afterEach(async () => {
  await oi?.close();
  oi = undefined;
  await model?.close();
});

async function session(harness: Harness) {
  const opened = await harnessSession(harness);
  model = opened.model;
  oi = opened.agent;
  return opened;
}

describe("claude-code background shells", () => {
  const started = /Command running in background with ID: (b[0-9a-f]{6})\./;

  it("runs, reads, stops and tells as Claude Code 2.1.44, across turns, and leaves nothing at close", async () => {
    const { sessionId, cwd, agent } = await session(claudeCodeHarness);
    const long = processMarker();
    const stopped = processMarker();
    const ids: Record<string, string> = {};
    model.reply(
      {
        toolCalls: [
          {
            id: "toolu_1",
            name: "Bash",
            arguments: {
              command: "echo first; sleep 0.2; echo second",
              description: "Quick job",
              run_in_background: true,
            },
          },
          {
            id: "toolu_2",
            name: "Bash",
            arguments: {
              command: `exec -a ${long} sleep 60`,
              description: "Long job",
              run_in_background: true,
            },
          },
        ],
      },
      replyFrom((body) => {
        ids.quick = capture(started, toolText(body, "toolu_1"));
        ids.long = capture(started, toolText(body, "toolu_2"));
        return {
          toolCalls: [
            {
              id: "toolu_3",
              name: "TaskOutput",
              arguments: { task_id: ids.quick, block: true, timeout: 10000 },
            },
          ],
        };
      }),
      {
        expect: (body) => {
          expect(toolText(body, "toolu_3")).toBe(
            `<retrieval_status>success</retrieval_status>\n\n<task_id>${ids.quick}</task_id>\n\n<task_type>local_bash</task_type>\n\n<status>completed</status>\n\n<exit_code>0</exit_code>\n\n<output>\nfirst\nsecond\n</output>`,
          );
          // 2.1.44 tells nothing of an end while the turn runs.
          expect(JSON.stringify(body.messages)).not.toContain("task-notification");
        },
        text: "Both jobs are started.",
      },
    );
    expect(await agent.prompt(sessionId, "Start the jobs.")).toBe("end_turn");
    expect(liveProcesses(long).length).toBeGreaterThan(0);

    model.reply(
      {
        expect: (body) => {
          const last = userTexts(body).at(-1)!;
          expect(last).toMatch(
            new RegExp(
              `^<task-notification>\\n<task-id>${ids.quick}</task-id>\\n<output-file>(\\S+/tasks/${ids.quick}\\.output)</output-file>\\n<status>completed</status>\\n<summary>Background command "Quick job" completed \\(exit code 0\\)</summary>\\n</task-notification>\\nRead the output file to retrieve the result: \\1\\n\\nHow are they doing\\?$`,
            ),
          );
          expect(last).not.toContain(ids.long);
        },
        toolCalls: [{ id: "toolu_4", name: "TaskOutput", arguments: { task_id: ids.long, block: false } }],
      },
      {
        expect: (body) =>
          expect(toolText(body, "toolu_4")).toBe(
            `<retrieval_status>not_ready</retrieval_status>\n\n<task_id>${ids.long}</task_id>\n\n<task_type>local_bash</task_type>\n\n<status>running</status>`,
          ),
        toolCalls: [
          {
            id: "toolu_5",
            name: "Bash",
            arguments: {
              command: `exec -a ${stopped} sleep 60`,
              description: "To stop",
              run_in_background: true,
            },
          },
        ],
      },
      replyFrom((body) => {
        ids.stopped = capture(started, toolText(body, "toolu_5"));
        return { toolCalls: [{ id: "toolu_6", name: "TaskStop", arguments: { task_id: ids.stopped } }] };
      }),
      {
        expect: (body) =>
          expect(JSON.parse(toolText(body, "toolu_6"))).toEqual({
            message: `Successfully stopped task: ${ids.stopped} (exec -a ${stopped} sleep 60)`,
            task_id: ids.stopped,
            task_type: "local_bash",
            command: `exec -a ${stopped} sleep 60`,
          }),
        text: "One left running.",
      },
    );
    expect(await agent.prompt(sessionId, "How are they doing?")).toBe("end_turn");
    model.assertDone();
    expect(liveProcesses(stopped)).toEqual([]);
    expect(liveProcesses(long).length).toBeGreaterThan(0);

    const status = await statusText(agent, sessionId);
    expect(status).toMatch(
      new RegExp(
        `Background commands: 1 running\\n[\\s\\S]*- \`${ids.long}\` \\(pid \\d+\\): running for \\d+ s`,
      ),
    );
    expect(status).toContain(`- \`${ids.quick}\``);

    // Replay keeps the end the model was told of.
    const home = agent.home;
    await agent.close();
    oi = undefined;
    expect(liveProcesses(long)).toEqual([]);
    oi = await startInProcess({ model, home, harnesses: [claudeCodeHarness] });
    await oi.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    await until(() =>
      oi!.editor.text(sessionId).includes(`Background command \`${ids.quick}\` exited with code 0`),
    );
  });
});

describe("kimi-code background tasks", () => {
  const started = /task_id: (bash-[0-9a-z]{8})/;
  type Message = { role: string; content: string; tool_call_id?: string };
  /** The messages right after the tool message answering `callId`. */
  const after = (body: { messages: Message[] }, callId: string) => {
    const index = body.messages.findIndex((m) => m.role === "tool" && m.tool_call_id === callId);
    return body.messages.slice(index + 1);
  };

  it("runs, moves, waits, stops and tells as Kimi Code 2.1.0, across turns, and leaves nothing at close", async () => {
    const { sessionId, agent } = await session(kimiCodeHarness);
    const long = processMarker();
    const moved = processMarker();
    const ids: Record<string, string> = {};
    const bash = (id: string, command: string, extra: object = {}) => ({
      id,
      name: "Bash",
      arguments: { command, ...extra },
    });
    model.reply(
      {
        toolCalls: [
          bash("call_1", "echo first; sleep 0.2; echo second", {
            run_in_background: true,
            description: "quick",
          }),
          bash("call_2", `exec -a ${long} sleep 60`, { run_in_background: true, description: "long" }),
        ],
      },
      replyFrom((body) => {
        ids.quick = capture(started, toolText(body, "call_1"));
        ids.long = capture(started, toolText(body, "call_2"));
        return { toolCalls: [bash("call_3", "sleep 1")] };
      }),
      replyFrom((body) => {
        // 2.1.0 appends the end right after the next tool result, as a user message of its own.
        const next = after(body as never, "call_3");
        expect(next).toHaveLength(1);
        expect(next[0]!.role).toBe("user");
        expect(next[0]!.content).toMatch(
          new RegExp(
            `^<notification id="task:${ids.quick}:completed" category="task" type="task.completed" source_kind="background_task" source_id="${ids.quick}">\nTitle: Background process completed\nSeverity: info\nWall time: \\d+\\.\\d{3} seconds\nquick completed\\.\n<output-file path="\\S+/tasks/${ids.quick}/output\\.log" bytes="13">\n`,
          ),
        );
        return { toolCalls: [{ id: "call_4", name: "TaskOutput", arguments: { task_id: ids.quick } }] };
      }),
      {
        expect: (body) => {
          const text = toolText(body, "call_4");
          expect(text).toMatch(/^Wall time: \d+\.\d{3} seconds\nretrieval_status: success\n/);
          expect(text.endsWith("\n\n[output]\nfirst\nsecond\n")).toBe(true);
        },
        text: "The quick one is done.",
      },
    );
    expect(await agent.prompt(sessionId, "Start the jobs.")).toBe("end_turn");
    expect(liveProcesses(long).length).toBeGreaterThan(0);

    model.reply(
      {
        expect: (body) => expect(JSON.stringify(body.messages)).not.toContain(`task:${ids.long}`),
        toolCalls: [{ id: "call_5", name: "TaskList", arguments: {} }],
      },
      {
        expect: (body) =>
          expect(toolText(body, "call_5")).toMatch(
            new RegExp(
              `^active_background_tasks: 1\nWall time: [\\d.]+ seconds\ntask_id: ${ids.long}\ndescription: long\nstatus: running\n`,
            ),
          ),
        toolCalls: [bash("call_6", `echo start; exec -a ${moved} sleep 60`, { timeout: 1 })],
      },
      replyFrom((body) => {
        const text = toolText(body, "call_6");
        expect(text).toContain("next_step: The task now runs in the background.");
        expect(text.endsWith("\n\nforeground_output:\nstart\n")).toBe(true);
        ids.moved = capture(started, text);
        return { toolCalls: [{ id: "call_7", name: "TaskStop", arguments: { task_id: ids.moved } }] };
      }),
      {
        expect: (body) =>
          expect(toolText(body, "call_7")).toMatch(
            new RegExp(
              `^Wall time: [\\d.]+ seconds\ntask_id: ${ids.moved}\nstatus: killed\nreason: Stopped by TaskStop$`,
            ),
          ),
        text: "Stopped the slow one.",
      },
    );
    expect(await agent.prompt(sessionId, "Check on them.")).toBe("end_turn");
    model.assertDone();
    expect(liveProcesses(moved)).toEqual([]);
    expect(await statusText(agent, sessionId)).toMatch(
      new RegExp(`Background commands: 1 running\n[\\s\\S]*- \`${ids.long}\` \\(pid \\d+\\): running for`),
    );

    await agent.close();
    oi = undefined;
    expect(liveProcesses(long)).toEqual([]);
  });
});
