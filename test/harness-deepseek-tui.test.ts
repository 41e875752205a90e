import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  DEEPSEEK_TUI_MAX_TOKENS,
  deepseekTuiHarness,
  REASONING_OMITTED,
  TURN_META_UNCHANGED,
} from "../src/harnesses/deepseek-tui/deepseek-tui-harness.js";
import { deepseekTuiSystemPrompt } from "../src/harnesses/deepseek-tui/system-prompt.js";
import { builtinHarnesses, chooseHarness } from "../src/harnesses/harness-list.js";
import type { HistoryEvent } from "../src/store/events.js";
import { DEEPSEEK_TUI_TOOLS } from "./support/deepseek-tui-tools.js";
import { chatView, harnessContext, tempDir } from "./support/harness-fixtures.js";

function project() {
  const cwd = tempDir("oi-deepseek-");
  mkdirSync(path.join(cwd, "src"));
  writeFileSync(path.join(cwd, "README.md"), "# calc\n");
  writeFileSync(path.join(cwd, "src", "calc.ts"), "export const add = (a, b) => a - b;\n");
  return cwd;
}

const user = (turnId: string, text: string): HistoryEvent => ({
  type: "user_message",
  turnId,
  content: [{ type: "text", text }],
});

describe("deepseek-tui tool surface and routing", () => {
  it("offers CodeWhale 0.8.44's coding tools under their names with its parameters", () => {
    const opened = deepseekTuiHarness.open(harnessContext());
    expect(opened.tools.map((t) => t.name)).toEqual(DEEPSEEK_TUI_TOOLS);
    const params = Object.fromEntries(
      opened.tools.map((t) => [t.name, Object.keys(t.parameters.properties as object)]),
    );
    expect(params.read_file).toEqual(["path", "start_line", "max_lines", "pages"]);
    expect(params.edit_file).toEqual(["path", "search", "replace", "fuzz"]);
    expect(params.exec_shell).toEqual([
      "command",
      "timeout_ms",
      "background",
      "interactive",
      "stdin",
      "cwd",
      "tty",
      "combined_output",
    ]);
    expect(params.apply_patch).toEqual(["path", "patch", "changes", "fuzz", "create_if_missing"]);
    const required = Object.fromEntries(opened.tools.map((t) => [t.name, t.parameters.required]));
    expect(required).toMatchObject({ edit_file: ["path", "search", "replace"], list_dir: undefined });
    expect(deepseekTuiHarness.original).toEqual({
      name: "CodeWhale (DeepSeek-TUI)",
      source: "github:Hmbown/CodeWhale",
      version: "0.8.44",
    });
  });

  it("is never the automatic choice, DeepSeek models included (upstream routes them to claude-code-bare)", () => {
    const harnesses = builtinHarnesses();
    expect(chooseHarness({ harnesses, model: "deepseek-v4-pro" }).harness.id).not.toBe("deepseek-tui");
    expect(chooseHarness({ harnesses, model: "deepseek-chat", explicit: "deepseek-tui" }).harness.id).toBe(
      "deepseek-tui",
    );
  });
});

