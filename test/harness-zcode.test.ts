import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { builtinHarnesses, chooseHarness } from "../src/harnesses/harness-list.js";
import { deferFailureMarkers, persistedOutput } from "../src/harnesses/zcode/tools/bash.js";
import { WASTED_CALL } from "../src/harnesses/zcode/tools/read.js";
import { SESSION_CONTEXT_UNAVAILABLE } from "../src/harnesses/zcode/tools/read-session-context.js";
import { zcodeHarness } from "../src/harnesses/zcode/zcode-harness.js";
import { messagesBody } from "../src/providers/messages-wire.js";
import type { HistoryEvent } from "../src/store/events.js";
import { harnessContext, tempDir, toolContext, toolRunner } from "./support/harness-fixtures.js";
import { schemaShape } from "./support/schema-shape.js";

/** Upstream 0.0.40's `zcode_tools.json` with its prose replaced (harness-zcode-structure.test.ts checks the file itself). */
const golden = JSON.parse(readFileSync(new URL("./golden/zcode/tools.json", import.meta.url), "utf8"));

// biome-ignore lint/suspicious/noExplicitAny: request JSON is read field by field
type Json = any;

const TOOLS = [
  "Agent",
  "AskUserQuestion",
  "Bash",
  "Edit",
  "EnterPlanMode",
  "ExitPlanMode",
  "Read",
  "Skill",
  "TodoRead",
  "TodoWrite",
  "WebFetch",
  "Write",
  "SendMessage",
  "ReadSessionContext",
];

function workspace(overrides: Parameters<typeof harnessContext>[0] = {}) {
  const cwd = tempDir("oi-zcode-");
  const scratchDir = path.join(cwd, ".scratch");
  const ctx = harnessContext({ cwd, scratchDir, wire: "messages", model: "glm-4.6", ...overrides });
  const opened = zcodeHarness.open(ctx);
  const call = toolRunner(opened.tools, toolContext(cwd));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(cwd, file)), { recursive: true });
    writeFileSync(path.join(cwd, file), text);
  };
  const body = (history: HistoryEvent[]) =>
    messagesBody(opened.render({ history, tools: opened.tools, ctx }), { model: "glm-4.6" });
  return { cwd, scratchDir, call, write, body, opened, ctx };
}

describe("zcode: surface and choice", () => {
  it("sends ZCode's 14 tools in zcode_tools.json's order, an Explore agent four of them", () => {
    const { opened } = workspace();
    expect(opened.tools.map((t) => t.name)).toEqual(TOOLS);
    const explore = zcodeHarness.open(harnessContext({ subagent: { type: "Explore" } }));
    expect(explore.tools.map((t) => t.name)).toEqual(["Bash", "Read", "TodoWrite", "WebFetch"]);
    expect(zcodeHarness.original).toMatchObject({ name: "ZCode", version: "0.14.8" });
  });

  it("is the automatic choice for GLM on Anthropic Messages, not on Chat", () => {
    const harnesses = builtinHarnesses();
    const choose = (model: string, wire: "chat" | "messages") => chooseHarness({ harnesses, model, wire });
    expect(choose("glm-4.6", "messages").harness.id).toBe("zcode");
    expect(choose("glm-4.6", "messages").reason).toBe("automatic: glm-4.6 belongs to the ZCode family");
    expect(choose("glm-4.6", "chat").harness.id).toBe("codex");
    expect(choose("claude-sonnet-4-5", "messages").harness.id).toBe("claude-code");
  });

  it("keeps the original's schema shapes: required lists, enums, bounds, key order", () => {
    const { opened } = workspace();
    expect(opened.tools.map((t) => ({ name: t.name, parameters: schemaShape(t.parameters) }))).toEqual(
      golden,
    );
    const schema = (name: string) =>
      opened.tools.find((t) => t.name === name)!.parameters as Record<string, Json>;
    expect(Object.keys(schema("Read"))).toEqual([
      "type",
      "properties",
      "required",
      "additionalProperties",
      "$schema",
    ]);
    expect(Object.keys(schema("Read").properties.offset)).toEqual([
      "type",
      "minimum",
      "maximum",
      "description",
    ]);
    expect(schema("Agent").required).toEqual(["description", "prompt"]);
    expect(schema("TodoWrite").properties.todos.items.required).toEqual(["content", "status", "priority"]);
    expect(schema("ExitPlanMode")).toMatchObject({ required: ["plan"], additionalProperties: {} });
    expect(schema("ReadSessionContext").properties.sessionId.pattern).toBe("^sess_[A-Za-z0-9._-]+$");
    expect(schema("TodoRead")).not.toHaveProperty("required");
  });
});

