import os from "node:os";
import { describe, expect, it } from "vitest";
import { bashTool } from "../src/harnesses/mini-swe-agent/bash-tool.js";
import {
  instancePrompt,
  miniSweAgentHarness,
  systemInformation,
} from "../src/harnesses/mini-swe-agent/mini-swe-agent-harness.js";
import { formatObservation, formatTimeout } from "../src/harnesses/mini-swe-agent/observation.js";
import { formatErrorText } from "../src/harnesses/mini-swe-agent/parse-action.js";
import type { HistoryEvent } from "../src/store/events.js";
import { chatView, firstRequest, harnessContext, tempDir, toolContext } from "./support/harness-fixtures.js";

const ctx = harnessContext({ model: "mock-model" });

let ids = 0;
const parse = (text: string) => miniSweAgentHarness.parse!(text, { step: 1, newId: () => `id${++ids}` });

describe("mini-swe-agent protocol", () => {
  it("sends no tool schema: one bash action, described only in the prompt", () => {
    const opened = miniSweAgentHarness.open(ctx);
    const tools = opened.tools;
    expect(tools.map((t) => [t.name, t.parameters])).toEqual([
      [
        "bash",
        {
          type: "object",
          properties: { command: { type: "string", description: "The bash command to run" } },
          required: ["command"],
        },
      ],
    ]);
    const request = chatView(
      opened.render({
        history: [{ type: "user_message", turnId: "t1", content: [{ type: "text", text: "Fix the bug." }] }],
        tools,
        ctx,
      }),
    );
    expect(request.tools).toEqual([]);
    expect(request.messages.map((m) => m.role)).toEqual(["system", "user"]);
    const system = request.messages[0]!.content as string;
    expect(system.startsWith("You are a helpful assistant that can interact with a computer.\n\n")).toBe(
      true,
    );
    expect(system).toContain("exactly ONE bash code block");
    expect(system).toContain("<format_example>\n");
    expect(system).toContain("\n```bash\nyour_command_here\n```\n</format_example>");
    expect(system.endsWith("\n")).toBe(false);
    expect(request.messages[1]!.content).toBe(instancePrompt("Fix the bug."));
  });

  it("wraps the first task in the instance template, with uname and the sed quirk of its Jinja render", () => {
    const linux = instancePrompt("Fix it.", "Linux 6.8.0 #1 SMP x86_64");
    expect(linux.startsWith("Please solve this issue: Fix it.\n\n")).toBe(true);
    for (const heading of ["## Recommended Workflow", "## Important Rules", "## Formatting your response"]) {
      expect(linux).toContain(`\n${heading}\n`);
    }
    expect(linux).toContain("`echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`");
    expect(linux).toContain("<system_information>\nLinux 6.8.0 #1 SMP x86_64\n</system_information>");
    expect(linux).toContain("<example_response>\nTHOUGHT: ");
    expect(linux).toContain("### Edit files with sed:```bash\n# Replace all occurrences\n");
    expect(linux.endsWith("```bash\nanything\n```")).toBe(true);
    const mac = instancePrompt("Fix it.", "Darwin 24.0.0 Darwin Kernel arm64");
    expect(mac).toContain("### Edit files with sed:<important>\n");
    expect(mac).toContain("`sed -i ''`");
    expect(systemInformation()).toBe(`${os.type()} ${os.release()} ${os.version()} ${os.machine()}`);
  });

  it("parses exactly one bash block; zero or several get the format error", () => {
    expect(parse("THOUGHT: list\n\n```bash\nls -la\n```")).toEqual({
      calls: [{ id: expect.any(String), name: "bash", arguments: JSON.stringify({ command: "ls -la" }) }],
    });
    expect(parse("```bash\ncat <<'EOF' > a.py\nprint(1)\nEOF\n```").calls[0]!.arguments).toBe(
      JSON.stringify({ command: "cat <<'EOF' > a.py\nprint(1)\nEOF" }),
    );
    expect(parse("I think the answer is 42.")).toEqual({ calls: [], formatError: formatErrorText(0) });
    expect(parse("```bash\nls\n```\nthen\n```bash\npwd\n```")).toEqual({
      calls: [],
      formatError: formatErrorText(2),
    });
    // A ```python block is not an action.
    expect(parse("```python\nprint(1)\n```").formatError).toBe(formatErrorText(0));
  });

  it("ends the turn on the submit command instead of running it", () => {
    expect(parse("Done.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```")).toEqual({ calls: [] });
    expect(parse("```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff\n```")).toEqual({
      calls: [],
    });
    expect(parse("```bash\necho MINI_SWE_AGENT_FINAL_OUTPUT\n```")).toEqual({ calls: [] });
    expect(parse("```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUTS\n```").calls).toHaveLength(1);
  });

  it("has mini-swe-agent's format-error first line, word for word", () => {
    const text = formatErrorText(0);
    expect(text.split("\n")[0]).toBe(
      "Please always provide EXACTLY ONE action in triple backticks, found 0 actions.",
    );
    expect(text).toContain("`echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`");
    expect(text).toContain("<response_example>\n");
    expect(text).toContain("```bash\n<action>\n```\n</response_example>");
    expect(text).toContain("TRIPLEBACKTICKSBASH");
  });
});

