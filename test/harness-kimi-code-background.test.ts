import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { kimiCodeHarness } from "../src/harnesses/kimi-code/kimi-code-harness.js";
import { taskNotification } from "../src/harnesses/kimi-code/task-notification.js";
import type { HistoryEventOf } from "../src/store/events.js";
import { type BackgroundProcess, BackgroundProcesses } from "../src/tools/exec/background-processes.js";
import { harnessContext, tempDir, toolContext, toolRunner } from "./support/harness-fixtures.js";

// Kimi Code 2.1.0's background tasks on real processes; texts as the real 2.1.0 answered the same
// calls (/root/cap/i21/kimi-code/NOTES.md §1). Task runtimes and pids vary: they are matched.

const WALL = "Wall time: \\d+\\.\\d{3} seconds";
const re = (text: string) => new RegExp(`^${text}$`);
const esc = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function setup() {
  const cwd = tempDir("oi-kimi-bg-");
  const scratchDir = tempDir("oi-kimi-bg-scratch-");
  const ends: BackgroundProcess[] = [];
  const background = new BackgroundProcesses({ onEnd: (p) => ends.push(p) });
  // As the session does: an end is told unless a tool reported it before the next request.
  const ended = () => ends.filter((p) => p.notify);
  const session = new AbortController();
  const tools = kimiCodeHarness.open(harnessContext({ cwd, scratchDir })).tools;
  const run = toolRunner(
    tools,
    toolContext(cwd, { background, sessionSignal: session.signal, callId: "call_1_0" }),
  );
  const start = async (command: string, description: string, extra: object = {}) => {
    const { output } = await run("Bash", { command, description, run_in_background: true, ...extra });
    const id = /task_id: (bash-[0-9a-z]{8})/.exec(output)?.[1];
    expect(id, output).toBeDefined();
    return { id: id!, output, file: path.join(scratchDir, "tasks", id!, "output.log") };
  };
  return { cwd, run, start, ended, session };
}

const block = (id: string, lines: string[]) =>
  [`task_id: ${id}`, ...lines].map((line) => (line === WALL ? line : esc(line))).join("\\n");