describe("zcode: the request on Messages", () => {
  const prompt = (text: string): HistoryEvent => ({
    type: "user_message",
    turnId: "t1",
    content: [{ type: "text", text }],
  });

  it("three cached system blocks, the date reminder before the prompt, the skills after it, max_tokens 64000, tool_choice auto", () => {
    const { body, cwd } = workspace({
      instructions: "Run npm test.",
      skills: [{ name: "release", description: "Cut a release", path: "/skills/release/SKILL.md" }],
    });
    const sent = body([prompt("Fix the bug.")]) as Record<string, Json>;
    expect(sent.max_tokens).toBe(64_000);
    expect(sent.tool_choice).toEqual({ type: "auto" });
    expect(sent).not.toHaveProperty("temperature");
    expect(sent).not.toHaveProperty("metadata");
    expect(sent.system.map((b: Json) => b.cache_control)).toEqual(Array(3).fill({ type: "ephemeral" }));
    expect(sent.system[0].text).toBe("You are ZCode, an interactive coding agent");
    expect(sent.system[2].text).toContain(`- Primary working directory: ${cwd}`);
    expect(sent.system[2].text).toContain("- You are powered by the model named zai/glm-4.6.");
    expect(sent.system[2].text).toMatch(/gitStatus: unavailable$/);
    const [first] = sent.messages;
    expect(sent.messages).toHaveLength(1);
    expect(first.content[0].text).toMatch(
      /^<system-reminder>\n[\s\S]*Run npm test\.[\s\S]*# currentDate[\s\S]*<\/system-reminder>\n$/,
    );
    expect(first.content[1]).toEqual({
      type: "text",
      text: "Fix the bug.",
      cache_control: { type: "ephemeral" },
    });
    expect(first.content[2].text).toContain("- release: Cut a release (file: /skills/release/SKILL.md)");
  });

  it("reminds of TodoWrite after ten steps without it, with the list last written", () => {
    const { body } = workspace();
    const history: HistoryEvent[] = [prompt("go")];
    const call = (id: string, name: string, args: unknown): HistoryEvent[] => [
      { type: "assistant_message", turnId: "t1", step: 1, text: "", reasoning: "" },
      {
        type: "tool_call",
        turnId: "t1",
        step: 1,
        callId: id,
        name,
        harness: "zcode",
        capability: "exec",
        arguments: JSON.stringify(args),
        title: name,
        kind: "execute",
        locations: [],
        display: [],
      },
      { type: "tool_result", turnId: "t1", callId: id, status: "completed", output: "ok", display: [] },
    ];
    history.push(
      ...call("w", "TodoWrite", { todos: [{ content: "fix", status: "in_progress", priority: "high" }] }),
    );
    for (let i = 0; i < 9; i++) history.push(...call(`b${i}`, "Bash", { command: "true" }));
    const texts = (b: Json) => JSON.stringify(b.messages);
    expect(texts(body(history))).not.toContain("TodoWrite tool has not been used");
    history.push(...call("b9", "Bash", { command: "true" }));
    const last = (body(history) as Json).messages.at(-1);
    expect(last.content.at(-1).text).toContain("The TodoWrite tool has not been used for a while.");
    expect(last.content.at(-1).text).toContain("[1. [in_progress] fix]");
  });
});