describe("mini-swe-agent observations", () => {
  it("renders <returncode> and <output> as its Jinja template does", () => {
    expect(formatObservation({ returncode: 0, output: "hello\n" })).toBe(
      "<returncode>0</returncode>\n<output>\nhello\n</output>",
    );
    expect(formatObservation({ returncode: 1, output: "" })).toBe(
      "<returncode>1</returncode>\n<output>\n</output>",
    );
  });

  it("keeps 5000 characters on each side of 10000 or more, with the warning and the elided count", () => {
    const text = `${"a".repeat(6000)}${"é".repeat(6000)}`;
    const out = formatObservation({ returncode: 0, output: text });
    expect(out.startsWith("<returncode>0</returncode>\n<warning>\n")).toBe(true);
    expect(out).toContain(`</warning><output_head>\n${"a".repeat(5000)}\n</output_head>\n`);
    expect(out).toContain("<elided_chars>\n2000 characters elided\n</elided_chars>\n");
    expect(out.endsWith(`<output_tail>\n${"é".repeat(5000)}\n</output_tail>`)).toBe(true);
    // Exactly 10000 characters already takes the long form (the template tests `< 10000`).
    expect(formatObservation({ returncode: 0, output: "x".repeat(10_000) })).toContain(
      "<elided_chars>\n0 characters elided\n</elided_chars>",
    );
  });

  it("counts bytes the runner dropped from the middle", () => {
    const output = `${"h".repeat(6000)}\n[… 50000 bytes omitted …]\n${"t".repeat(6000)}`;
    const out = formatObservation({ returncode: 0, output, droppedBytes: 50_000 });
    expect(out).toContain("<elided_chars>\n52000 characters elided\n</elided_chars>");
  });

  it("reports timeouts with the command and its output", () => {
    expect(formatTimeout({ command: "sleep 100", output: "partial\n" })).toBe(
      "The last command <command>sleep 100</command> timed out and was killed.\n" +
        "The command printed:\n<output>\npartial\n\n</output>\n" +
        "Please try another command, and avoid commands that wait for interactive input.",
    );
  });

  it("runs a command in a subshell and answers with the observation", async () => {
    const cwd = tempDir("oi-mini-");
    const tool = bashTool();
    const run = (command: string) => tool.execute({ command }, toolContext(cwd));
    expect(await run("echo out; echo err >&2")).toMatchObject({
      output: "<returncode>0</returncode>\n<output>\nout\nerr\n</output>",
      isError: false,
    });
    expect(await run("printf nope; exit 2")).toMatchObject({
      output: "<returncode>2</returncode>\n<output>\nnope</output>",
      isError: true,
    });
  });
});

describe("mini-swe-agent history", () => {
  it("shows raw replies, observations and corrections as user messages; other harnesses' commands as blocks", () => {
    const history: HistoryEvent[] = [
      { type: "user_message", turnId: "t1", content: [{ type: "text", text: "task" }] },
      {
        type: "tool_call",
        turnId: "t1",
        step: 1,
        callId: "n1",
        name: "shell_command",
        harness: "codex",
        capability: "exec",
        arguments: '{"command":"ls","workdir":"."}',
        title: "ls",
        kind: "execute",
        locations: [],
        display: [],
      },
      {
        type: "tool_result",
        turnId: "t1",
        callId: "n1",
        status: "completed",
        output: "Exit code: 0",
        display: [],
      },
      { type: "assistant_message", turnId: "t1", step: 2, text: "no block here", reasoning: "" },
      { type: "format_error", turnId: "t1", step: 2, text: formatErrorText(0) },
      {
        type: "assistant_message",
        turnId: "t1",
        step: 3,
        text: "THOUGHT: x\n\n```bash\npwd\n```",
        reasoning: "",
      },
      {
        type: "tool_call",
        turnId: "t1",
        step: 3,
        callId: "m1",
        name: "bash",
        harness: "mini-swe-agent",
        capability: "exec",
        arguments: '{"command":"pwd"}',
        title: "pwd",
        kind: "execute",
        locations: [],
        display: [],
      },
      {
        type: "tool_result",
        turnId: "t1",
        callId: "m1",
        status: "completed",
        output: "<returncode>0</returncode>\n<output>\n/w\n</output>",
        display: [],
      },
      { type: "user_message", turnId: "t2", content: [{ type: "text", text: "next" }] },
    ];
    const { messages } = firstRequest(miniSweAgentHarness, ctx, history);
    expect(messages.slice(1)).toEqual([
      { role: "user", content: instancePrompt("task") },
      { role: "assistant", content: "```bash\nls\n```" },
      { role: "user", content: "Exit code: 0" },
      { role: "assistant", content: "no block here" },
      { role: "user", content: formatErrorText(0) },
      { role: "assistant", content: "THOUGHT: x\n\n```bash\npwd\n```" },
      { role: "user", content: "<returncode>0</returncode>\n<output>\n/w\n</output>\n\nnext" },
    ]);
  });
});
