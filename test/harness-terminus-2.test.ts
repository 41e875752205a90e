import { describe, expect, it } from "vitest";
import { incrementalOutput } from "../src/harnesses/terminus-2/incremental-output.js";
import { limitOutput } from "../src/harnesses/terminus-2/limit-output.js";
import { confirmationText, parseErrorText, stepText } from "../src/harnesses/terminus-2/observations.js";
import { pendingCompletion } from "../src/harnesses/terminus-2/parse-reply.js";
import { parseResponse } from "../src/harnesses/terminus-2/parse-response.js";
import { typedCommands } from "../src/harnesses/terminus-2/terminal-tool.js";
import {
  initialPrompt,
  initialScreen,
  terminus2Harness,
} from "../src/harnesses/terminus-2/terminus-2-harness.js";
import type { HistoryEvent } from "../src/store/events.js";
import { chatView, harnessContext } from "./support/harness-fixtures.js";

const ctx = harnessContext({ cwd: "/work/project" });
let ids = 0;
const parse = (text: string, history: HistoryEvent[] = []) =>
  terminus2Harness.parse!(text, { step: 1, newId: () => `t${++ids}`, history });
const json = (value: unknown) => JSON.stringify(value);
const ok = { analysis: "a", plan: "p" };

describe("terminus-2 request", () => {
  it("is one user message: the protocol, the task and the terminal's screen; no system, no tools, temperature 0.7", () => {
    const opened = terminus2Harness.open(ctx);
    const request = chatView(
      opened.render({
        history: [{ type: "user_message", turnId: "t1", content: [{ type: "text", text: "Fix the bug." }] }],
        tools: opened.tools,
        ctx,
      }),
    );
    expect(request.tools).toEqual([]);
    expect(request.knobs).toEqual({ temperature: 0.7 });
    expect(request.messages.map((m) => m.role)).toEqual(["user"]);
    const text = request.messages[0]!.content as string;
    expect(text).toBe(initialPrompt("Fix the bug.", initialScreen("/work/project")));
    // The original template's sections, in its order, with its example and its two slots.
    const sections = [
      "Required fields:\n",
      "Optional fields:\n",
      "Command object structure:\n",
      "IMPORTANT: ",
      "Important notes:\n",
      "Task Description:\nFix the bug.\n\nCurrent terminal state:\nCurrent Terminal Screen:\n",
    ];
    const at = sections.map((s) => text.indexOf(s));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    const example = text.slice(text.indexOf("{\n"), text.indexOf("\n}\n") + 2);
    expect(Object.keys(JSON.parse(example))).toEqual(["analysis", "plan", "commands", "task_complete"]);
    expect(JSON.parse(example).commands).toEqual([
      { keystrokes: "ls -la\n", duration: 0.1 },
      { keystrokes: "cd project\n", duration: 0.1 },
    ]);
    for (const field of [
      '- "analysis"',
      '- "plan"',
      '- "commands"',
      '- "task_complete"',
      '- "keystrokes"',
      '- "duration"',
    ])
      expect(text).toContain(`\n${field}: `);
    expect(text).toContain("\n  - C-c for Ctrl+C\n  - C-d for Ctrl+D\n");
    expect(text).toContain('{"keystrokes": "", "duration": 10.0}');
    // The screen: a prompt line, then the rest of the pane's 40 lines.
    const screen = initialScreen("/work/project", { user: "dev", host: "box.lan" });
    expect(screen).toBe(`Current Terminal Screen:\ndev@box:/work/project$\n${"\n".repeat(39)}`);
  });
});

