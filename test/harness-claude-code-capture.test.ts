import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { claudeCodeHarness } from "../src/harnesses/claude-code/claude-code-harness.js";
import type { HarnessContext } from "../src/harnesses/types.js";
import { messagesOf } from "../src/providers/messages-wire.js";
import type { TextPart } from "../src/providers/model-request.js";
import type { HistoryEvent } from "../src/store/events.js";
import { harnessContext, tempDir, toolContext, toolRunner } from "./support/harness-fixtures.js";

/**
 * Our claude-code harness against the structure-only capture of Claude Code 2.1.44 (the version
 * it is pinned to): tool names, order and schema shapes, the first main request's layout on the
 * Messages wire, and the scripted calls' result texts. The capture lives outside the repository
 * (`../shared/conformance/harness-requests`); without it these checks are skipped.
 */
const CAPTURE = path.resolve(
  import.meta.dirname,
  "../../shared/conformance/harness-requests/claude-code-2.1.44.json",
);
const present = existsSync(CAPTURE);
const capture = present ? JSON.parse(readFileSync(CAPTURE, "utf8")) : undefined;

/** The 2.1.44 tools that belong to later work; docs/harnesses.md lists them as pending. */
const PENDING = [
  "Task",
  "TaskOutput",
  "TaskStop",
  "ExitPlanMode",
  "EnterPlanMode",
  "NotebookEdit",
  "WebFetch",
  "WebSearch",
  "AskUserQuestion",
];
/** System prompt sections of 2.1.44 that we knowingly leave out (docs/harnesses.md says why). */
const LEFT_OUT_SECTIONS = ["<claude_background_info>", "<fast_mode_info>"];

type Json = unknown;
/** Descriptions replaced by a marker: the capture holds their hashes, ours hold our own texts. */
const shape = (value: Json, key = ""): Json => {
  if (Array.isArray(value)) return value.map((v) => shape(v));
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === "description" && key !== "properties" && (typeof v === "string" || "chars" in (v as object))
        ? "<description>"
        : shape(v, k),
    ]),
  );
};

