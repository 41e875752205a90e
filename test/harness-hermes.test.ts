import { describe, expect, it } from "vitest";
import { hermesHarness } from "../src/harnesses/hermes/hermes-harness.js";
import { parseLenientJson } from "../src/harnesses/hermes/lenient-json.js";
import { formatErrorText } from "../src/harnesses/hermes/parse-tool-calls.js";
import { pyJson, toolsSection } from "../src/harnesses/hermes/tools-section.js";
import type { HistoryEvent } from "../src/store/events.js";
import { chatView, harnessContext } from "./support/harness-fixtures.js";

const ctx = harnessContext({ model: "qwen2.5-coder:7b", instructions: "Use pnpm." });

const opened = hermesHarness.open(ctx);
const tools = opened.tools;
let n = 0;
const parse = (text: string) => hermesHarness.parse!(text, { step: 1, newId: () => `call_${++n}` });
const call = (name: string, args: unknown) => ({
  id: expect.any(String),
  name,
  arguments: JSON.stringify(args),
});

describe("hermes prompt", () => {
  it("offers Codex's tools, described in the system prompt only", () => {
    expect(tools.map((t) => t.name)).toEqual(["shell_command", "apply_patch", "update_plan"]);
    expect(hermesHarness.matches("qwen2.5-coder")).toBe(false);
    const request = chatView(opened.render({ history: [], tools, ctx }));
    expect(request.tools).toEqual([]);
    expect(request.messages).toHaveLength(1);
    const system = request.messages[0]!.content as string;
    expect(system).toContain("<environment_context>\n  <cwd>/work/project</cwd>");
    expect(system).toContain(
      "# AGENTS.md instructions for /work/project\n\n<INSTRUCTIONS>\nUse pnpm.\n</INSTRUCTIONS>",
    );
    expect(system.endsWith(`\n\n${toolsSection(tools)}`)).toBe(true);
  });

  it("writes the Hermes/Qwen tools section with one tojson schema per line", () => {
    const section = toolsSection(tools);
    const lines = section.split("\n");
    expect(lines.slice(0, 6)).toEqual([
      "# Tools",
      "",
      "You may call one or more functions to assist with the user query.",
      "",
      "You are provided with function signatures within <tools></tools> XML tags:",
      "<tools>",
    ]);
    expect(lines.slice(-6)).toEqual([
      "</tools>",
      "",
      "For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:",
      "<tool_call>",
      '{"name": <function-name>, "arguments": <args-json-object>}',
      "</tool_call>",
    ]);
    expect(lines).toHaveLength(6 + tools.length + 6);
    const schemas = lines.slice(6, 9).map((line) => JSON.parse(line));
    expect(schemas).toEqual(
      tools.map((t) => ({
        type: "function",
        function: { name: t.name, description: t.description, parameters: t.parameters },
      })),
    );
    expect(
      lines[6]!.startsWith('{"type": "function", "function": {"name": "shell_command", "description": '),
    ).toBe(true);
    expect(schemas[0].function.parameters).toMatchInlineSnapshot(`
      {
        "additionalProperties": false,
        "properties": {
          "command": {
            "description": "The shell script to execute in the user's default shell",
            "type": "string",
          },
          "justification": {
            "description": "Only set if sandbox_permissions is "require_escalated". 1-sentence explanation of why we want to run this command.",
            "type": "string",
          },
          "sandbox_permissions": {
            "description": "Sandbox permissions for the command. Set to "require_escalated" to request running without sandbox restrictions; defaults to "use_default".",
            "type": "string",
          },
          "timeout_ms": {
            "description": "The timeout for the command in milliseconds",
            "type": "number",
          },
          "workdir": {
            "description": "The working directory to execute the command in",
            "type": "string",
          },
        },
        "required": [
          "command",
        ],
        "type": "object",
      }
    `);
    for (const t of tools) expect(t.description.length).toBeGreaterThan(50);
  });

  it("serializes like Python's json.dumps", () => {
    expect(pyJson({ a: [1, "x"], b: { c: null, d: true }, e: "é\n" })).toBe(
      '{"a": [1, "x"], "b": {"c": null, "d": true}, "e": "é\\n"}',
    );
  });
});