describe("zcode: result texts", () => {
  it("Read numbers lines with a tab, answers a repeated whole read as a wasted call, and refuses Edit before Read", async () => {
    const { call, write, cwd } = workspace();
    write("a.txt", "one\ntwo\n");
    const file = path.join(cwd, "a.txt");
    expect((await call("Edit", { file_path: file, old_string: "one", new_string: "1" })).output).toBe(
      "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>",
    );
    expect((await call("Read", { file_path: file })).output).toBe("1\tone\n2\ttwo\n3\t");
    expect((await call("Read", { file_path: file })).output).toBe(WASTED_CALL);
    expect((await call("Read", { file_path: file, offset: 0, limit: 1 })).output).toBe("0\tone");
    const edited = await call("Edit", { file_path: file, old_string: "one", new_string: "1" });
    expect(edited.output).toBe(
      `The file ${file} has been updated successfully. (file state is current in your context — no need to Read it back)`,
    );
    expect((await call("Read", { file_path: file })).output).toBe(WASTED_CALL);
    writeFileSync(file, "changed\n");
    expect((await call("Read", { file_path: file })).output).toBe("1\tchanged\n2\t");
    expect((await call("Read", { file_path: path.join(cwd, "nope") })).output).toBe(
      `File does not exist. Note: your current working directory is ${cwd}.`,
    );
  });

  it("Write says the file state is current; Bash answers failures, silence and large output as upstream does", async () => {
    const { call, cwd, scratchDir } = workspace();
    const file = path.join(cwd, "new/b.txt");
    expect((await call("Write", { file_path: file, content: "x" })).output).toBe(
      `File created successfully at: ${file} (file state is current in your context — no need to Read it back)`,
    );
    expect(readFileSync(file, "utf8")).toBe("x");
    expect((await call("Bash", { command: "true" })).output).toBe("(Bash completed with no output)");
    const failed = await call("Bash", { command: "printf '\\n\\nboom\\n'; exit 3" });
    expect(failed).toMatchObject({ output: "Exit code 3\nboom", isError: true });
    const big = await call("Bash", { command: "seq 1 20000" });
    expect(big.output).toMatch(/^<persisted-output>\nOutput too large \(106\.3KB\)\. Full output saved to: /);
    const saved = /saved to: (\S+)/.exec(big.output)![1]!;
    expect(saved.startsWith(scratchDir)).toBe(true);
    expect(readFileSync(saved, "utf8").split("\n")).toHaveLength(20000);
  });

  it("moves test-failure marks after the summary, the leading errors under their marks", () => {
    const output = [
      "Error: want 2 got 1",
      "    at check (t.js:3:9)",
      "",
      "suite",
      "  3 passed, 1 failed",
      "✗ counts relics",
    ].join("\n");
    expect(deferFailureMarkers(output)).toBe(
      [
        "suite",
        "  3 passed, 1 failed",
        "✗ counts relics",
        "Error: want 2 got 1",
        "    at check (t.js:3:9)",
      ].join("\n"),
    );
    expect(persistedOutput("a\nb\n", "/f")).toBe(
      "<persisted-output>\nOutput too large (0.0KB). Full output saved to: /f\n\nPreview (first 2KB):\na\nb\n...\n</persisted-output>",
    );
  });

  it("TodoWrite answers with the old list, the new one and the counts; TodoRead with the list", async () => {
    const { call } = workspace();
    const todos = [
      { content: "read", status: "completed", priority: "high" },
      { content: "fix", status: "in_progress", priority: "medium" },
    ];
    const written = await call("TodoWrite", { todos });
    expect(JSON.parse(written.output)).toEqual({
      oldTodos: [],
      todos,
      summary: { total: 2, pending: 0, inProgress: 1, completed: 1 },
    });
    expect(written.plan).toHaveLength(2);
    expect(JSON.parse((await call("TodoRead", {})).output)).toEqual({ todos });
  });

  it("Skill loads a SKILL.md in <skill_content>; an unknown one and ReadSessionContext get upstream's texts", async () => {
    const dir = tempDir("oi-zcode-skill-");
    writeFileSync(path.join(dir, "SKILL.md"), "---\nname: release\ndescription: d\n---\nBump the version.\n");
    const { call } = workspace({
      skills: [{ name: "release", description: "d", path: path.join(dir, "SKILL.md") }],
    });
    expect((await call("Skill", { skill: "release" })).output).toBe(
      `<skill_content name="release">\n# Skill: release\nBump the version.\nBase directory for this skill: ${dir}\nRelative paths in this skill are relative to this base directory.\n</skill_content>`,
    );
    expect(await call("Skill", { skill: "nope" })).toMatchObject({
      output: "Skill `nope` is not available through the native ZCode harness yet.",
      isError: true,
    });
    expect(await call("ReadSessionContext", { sessionId: "sess_1", query: "q" })).toMatchObject({
      output: SESSION_CONTEXT_UNAVAILABLE,
      isError: true,
    });
  });
});