/** Section heads of a prompt as reduce.mjs splits it: `#` headings and column-0 tags outside fences. */
function outline(text: string): string[] {
  const heads: string[] = [];
  let fence = false;
  for (const line of text.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const heading = /^(#{1,6})\s+(\S.*?)\s*#*\s*$/.exec(line);
    const tag = /^<([A-Za-z][\w:.-]*)(?=[\s>/])[^>]*>/.exec(line);
    if (heading) heads.push(`${heading[1]} ${heading[2]}`);
    else if (tag) heads.push(`<${tag[1]}>`);
  }
  return heads;
}

/** reduce.mjs's rules for result texts: reminder prose and long number runs cut, as in the capture. */
function asCaptured(text: string): string {
  const lines = text
    .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, "<system-reminder>[injected]</system-reminder>")
    .split("\n");
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => {
    const joined = run.join("\n");
    if (joined.length > 400)
      out.push(`${joined.slice(0, 200)}[… cut ${joined.length - 400} chars …]${joined.slice(-200)}`);
    else if (run.length) out.push(joined);
    run = [];
  };
  for (const line of lines) {
    if (/^\s*\d+(\s*[→\t|:]\s*\d*)?\s*$/.test(line)) run.push(line);
    else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out.join("\n");
}
const capturedReminder = (text: string) =>
  text.replace(
    /<system-reminder>\[injected: \d+ chars, sha256-8 \w+\]<\/system-reminder>/g,
    "<system-reminder>[injected]</system-reminder>",
  );

const describeCapture = (name: string, body: () => void) =>
  present ? describe(name, body) : describe.skip(`${name} (skipped: no capture at ${CAPTURE})`, body);

describeCapture("claude-code against the Claude Code 2.1.44 capture", () => {
  const main = capture?.requests.filter((r: { kind: string }) => r.kind === "main") ?? [];
  const first = main[0];
  const captured = capture?.tool_sets[first?.tools.ref]?.tools ?? [];
  const skills = [{ name: "release", description: "Cut a release", path: "/skills/release/SKILL.md" }];
  const ctx = (over: Partial<HarnessContext> = {}) =>
    harnessContext({ model: capture.model, wire: "messages", ...over });

  it("sends 2.1.44's tools that we implement, in its order, with its schema shapes and dialect", () => {
    const ours = claudeCodeHarness.open(ctx({ skills })).tools;
    const theirs = captured.filter((t: { name: string }) => !PENDING.includes(t.name));
    expect(ours.map((t) => t.name)).toEqual(theirs.map((t: { name: string }) => t.name));
    for (const [i, tool] of ours.entries()) {
      // Stringified, so the key order (`$schema` first, `description` before `type`) counts too.
      expect(JSON.stringify(shape(tool.parameters)), tool.name).toBe(
        JSON.stringify(shape(theirs[i].input_schema)),
      );
    }
    expect(
      captured
        .map((t: { name: string }) => t.name)
        .filter((n: string) => PENDING.includes(n))
        .sort(),
    ).toEqual([...PENDING].sort());
  });

  it("lays out the first request as 2.1.44 does on the Messages wire", () => {
    const c = ctx();
    const opened = claudeCodeHarness.open(c);
    const prompt = first.layout[0].content.find((b: { prompt?: number }) => b.prompt === 1).text;
    const request = opened.render({
      history: [{ type: "user_message", turnId: "t1", content: [{ type: "text", text: prompt }] }],
      tools: opened.tools,
      ctx: c,
    });
    // System: 2.1.44's billing header is Anthropic's accounting; then identity and prompt, both cached.
    const system = first.system.filter((b: { header_line?: string }) => !b.header_line);
    expect(
      request.system.map((b: TextPart) => ({ cache: !!b.cache, lines: b.text.split("\n").length > 1 })),
    ).toEqual(
      system.map((b: { cache_control?: object; outline_ref: string }) => ({
        cache: !!b.cache_control,
        lines: capture.texts[b.outline_ref].lines > 1,
      })),
    );
    const theirHeads = capture.texts[system[1].outline_ref].outline
      .filter((s: { h: string | null; tag?: string }) => s.h || s.tag)
      .map((s: { h?: string; tag?: string }) => s.h ?? `<${s.tag}>`);
    expect(outline(request.system[1]!.text)).toEqual(
      theirHeads.filter((h: string) => !LEFT_OUT_SECTIONS.includes(h)),
    );

    // The first user message: the context reminder with its keys, then the prompt, cached.
    expect(request.messages).toHaveLength(first.layout.length);
    const [message] = request.messages;
    const theirs = first.layout[0];
    expect(message!.role).toBe(theirs.role);
    const parts = message!.content as TextPart[];
    expect(parts.map((p) => p.type)).toEqual(theirs.content.map((b: { type: string }) => b.type));
    const reminder = theirs.content[0];
    expect(outline(parts[0]!.text)[0]).toBe(`<${reminder.injected[0]}>`);
    expect([...parts[0]!.text.matchAll(/^# (\w+)$/gm)].map((m) => m[1])).toEqual(reminder.keys);
    expect(parts[1]).toEqual({ type: "text", text: prompt, cache: true });

    expect(request.knobs).toMatchObject({
      maxTokens: first.knobs.max_tokens,
      temperature: first.knobs.temperature,
    });
    expect(request.knobs?.userId).toMatch(/^user_[0-9a-f]+_account__session_.+$/);
  });

  it("answers the scripted calls with 2.1.44's result texts", async () => {
    const ws = tempDir("oi-cc-capture-");
    const notes = path.join(ws, "notes.txt");
    writeFileSync(notes, "alpha\nbeta\ngamma\ndelta\nepsilon\n");
    const tools = claudeCodeHarness.open(ctx({ cwd: ws, scratchDir: path.join(ws, ".scratch") })).tools;
    const call = toolRunner(tools, toolContext(ws));
    for (const scripted of capture.scripted_calls) {
      const args = JSON.parse(JSON.stringify(scripted.args).replaceAll("<WS>", ws));
      const result = await call(scripted.tool, args);
      const expected = capturedReminder(scripted.result.content);
      const savedAt = /Full output saved to: (\S+)/;
      const ours = asCaptured(result.output).replace(
        savedAt,
        () => `Full output saved to: ${savedAt.exec(expected)?.[1]}`,
      );
      expect(ours, scripted.call).toBe(expected);
      expect(!!result.isError, scripted.call).toBe(!!scripted.result.is_error);
    }
  });

  it("encodes the Bash results on the Messages wire as 2.1.44 does: a string, is_error on failure", () => {
    const c = ctx();
    const opened = claudeCodeHarness.open(c);
    const bash = (callId: string, status: "completed" | "failed", output: string): HistoryEvent[] => [
      {
        type: "tool_call",
        turnId: "t1",
        step: 1,
        callId,
        name: "Bash",
        harness: "claude-code",
        capability: "exec",
        arguments: '{"command":"x"}',
        title: "x",
        kind: "execute",
        locations: [],
        display: [],
      },
      { type: "tool_result", turnId: "t1", callId, status, output, display: [] },
    ];
    const [exit3, , , yes] = capture.scripted_calls;
    const history: HistoryEvent[] = [
      { type: "user_message", turnId: "t1", content: [{ type: "text", text: "go" }] },
      { type: "assistant_message", turnId: "t1", step: 1, text: "", reasoning: "" },
      ...bash("toolu_1", "failed", exit3.result.content),
      ...bash("toolu_2", "completed", yes.result.content),
    ];
    const request = opened.render({ history, tools: opened.tools, ctx: c });
    const results = messagesOf(request.messages)
      .flatMap((m) => m.content)
      .filter((b) => b.type === "tool_result") as Array<{ content?: unknown; is_error?: boolean }>;
    expect(results.map((b) => ({ content: b.content, error: !!b.is_error }))).toEqual([
      { content: exit3.result.content, error: true },
      { content: yes.result.content, error: false },
    ]);
    expect(typeof results[0]!.content).toBe(exit3.result.content_type);
  });
});
