import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { qwenCodeHarness } from "../src/harnesses/qwen-code/qwen-code-harness.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess, tempDir } from "./support/in-process.js";
import { schemaShape } from "./support/schema-shape.js";

/**
 * Our qwen-code harness against the structure-only capture of Qwen Code 0.24.4 (the shared
 * conformance folder beside the repository): the same scripted turn, then the tool set, schema
 * shapes, request layout, knobs and the result texts of the scripted calls compared.
 */
const CAPTURE = path.resolve(
  import.meta.dirname,
  "../../shared/conformance/harness-requests/qwen-code-0.24.4.json",
);
const capture = existsSync(CAPTURE) ? JSON.parse(readFileSync(CAPTURE, "utf8")) : undefined;

/** Tools 0.24.4 offers that belong to later work (listed as pending in docs/harnesses.md). */
const PENDING = ["get_goal", "list_agents", "tool_call", "tool_search", "update_goal"];

type Json = Record<string, unknown>;
type Part = { type: string; text: string };
type Msg = {
  role: string;
  content: unknown;
  tool_calls?: Array<{ type: string; function: { name: string } }>;
};

/** The opening tag and the markdown-key headings of a text: what the capture keeps of injected context. */
function tagsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*<([A-Za-z][\w:.-]*)(?=[\s>/])[^>]*>/gm))
    if (out.at(-1) !== m[1]) out.push(m[1]!);
  return out;
}

/** A message list reduced as the capture's `layout` is: roles, block types, injected tags, prompts, calls. */
function layoutOf(messages: Msg[], prompts: string[]): unknown[] {
  return messages.map((m) => {
    if (m.role === "system") return { role: "system", content: typeof m.content };
    if (m.role === "tool")
      return { role: "tool", content: Array.isArray(m.content) ? "array" : typeof m.content };
    if (m.role === "assistant") {
      return {
        role: "assistant",
        content: m.content === null ? null : typeof m.content,
        calls: m.tool_calls?.map((c) => c.function.name) ?? [],
      };
    }
    const parts = m.content as Part[];
    return {
      role: m.role,
      content: parts.map((p) =>
        prompts.includes(p.text)
          ? { type: p.type, prompt: prompts.indexOf(p.text) + 1 }
          : { type: p.type, injected: tagsOf(p.text)[0] },
      ),
    };
  });
}

/** The capture's layout in the same reduced form, without its deferred-tools reminder (tool search is pending). */
function captureLayout(layout: Json[]): unknown[] {
  return layout.map((m) => {
    if (m.role === "system") return { role: "system", content: "string" };
    if (m.role === "tool") return { role: "tool", content: m.content_type };
    if (m.role === "assistant") {
      const calls = (m.tool_calls as Array<{ name: string }> | undefined)?.map((c) => c.name) ?? [];
      return { role: "assistant", content: m.content === null ? null : "string", calls };
    }
    const parts = (m.content as Json[]).filter((p) => !(p.keys as string[] | undefined)?.includes("Bundled"));
    return {
      role: m.role,
      content: parts.map((p) =>
        p.prompt
          ? { type: p.type, prompt: p.prompt }
          : { type: p.type, injected: (p.injected as string[])[0] },
      ),
    };
  });
}

let model: FakeModel;
let oi: InProcessAgent;
afterEach(async () => {
  await oi?.close();
  await model?.close();
});

