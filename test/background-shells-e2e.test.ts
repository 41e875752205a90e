import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { geminiCliHarness } from "../src/harnesses/gemini-cli/gemini-cli-harness.js";
import { qwenCodeHarness } from "../src/harnesses/qwen-code/qwen-code-harness.js";
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
import { type InProcessAgent, until } from "./support/in-process.js";

// Background shells end to end in Gemini CLI's and Qwen Code's terms: the scripted model starts
// commands in the background, reads their output in a later call and in a later turn, hears of
// an end where its original tells one, and when the session closes nothing it started survives.

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

describe("gemini-cli background processes", () => {
  it("starts, lists and reads as Gemini CLI 0.61, across turns, and leaves nothing at close", async () => {
    const { sessionId, agent } = await session(geminiCliHarness);
    const long = processMarker();
    let pid = 0;
    model.reply(
      {
        toolCalls: [
          {
            id: "call_1",
            name: "run_shell_command",
            arguments: { command: `echo up; exec -a ${long} sleep 60`, is_background: true, delay_ms: 300 },
          },
        ],
      },
      replyFrom((body) => {
        pid = Number(
          capture(/Command moved to background \(PID: (\d+)\)\. Output hidden\./, toolText(body, "call_1")),
        );
        return { toolCalls: [{ id: "call_2", name: "read_background_output", arguments: { pid } }] };
      }),
      {
        expect: (body) => expect(toolText(body, "call_2")).toBe("Full Log Output:\nup"),
        text: "The server is up.",
      },
    );
    expect(await agent.prompt(sessionId, "Start the server.")).toBe("end_turn");
    model.reply(
      { toolCalls: [{ id: "call_3", name: "list_background_processes", arguments: {} }] },
      {
        expect: (body) =>
          expect(toolText(body, "call_3")).toBe(
            `- [PID ${pid}] RUNNING: \`echo up; exec -a ${long} sleep 60\``,
          ),
        text: "Still running.",
      },
    );
    expect(await agent.prompt(sessionId, "Is it still up?")).toBe("end_turn");
    model.assertDone();
    expect(liveProcesses(long).length).toBeGreaterThan(0);
    expect(await statusText(agent, sessionId)).toContain(`(pid ${pid}): running for`);
    await agent.close();
    oi = undefined;
    expect(liveProcesses(long)).toEqual([]);
  });
});

describe("qwen-code background shells", () => {
  it("starts shells, reads their files in later calls and turns, tells an end as 0.24.4, and cancels the rest at close", async () => {
    const { sessionId, agent } = await session(qwenCodeHarness);
    const long = processMarker();
    const files: Record<string, string> = {};
    const launched = (text: string) => ({
      id: capture(/^id: (bg_[0-9a-f]{8})$/m, text),
      output: capture(/^output file: (.+)$/m, text),
      status: capture(/^status file: (.+)$/m, text),
    });
    model.reply(
      {
        toolCalls: [
          {
            id: "call_1",
            name: "run_shell_command",
            arguments: { command: "echo hello-bg", is_background: true },
          },
          {
            id: "call_2",
            name: "run_shell_command",
            arguments: { command: `exec -a ${long} sleep 60`, is_background: true },
          },
        ],
      },
      replyFrom((body) => {
        const quick = launched(toolText(body, "call_1"));
        const slow = launched(toolText(body, "call_2"));
        Object.assign(files, {
          quickId: quick.id,
          quick: quick.output,
          quickStatus: quick.status,
          slowId: slow.id,
          slow: slow.status,
        });
        // A model takes a while to answer: time for the quick one to print and end.
        return {
          delayMs: 150,
          toolCalls: [{ id: "call_3", name: "read_file", arguments: { file_path: quick.output } }],
        };
      }),
      {
        expect: (body) => expect(toolText(body, "call_3")).toBe("hello-bg\n"),
        text: "Both started.",
      },
    );
    expect(await agent.prompt(sessionId, "Start both.")).toBe("end_turn");
    await until(() => JSON.parse(readFileSync(files.quickStatus!, "utf8")).status === "completed");
    model.reply(
      replyFrom((body) => {
        const last = userTexts(body).at(-1)!;
        expect(last).toContain(
          `<task-notification>\n<task-id>${files.quickId}</task-id>\n<kind>shell</kind>\n<status>completed</status>\n<summary>Shell command "echo hello-bg" completed.</summary>\n<command>echo hello-bg</command>\n`,
        );
        expect(last).toContain(
          `<exit-code>0</exit-code>\n<output-tail truncated="false">hello-bg</output-tail>\n<output-file>${files.quick}</output-file>\n</task-notification>`,
        );
        expect(last).toMatch(/How are they\?$/);
        expect(last).not.toContain(files.slowId!);
        return { toolCalls: [{ id: "call_4", name: "read_file", arguments: { file_path: files.slow } }] };
      }),
      {
        expect: (body) =>
          expect(JSON.parse(toolText(body, "call_4"))).toMatchObject({ id: files.slowId, status: "running" }),
        text: "One still runs.",
      },
    );
    expect(await agent.prompt(sessionId, "How are they?")).toBe("end_turn");
    model.assertDone();
    expect(liveProcesses(long).length).toBeGreaterThan(0);
    await agent.close();
    oi = undefined;
    expect(liveProcesses(long)).toEqual([]);
    await until(() => JSON.parse(readFileSync(files.slow!, "utf8")).status === "cancelled");
  });
});