describe("deepseek-tui request layout", () => {
  it("sends one layered system message, max_tokens 64000 and tool_choice auto", () => {
    const cwd = project();
    mkdirSync(path.join(cwd, "node_modules", "dep"), { recursive: true });
    writeFileSync(path.join(cwd, ".env"), "SECRET=1\n");
    const ctx = harnessContext({ cwd, model: "deepseek-v4-pro" });
    const opened = deepseekTuiHarness.open(ctx);
    const request = chatView(opened.render({ history: [user("a", "fix add")], tools: opened.tools, ctx }));
    const system = request.messages[0]?.content as string;
    expect(request.messages[0]?.role).toBe("system");
    expect(system).toMatch(/^## CONSTITUTION OF CODEWHALE\n/);
    expect(system).toContain("You are deepseek-v4-pro,");
    // Each layer after the one before it (the base prompt has a Context Management section of its own).
    let at = 0;
    const layers = [
      "## Personality: Calm",
      "## Mode: Agent",
      "## Approval Policy: Suggest",
      `<project_instructions source="${cwd}/.codewhale/instructions.md">`,
      "## Project Context Pack",
      "## Environment\n\n- lang: en\n- deepseek_version: 0.8.44\n- platform: linux\n- shell: bash\n",
      "## Context Management",
      "## Compaction Relay",
      "## Authority Recap",
    ];
    for (const layer of layers) {
      const next = system.indexOf(layer, at);
      expect({ layer, found: next > at }).toEqual({ layer, found: true });
      at = next;
    }
    // CodeWhale's pack: folders with a slash, generated and hidden ones left out, sources listed.
    expect(system).toContain(
      '"directory_structure": [\n    "README.md",\n    "src/",\n    "src/calc.ts"\n  ],\n  "readme": null,\n  "config_files": [],\n  "key_source_files": [\n    "src/calc.ts"\n  ],',
    );
    // Without AGENTS.md, the instructions CodeWhale generates: a summary and a two-level tree.
    expect(system).toContain(
      "**Summary:** Project with key files: README.md\n\n**Tree:**\n```\nFILE: .env\nFILE: README.md\nDIR: src\n  FILE: calc.ts\n```",
    );
    expect(request.knobs).toMatchObject({ max_tokens: DEEPSEEK_TUI_MAX_TOKENS, tool_choice: "auto" });
    expect(request.tools.map((t) => t.function.name)).toEqual(DEEPSEEK_TUI_TOOLS);
  });

  it("says what the session's mode allows: plan blocks writes, full access is YOLO", () => {
    const plan = deepseekTuiSystemPrompt(harnessContext({ cwd: project(), mode: "plan" }));
    expect(plan).toContain("## Mode: Plan");
    expect(plan).toContain("## Approval Policy: Never");
    const yolo = deepseekTuiSystemPrompt(harnessContext({ cwd: project(), mode: "full-access" }));
    expect(yolo).toContain("## Mode: YOLO");
    expect(yolo).toContain("## Approval Policy: Auto");
  });

  it("shows the session's AGENTS.md as the project instructions, named by its file", () => {
    const cwd = project();
    writeFileSync(path.join(cwd, "AGENTS.md"), "Run npm test.\n");
    const system = deepseekTuiSystemPrompt(harnessContext({ cwd, instructions: "Run npm test." }));
    expect(system).toContain(
      `<project_instructions source="${cwd}/AGENTS.md">\nRun npm test.\n</project_instructions>`,
    );
    expect(system).not.toContain("# Project Structure (Auto-generated)");
  });

  it("puts <turn_meta> before each user message, unchanged metadata as its short form", () => {
    const cwd = project();
    writeFileSync(path.join(cwd, "a.txt"), "");
    const ctx = harnessContext({ cwd });
    const opened = deepseekTuiHarness.open(ctx);
    const history: HistoryEvent[] = [
      user("a", "look at src/calc.ts"),
      { type: "assistant_message", turnId: "a", step: 1, text: "ok", reasoning: "" },
      user("b", "look at src/calc.ts"),
    ];
    const messages = chatView(opened.render({ history, tools: opened.tools, ctx })).messages;
    const first = messages[1]?.content as string;
    expect(first).toBe(
      [
        "<turn_meta>",
        "Current local date: 2026-03-01",
        "## Repo Working Set",
        `Workspace: ${cwd}`,
        "Key files: README.md",
        "Active paths (prioritize these):",
        // The paths the message names first, then the rest in order.
        "- src (directory)",
        "- src/calc.ts (file)",
        "- a.txt (file)",
        "When in doubt, use tools to verify and keep changes focused on the working set.",
        "</turn_meta>",
        "look at src/calc.ts",
      ].join("\n"),
    );
    expect(messages[3]?.content).toBe(`${TURN_META_UNCHANGED}\nlook at src/calc.ts`);
    // Fixed once sent: a new file does not rewrite the metadata of an earlier message.
    writeFileSync(path.join(cwd, "new.txt"), "x");
    const again = chatView(opened.render({ history, tools: opened.tools, ctx })).messages;
    expect(again[1]?.content).toBe(first);
  });

  it("sends text and the calls after it as one message, with the reasoning placeholder and compact arguments", () => {
    const ctx = harnessContext({ cwd: project() });
    const opened = deepseekTuiHarness.open(ctx);
    const call = (callId: string, step: number): HistoryEvent => ({
      type: "tool_call",
      turnId: "a",
      step,
      callId,
      name: "exec_shell",
      harness: "deepseek-tui",
      capability: "exec",
      arguments: '{ "command": "ls" }',
      title: "ls",
      kind: "execute",
      locations: [],
      display: [],
    });
    const history: HistoryEvent[] = [
      user("a", "list"),
      { type: "assistant_message", turnId: "a", step: 1, text: "Listing.", reasoning: "" },
      call("c1", 1),
      { type: "tool_result", turnId: "a", callId: "c1", status: "completed", output: "a", display: [] },
      call("c2", 2),
      { type: "tool_result", turnId: "a", callId: "c2", status: "completed", output: "", display: [] },
    ];
    const messages = chatView(opened.render({ history, tools: opened.tools, ctx })).messages;
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "tool"]);
    expect(messages[2]).toMatchObject({
      content: "Listing.",
      reasoning_content: REASONING_OMITTED,
      tool_calls: [{ function: { name: "exec_shell", arguments: '{"command":"ls"}' } }],
    });
    expect(messages[4]).toMatchObject({ content: "", reasoning_content: REASONING_OMITTED });
    expect(messages[5]).toMatchObject({ content: "" });
  });
});