describe.skipIf(!capture)("qwen-code against the Qwen Code 0.24.4 capture", () => {
  // Reason when skipped: the capture lives in the shared conformance folder, outside the repository.
  it("sends the tool set, schemas, layout, knobs and result texts of the capture", async () => {
    const scripted = Object.fromEntries(capture.scripted_calls.map((c: Json) => [c.call, c]));
    const prompts: string[] = capture.capture.prompts;
    model = await startFakeModel();
    oi = await startInProcess({ model, harnesses: [qwenCodeHarness], configToml: 'harness = "qwen-code"\n' });
    const cwd = tempDir("oi-ws-");
    writeFileSync(path.join(cwd, "notes.txt"), "alpha\nbeta\ngamma\ndelta\nepsilon\n");
    mkdirSync(path.join(cwd, ".agents/skills/demo"), { recursive: true });
    writeFileSync(
      path.join(cwd, ".agents/skills/demo/SKILL.md"),
      "---\nname: demo\ndescription: A demo skill\n---\nSteps.\n",
    );
    const { sessionId } = await oi.newSession({ cwd });
    const call = (name: string, id: string) => {
      const args = { ...(scripted[id].args as Json) };
      if (typeof args.file_path === "string") args.file_path = args.file_path.replace("<WS>", cwd);
      return { toolCalls: [{ id, name, arguments: args }] };
    };
    model.reply(
      call("run_shell_command", "shell_exit3"),
      call("read_file", "read_notes"),
      call("run_shell_command", "shell_seq"),
      call("run_shell_command", "shell_true"),
      { text: "done" },
    );
    expect(await oi.prompt(sessionId, prompts[0]!)).toBe("end_turn");
    model.reply(call("run_shell_command", "shell_turn2"), { text: "done again" });
    expect(await oi.prompt(sessionId, prompts[1]!)).toBe("end_turn");
    model.assertDone();

    const ours = model.requests.map((r) => r.body as Json);
    expect(ours).toHaveLength(capture.requests.length);

    // Tools: 0.24.4's names and order minus the pending ones, each with the captured schema shape.
    const theirs = capture.tool_sets[capture.requests[0].tools.ref].tools as Array<{ function: Json }>;
    const implemented = theirs.filter((t) => !PENDING.includes(t.function.name as string));
    const tools = ours[0]!.tools as Array<{ type: string; function: Json }>;
    expect(tools.map((t) => t.function.name)).toEqual(implemented.map((t) => t.function.name));
    for (const [i, tool] of tools.entries()) {
      expect(tool.type).toBe("function");
      expect(schemaShape(tool.function.parameters), String(tool.function.name)).toEqual(
        schemaShape(implemented[i]!.function.parameters),
      );
      expect(JSON.stringify(schemaShape(tool.function.parameters))).toBe(
        JSON.stringify(schemaShape(implemented[i]!.function.parameters)),
      );
    }

    // Every request: the captured knobs and layout.
    for (const [i, body] of ours.entries()) {
      const { messages, tools: _tools, ...knobs } = body;
      const expectedKnobs = { ...capture.requests[i].knobs, model: "mock-model" };
      expect(Object.keys(knobs).sort()).toEqual(Object.keys(expectedKnobs).sort());
      expect(knobs.max_tokens).toBe(expectedKnobs.max_tokens);
      expect(knobs.stream_options).toEqual(expectedKnobs.stream_options);
      expect(layoutOf(messages as Msg[], prompts), `request ${i + 1}`).toEqual(
        captureLayout(capture.requests[i].layout),
      );
      expect(capture.requests[i].cache).toEqual([]);
    }

    // Result texts of the scripted calls, in the last request (the saved-output path as a pattern).
    const results = Object.fromEntries(
      (ours.at(-1)!.messages as Array<Json>)
        .filter((m) => m.role === "tool")
        .map((m) => [m.tool_call_id, m.content as Part[]]),
    );
    for (const id of ["shell_exit3", "read_notes", "shell_true", "shell_turn2"]) {
      expect(results[id], id).toEqual(scripted[id].result.content);
    }
    const [theirSeq] = scripted.shell_seq.result.content as Part[];
    const [ourSeq] = results.shell_seq!;
    const savedLine = /^The full output has been saved to: .*\n/m;
    expect(ourSeq!.text).toMatch(
      /^The full output has been saved to: \S+\/run_shell_command_[0-9a-f]{12}\.output$/m,
    );
    const cut = (text: string) => text.replace(savedLine, "");
    // The capture keeps the first and last 200 characters around each cut: compare those and the length.
    const pieces = cut(theirSeq!.text).split(/\[… cut \d+ chars …\]/);
    let at = 0;
    for (const piece of pieces) {
      const found = cut(ourSeq!.text).indexOf(piece, at);
      expect(found, piece.slice(0, 60)).toBeGreaterThanOrEqual(at);
      at = found + piece.length;
    }
    // And the preview after the header is as long as 0.24.4's (the cuts counted back in).
    const preview = (text: string) => text.slice(text.indexOf("Truncated part of the output:\n"));
    const theirPreview = preview(theirSeq!.text).replace(/\[… cut (\d+) chars …\]/g, (_, n) =>
      "x".repeat(Number(n)),
    );
    expect(preview(ourSeq!.text).length).toBe(theirPreview.length);
  });
});