describe("Kimi Code background tasks", () => {
  it("starts a task as 2.1.0 answers, and requires a description", async () => {
    const { run, start } = setup();
    const { id, output } = await start("sleep 0.3; echo bg-done", "bg sleep");
    expect(output).toMatch(
      re(
        `${WALL}\\n${block(id, [])}\\npid: \\d+\\ndescription: bg sleep\\nstatus: running\\nautomatic_notification: true\\n${esc(
          "next_step: The completion arrives automatically in a later turn — do NOT wait, poll, or call TaskOutput on it; continue with your current work.\nnext_step: Use TaskStop only if the task must be cancelled.\nhuman_shell_hint: The task is visible in the background-task panel.",
        )}`,
      ),
    );
    const missing = await run("Bash", { command: "echo nodesc", run_in_background: true });
    expect(missing.isError).toBe(true);
    expect(missing.output).toMatch(re(`${WALL}\\ndescription is required when run_in_background is true\\.`));
  });

  it("lists, shows and waits for tasks with 2.1.0's lines", async () => {
    const { run, start, ended } = setup();
    expect((await run("TaskList", {})).output).toBe("active_background_tasks: 0\nNo background tasks found.");
    const { id, file } = await start("echo partial; sleep 0.6; echo late; exit 2", "partial output");
    const common = (status: string) => [
      "description: partial output",
      `status: ${status}`,
      "detached: true",
      "timeout_ms: 600000",
      "kind: process",
      "command: echo partial; sleep 0.6; echo late; exit 2",
    ];
    const listed = (await run("TaskList", {})).output;
    expect(listed).toMatch(
      re(
        `active_background_tasks: 1\\n${WALL}\\n${block(id, common("running"))}\\npid: \\d+\\nparent_tool_call_id: call_1_0`,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await run("TaskOutput", { task_id: id })).output).toMatch(
      re(
        `${WALL}\\nretrieval_status: not_ready\\n${block(id, common("running"))}\\npid: \\d+\\n${esc(
          `parent_tool_call_id: call_1_0\noutput_path: ${file}\noutput_size_bytes: 8\noutput_preview_bytes: 8\noutput_truncated: false\nfull_output_available: true\nfull_output_tool: Read\nfull_output_hint: The preview above is the complete output. Use the Read tool with the output_path if you need to re-read the full log later (parameters: path, line_offset, n_lines; read about 300 lines per page).\n\n[output]\npartial\n`,
        )}`,
      ),
    );
    const waited = (await run("WaitFor", { timeout: 10, task_id: id })).output;
    expect(waited).toMatch(
      re(
        `wait_status: completed\\ntask_id: ${id}\\nwaited_ms: \\d+\\ntimeout_ms: 10000\\n\\n\\[finished\\]\\n${WALL}\\n${block(id, common("failed"))}\\npid: \\d+\\n${esc(
          `exit_code: 2\nparent_tool_call_id: call_1_0\noutput_path: ${file}\noutput_size_bytes: 13\n`,
        )}[\\s\\S]*\\n\\[output\\]\\npartial\\nlate\\n`,
      ),
    );
    // Collected by WaitFor: never announced.
    expect(ended()).toEqual([]);
    expect((await run("TaskList", { active_only: false })).output).toMatch(/^background_tasks: 1\n/);
    expect((await run("WaitFor", { timeout: 1 })).output).toBe(
      "wait_status: no_tasks\nwaited_ms: 0\ntimeout_ms: 1000\n\nNo background tasks are running, so there is nothing to wait for. Finished tasks report back via automatic notification.",
    );
  });

  it("times out a wait without error, stops a task, and names unknown ones", async () => {
    const { run, start, ended } = setup();
    const { id } = await start("sleep 30", "long sleep");
    const waited = await run("WaitFor", { timeout: 1, task_id: id });
    expect(waited.isError).toBeFalsy();
    expect(waited.output).toMatch(
      re(
        `wait_status: timed_out\\ntask_id: ${id}\\nwaited_ms: \\d+\\ntimeout_ms: 1000\\n${esc(
          "The wait ended before the task finished — a timeout is not an error. Call WaitFor again to keep waiting, or continue with other work; completion also arrives via automatic notification.",
        )}\\n\\n\\[still_running\\]\\nactive_background_tasks: 1\\n${WALL}\\n${block(id, ["description: long sleep", "status: running"])}[\\s\\S]*`,
      ),
    );
    expect((await run("TaskStop", { task_id: id })).output).toMatch(
      re(`${WALL}\\ntask_id: ${id}\\nstatus: killed\\nreason: Stopped by TaskStop`),
    );
    expect((await run("TaskOutput", { task_id: id })).output).toMatch(
      re(
        `${WALL}\\nretrieval_status: success\\n${block(id, [
          "description: long sleep",
          "status: killed",
          "detached: true",
          "stop_reason: Stopped by TaskStop",
          "terminal_notification_suppressed: true",
          "timeout_ms: 600000",
          "kind: process",
          "command: sleep 30",
        ])}\\npid: \\d+\\n${esc(
          "exit_code: -1\nparent_tool_call_id: call_1_0\nterminal_reason: stopped\noutput_size_bytes: 0\noutput_preview_bytes: 0\noutput_truncated: false\nfull_output_available: false\n\n[output]\n[no output available]",
        )}`,
      ),
    );
    expect(ended()).toEqual([]);
    for (const name of ["TaskOutput", "TaskStop"]) {
      expect(await run(name, { task_id: "bash-nope1234" })).toEqual({
        output: "Task not found: bash-nope1234",
        isError: true,
      });
    }
    expect((await run("WaitFor", { timeout: 1, task_id: "bash-nope1234" })).output).toBe(
      "Task not found: bash-nope1234",
    );
  });

  it("keeps the last 32 KiB of a large output, ends a task at its own timeout, and dies with the session", async () => {
    const { run, start, ended, session, cwd } = setup();
    const big = await start("seq 1 200000", "big bg");
    await run("WaitFor", { timeout: 10, task_id: big.id });
    const output = (await run("TaskOutput", { task_id: big.id })).output;
    expect(output).toContain(
      `output_size_bytes: 1288895\noutput_preview_bytes: 32768\noutput_truncated: true\nfull_output_available: true\nfull_output_tool: Read\nfull_output_hint: Only the last 32768 bytes are shown above.`,
    );
    expect(output).toContain(`\n\n[Truncated. Full output: ${big.file}]\n[output]\n\n195320\n195321\n`);
    expect(output.endsWith("199999\n200000\n")).toBe(true);

    const timed = await start("sleep 5", "timeout bg", { timeout: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1800));
    expect(ended().map((p) => [p.id, p.status])).toEqual([[timed.id, "timed_out"]]);
    expect((await run("TaskList", { active_only: false, limit: 1 })).output).toMatch(
      /^background_tasks: 1\n/,
    );

    const marker = path.join(cwd, "survived");
    await start(`sleep 1 && touch ${marker}`, "left running");
    session.abort();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(existsSync(marker)).toBe(false);
  });
});

describe("taskNotification", () => {
  const event = (over: Partial<HistoryEventOf<"background_ended">>): HistoryEventOf<"background_ended"> => ({
    type: "background_ended",
    id: "bash-ve626g9y",
    harness: "kimi-code",
    command: "sleep 1; echo second-bg",
    description: "bg2",
    cwd: "/w",
    status: "completed",
    exitCode: 0,
    outputFile: "/s/tasks/bash-ve626g9y/output.log",
    outputBytes: 10,
    outputTail: "second-bg\n",
    durationMs: 1004,
    ...over,
  });

  it("words each end as 2.1.0, without the file block when nothing was printed", () => {
    expect(taskNotification(event({}))).toBe(
      '<notification id="task:bash-ve626g9y:completed" category="task" type="task.completed" source_kind="background_task" source_id="bash-ve626g9y">\nTitle: Background process completed\nSeverity: info\nWall time: 1.004 seconds\nbg2 completed.\n<output-file path="/s/tasks/bash-ve626g9y/output.log" bytes="10">\nRead the output file to retrieve the result: /s/tasks/bash-ve626g9y/output.log\n</output-file>\n</notification>',
    );
    expect(taskNotification(event({ status: "failed", exitCode: 3, description: "failing bg" }))).toContain(
      'type="task.failed" source_kind="background_task" source_id="bash-ve626g9y">\nTitle: Background process failed\nSeverity: warning\nWall time: 1.004 seconds\nfailing bg failed.\n',
    );
    expect(taskNotification(event({ status: "timed_out", outputBytes: 0, description: "timeout bg" }))).toBe(
      '<notification id="task:bash-ve626g9y:timed_out" category="task" type="task.timed_out" source_kind="background_task" source_id="bash-ve626g9y">\nTitle: Background process timed_out\nSeverity: warning\nWall time: 1.004 seconds\ntimeout bg timed out.\n</notification>',
    );
  });
});