describe("hermes parser", () => {
  it("reads one Hermes JSON call", () => {
    expect(
      parse(
        'Let me look.\n<tool_call>\n{"name": "shell_command", "arguments": {"command": "ls"}}\n</tool_call>',
      ),
    ).toEqual({
      calls: [call("shell_command", { command: "ls" })],
    });
  });

  it("reads several calls, arguments given as JSON text, and an unclosed last block", () => {
    const text = [
      '<tool_call>{"name": "shell_command", "arguments": "{\\"command\\": \\"pwd\\"}"}</tool_call>',
      '<tool_call>\n{"name": "functions.update_plan", "arguments": {"plan": [{"step": "a", "status": "pending"}]}}',
    ].join("\n");
    expect(parse(text)).toEqual({
      calls: [
        call("shell_command", { command: "pwd" }),
        call("update_plan", { plan: [{ step: "a", status: "pending" }] }),
      ],
    });
  });

  it("reads Qwen3-Coder XML calls, typed by the tool's schema", () => {
    const text = [
      "<tool_call>",
      "<function=shell_command>",
      "<parameter=command>",
      "npm test",
      "</parameter>",
      "<parameter=timeout_ms>",
      "5000",
      "</parameter>",
      "</function>",
      "</tool_call>",
      "<function=apply_patch>",
      "<parameter=input>",
      "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch",
      "</parameter>",
      "</function>",
    ].join("\n");
    expect(parse(text)).toEqual({
      calls: [call("shell_command", { command: "npm test", timeout_ms: 5000 })],
    });
    // Without the outer tags, bare <function=...> blocks are calls too.
    expect(parse(text.split("</tool_call>\n")[1]!)).toEqual({
      calls: [call("apply_patch", { input: "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch" })],
    });
  });

  it("takes fenced JSON calls as a last resort, but not other JSON", () => {
    expect(
      parse('Running it:\n```json\n{"name": "shell_command", "arguments": {"command": "ls"}}\n```'),
    ).toEqual({
      calls: [call("shell_command", { command: "ls" })],
    });
    expect(parse('The config is:\n```json\n{"name": "my-app", "version": "1.0.0"}\n```')).toEqual({
      calls: [],
    });
  });

  it("repairs raw newlines inside strings and trailing commas", () => {
    expect(
      parse('<tool_call>{"name": "apply_patch", "arguments": {"input": "line1\nline2",},}</tool_call>'),
    ).toEqual({
      calls: [call("apply_patch", { input: "line1\nline2" })],
    });
    expect(parseLenientJson('{"a": "x,}"}')).toEqual({ ok: true, value: { a: "x,}" } });
  });

  it("answers malformed blocks with a correction naming the problem", () => {
    const broken = parse('<tool_call>{"name": "shell_command", "arguments": {"command": "ls"</tool_call>');
    expect(broken.calls).toEqual([]);
    expect(broken.formatError).toMatch(
      /^Your last reply could not be read as a function call, so nothing was run:\n- <tool_call> block 1: its content is not valid JSON \(/,
    );
    expect(broken.formatError).toContain(
      '<tool_call>\n{"name": "shell_command", "arguments": {"command": "ls"}}\n</tool_call>',
    );
    expect(parse('<tool_call>{"arguments": {}}</tool_call>').formatError).toBe(
      formatErrorText(['<tool_call> block 1: the object has no "name" string']),
    );
    expect(parse("<tool_call>\n</tool_call>").formatError).toBe(
      formatErrorText(["<tool_call> block 1: the block is empty"]),
    );
    expect(parse("<tool_call><parameter=x>1</parameter></tool_call>").formatError).toContain(
      "<tool_call> block 1: ",
    );
  });

  it("runs the valid calls and drops a malformed neighbour", () => {
    const text =
      '<tool_call>{"name": "shell_command", "arguments": {"command": "ls"}}</tool_call>\n<tool_call>{oops}</tool_call>';
    expect(parse(text)).toEqual({ calls: [call("shell_command", { command: "ls" })] });
  });

  it("treats a plain answer, or calls inside <think>, as the final answer", () => {
    expect(parse("All tests pass. I changed calc.mjs.")).toEqual({ calls: [] });
    expect(
      parse(
        '<think>maybe <tool_call>{"name": "shell_command", "arguments": {"command": "rm -rf /"}}</tool_call></think>Done.',
      ),
    ).toEqual({ calls: [] });
  });
});

describe("hermes history", () => {
  it("shows raw replies, grouped <tool_response> results, corrections, and native calls in its own notation", () => {
    const history: HistoryEvent[] = [
      { type: "user_message", turnId: "t1", content: [{ type: "text", text: "fix it" }] },
      {
        type: "tool_call",
        turnId: "t1",
        step: 1,
        callId: "native1",
        name: "shell_command",
        harness: "codex",
        capability: "exec",
        arguments: '{"command":"ls"}',
        title: "ls",
        kind: "execute",
        locations: [],
        display: [],
      },
      {
        type: "tool_result",
        turnId: "t1",
        callId: "native1",
        status: "completed",
        output: "a.txt",
        display: [],
      },
      {
        type: "assistant_message",
        turnId: "t1",
        step: 2,
        text: "two calls <tool_call>…</tool_call>",
        reasoning: "r",
      },
      ...["h1", "h2"].map(
        (callId): HistoryEvent => ({
          type: "tool_call",
          turnId: "t1",
          step: 2,
          callId,
          name: "shell_command",
          harness: "hermes",
          capability: "exec",
          arguments: '{"command":"pwd"}',
          title: "pwd",
          kind: "execute",
          locations: [],
          display: [],
        }),
      ),
      { type: "tool_result", turnId: "t1", callId: "h1", status: "completed", output: "out1", display: [] },
      { type: "tool_result", turnId: "t1", callId: "h2", status: "failed", output: "out2", display: [] },
      {
        type: "assistant_message",
        turnId: "t1",
        step: 3,
        text: "<tool_call>{bad</tool_call>",
        reasoning: "",
      },
      { type: "format_error", turnId: "t1", step: 3, text: "fix your call" },
    ];
    const { messages } = chatView(opened.render({ history, tools, ctx }));
    expect(messages.slice(1)).toEqual([
      { role: "user", content: "fix it" },
      {
        role: "assistant",
        content: '<tool_call>\n{"name": "shell_command", "arguments": {"command": "ls"}}\n</tool_call>',
      },
      { role: "user", content: "<tool_response>\na.txt\n</tool_response>" },
      { role: "assistant", content: "two calls <tool_call>…</tool_call>" },
      {
        role: "user",
        content: "<tool_response>\nout1\n</tool_response>\n<tool_response>\nout2\n</tool_response>",
      },
      { role: "assistant", content: "<tool_call>{bad</tool_call>" },
      { role: "user", content: "fix your call" },
    ]);
  });
});