describe("terminus-2 JSON parser", () => {
  it("reads analysis, plan, commands and task_complete; a batch is one terminal call", () => {
    const reply = json({ ...ok, commands: [{ keystrokes: "ls\n", duration: 0.1 }], task_complete: false });
    expect(parse(reply)).toEqual({
      calls: [
        {
          id: expect.any(String),
          name: "terminal",
          arguments: json({ commands: [{ keystrokes: "ls\n", duration: 0.1 }], task_complete: false }),
        },
      ],
    });
  });

  it("answers what it cannot read with the parsing-error prompt, warnings included", () => {
    expect(parse("no json here")).toEqual({
      calls: [],
      formatError: parseErrorText("No valid JSON found in response", "- No valid JSON object found"),
    });
    expect(parseErrorText("E", "")).toBe(
      "Previous response had parsing errors:\nERROR: E\n\nPlease fix these issues and provide a proper JSON response.",
    );
    expect(parseResponse(json({ analysis: "a", commands: [] })).error).toBe("Missing required fields: plan");
    expect(parseResponse(json({ ...ok, commands: "ls" })).error).toBe("Field 'commands' must be an array");
    expect(parseResponse(json({ ...ok, commands: [{ duration: 1 }] })).error).toBe(
      "Command 1 missing required 'keystrokes' field",
    );
    expect(parseResponse(json({ ...ok, commands: [1] })).error).toBe("Command 1 must be an object");
    expect(parseResponse("[1, 2]").error).toBe("No valid JSON found in response");
  });

  it("tolerates with warnings: text around the JSON, defaults, unknown fields, order, missing newline", () => {
    const result = parseResponse(
      `Sure.\n${json({
        plan: "p",
        analysis: "a",
        commands: [
          { keystrokes: "ls", x: 1 },
          { keystrokes: "pwd\n", duration: "1" },
        ],
      })}\nBye`,
    );
    expect(result.error).toBe("");
    expect(result.commands).toEqual([
      { keystrokes: "ls", duration: 1 },
      { keystrokes: "pwd\n", duration: 1 },
    ]);
    expect(result.warning.split("\n")).toEqual([
      "- Extra text detected before JSON object",
      "- Extra text detected after JSON object",
      "- Fields appear in wrong order. Found: plan → analysis → commands, expected: analysis → plan → commands",
      "- Command 1: Missing duration field, using default 1.0",
      "- Command 1: Unknown fields: x",
      "- Command 1 should end with newline when followed by another command. Otherwise the two commands will be concatenated together on the same line.",
      "- Command 2: Invalid duration value, using default 1.0",
    ]);
  });

  it("auto-corrects a missing closing brace, with its warning", () => {
    const result = parseResponse(
      `{"analysis": "a", "plan": "p", "commands": [{"keystrokes": "ls\\n", "duration": 0.1}]`,
    );
    expect(result.error).toBe("");
    expect(result.warning).toBe(
      "- AUTO-CORRECTED: Fixed incomplete JSON by adding missing closing brace - please fix this in future responses",
    );
  });

  it("takes task_complete as a string too, and turns broken commands into a warning when complete", () => {
    expect(parseResponse(json({ ...ok, commands: [], task_complete: "yes" })).isTaskComplete).toBe(true);
    const done = parseResponse(json({ ...ok, commands: [{ nope: 1 }], task_complete: true }));
    expect(done).toEqual({
      commands: [],
      isTaskComplete: true,
      error: "",
      warning: "- Command 1 missing required 'keystrokes' field",
    });
  });

  it("needs task_complete twice in a row: the second ends the turn, a batch between or a new prompt resets it", () => {
    const call = (args: unknown): HistoryEvent => ({
      type: "tool_call",
      turnId: "t1",
      step: 1,
      callId: "c",
      name: "terminal",
      harness: "terminus-2",
      capability: "exec",
      arguments: json(args),
      title: "",
      kind: "execute",
      locations: [],
      display: [],
    });
    const complete = call({ commands: [], task_complete: true });
    const correction: HistoryEvent = { type: "format_error", turnId: "t1", step: 2, text: "x" };
    const user: HistoryEvent = {
      type: "user_message",
      turnId: "t2",
      content: [{ type: "text", text: "more" }],
    };
    expect(pendingCompletion([complete])).toBe(true);
    expect(pendingCompletion([complete, correction])).toBe(true);
    expect(pendingCompletion([complete, call({ commands: [], task_complete: false })])).toBe(false);
    expect(pendingCompletion([complete, user])).toBe(false);
    const again = json({ ...ok, commands: [], task_complete: true });
    expect(parse(again, [complete])).toEqual({ calls: [] });
    expect(parse(again, [])).toMatchObject({ calls: [{ name: "terminal" }] });
  });
});

describe("terminus-2 observations", () => {
  it("shows the new part of the scrollback, or the screen when nothing can be told", () => {
    const screen = "$ \n\n";
    expect(incrementalOutput({ buffer: "$ \n", screen })).toBe(`Current Terminal Screen:\n${screen}`);
    expect(incrementalOutput({ previous: "a\n$\n\n", buffer: "a\n$ ls\nx\n$\n\n", screen })).toBe(
      "New Terminal Output:\n\n$ ls\nx\n$\n\n",
    );
    // One line before: the match is searched for in the new buffer.
    expect(incrementalOutput({ previous: "$\n\n", buffer: "$ ls\nx\n", screen })).toBe(
      "New Terminal Output:\n$ ls\nx\n",
    );
    expect(incrementalOutput({ previous: "gone\n", buffer: "$ \n", screen })).toBe(
      `Current Terminal Screen:\n${screen}`,
    );
  });

  it("caps an observation at 10,000 bytes around the original's note", () => {
    expect(limitOutput("short")).toBe("short");
    const long = `${"a".repeat(6000)}${"é".repeat(3000)}`;
    const out = limitOutput(long);
    expect(out).toBe(
      `${"a".repeat(5000)}\n[... output limited to 10000 bytes; 2000 interior bytes omitted ...]\n${"é".repeat(2500)}`,
    );
    // A character cut in two is dropped, its bytes counted as omitted.
    expect(limitOutput(`${"a".repeat(4999)}é${"b".repeat(6000)}`)).toContain("; 1002 interior bytes omitted");
  });

  it("words the next prompt as the original: warnings ahead, the completion question", () => {
    expect(stepText("New Terminal Output:\nx\n", "")).toBe("New Terminal Output:\nx\n");
    expect(stepText("out", "- W")).toBe("Previous response had warnings:\nWARNINGS: - W\n\nout");
    expect(confirmationText("out")).toBe(
      'Current terminal state:\nout\n\nAre you sure you want to mark the task as complete? This will trigger your solution to be graded and you won\'t be able to make any further corrections. If so, include "task_complete": true in your JSON response again.',
    );
    expect(
      typedCommands({
        commands: [
          { keystrokes: "cd src\n", duration: 0.1 },
          { keystrokes: "", duration: 5 },
          { keystrokes: "C-c", duration: 0.1 },
        ],
      }),
    ).toBe("cd src\nC-c");
  });
});
