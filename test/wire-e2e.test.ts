import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { builtinHarnesses } from "../src/harnesses/harness-list.js";
import type { Wire } from "../src/providers/model-request.js";
import { type ChatBody, type FakeModel, type FakeToolCall, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess } from "./support/in-process.js";

// Every harness's task on every wire the routing table gives it beyond chat (the chat runs are
// each harness's own end-to-end file). The fake model validates each wire's request strictly,
// so a field a wire does not have fails `assertDone()`.

let model: FakeModel | undefined;
let oi: InProcessAgent | undefined;

afterEach(async () => {
  await oi?.close();
  await model?.close();
  oi = undefined;
  model = undefined;
});

const BUGGY = "export function add(a, b) {\n  return a - b;\n}\n";
const TEST = [
  'import { add } from "./math.js";',
  'if (add(2, 3) !== 5) { console.log("TESTS FAILED"); process.exit(1); }',
  'console.log("TESTS PASSED");',
  "",
].join("\n");

const FIX_PATCH =
  "*** Begin Patch\n*** Update File: math.js\n@@\n export function add(a, b) {\n-  return a - b;\n+  return a + b;\n }\n*** End Patch\n";

/** The harness's own calls that fix math.js and run the tests, in its tool names and shapes. */
const SCRIPTS: Record<string, (file: string) => FakeToolCall[]> = {
  // Models outside Codex's catalog patch through the shell.
  codex: () => [
    { id: "call_1", name: "exec_command", arguments: { cmd: "cat math.js" } },
    { id: "call_2", name: "exec_command", arguments: { cmd: `apply_patch <<'EOF'\n${FIX_PATCH}EOF` } },
    { id: "call_3", name: "exec_command", arguments: { cmd: "node test.mjs" } },
  ],
  "claude-code": (file) => [
    { id: "toolu_1", name: "Read", arguments: { file_path: file } },
    { id: "toolu_2", name: "Edit", arguments: { file_path: file, old_string: "a - b", new_string: "a + b" } },
    { id: "toolu_3", name: "Bash", arguments: { command: "node test.mjs", description: "Run tests" } },
  ],
};
SCRIPTS["claude-code-bare"] = SCRIPTS["claude-code"]!;
SCRIPTS.zcode = SCRIPTS["claude-code"]!;

/** What the model was shown as each call's result, read from the wire's own request shape. */
function toolOutputs(body: ChatBody, wire: Wire): Record<string, string> {
  const text = (content: unknown): string =>
    typeof content === "string"
      ? content
      : (content as Array<{ type: string; text?: string }>).map((block) => block.text ?? "").join("");
  if (wire === "chat") {
    return Object.fromEntries(
      body.messages
        .filter((m: ChatBody) => m.role === "tool")
        .map((m: ChatBody) => [m.tool_call_id, text(m.content)]),
    );
  }
  if (wire === "responses") {
    return Object.fromEntries(
      body.input
        .filter(
          (item: ChatBody) => item.type === "function_call_output" || item.type === "custom_tool_call_output",
        )
        .map((item: ChatBody) => [item.call_id, text(item.output)]),
    );
  }
  return Object.fromEntries(
    body.messages
      .filter((m: ChatBody) => m.role === "user" && Array.isArray(m.content))
      .flatMap((m: ChatBody) => m.content.filter((block: ChatBody) => block.type === "tool_result"))
      .map((block: ChatBody) => [block.tool_use_id, text(block.content)]),
  );
}

/** Whether the request sends the first response's reasoning back in the wire's opaque form. */
function sendsReasoningBack(body: ChatBody, wire: Wire): boolean {
  if (wire === "responses")
    return body.input.some((item: ChatBody) => item.type === "reasoning" && item.encrypted_content);
  return body.messages.some(
    (m: ChatBody) =>
      m.role === "assistant" &&
      Array.isArray(m.content) &&
      m.content.some((block: ChatBody) => block.type === "thinking" && block.signature),
  );
}

const pairs = builtinHarnesses().flatMap((harness) =>
  harness.wires.filter((wire) => wire !== "chat").map((wire) => ({ id: harness.id, wire })),
);

describe("each harness on each wire of the routing table", () => {
  it("covers the pairs the routing table gives beyond chat", () => {
    expect(pairs.map((p) => `${p.id}@${p.wire}`)).toEqual([
      "codex@responses",
      "claude-code@responses",
      "claude-code@messages",
      "claude-code-bare@responses",
      "claude-code-bare@messages",
      "zcode@messages",
    ]);
  });

  for (const { id, wire } of pairs) {
    it(`${id} on ${wire}: reads, fixes, runs the tests and answers`, async () => {
      await fixesTheTests({ id, wire, calls: SCRIPTS[id]! });
    });
  }

  it("codex with a model of Codex's catalog on responses: patches with the freeform apply_patch", async () => {
    const calls = (): FakeToolCall[] => [
      { id: "call_1", name: "exec_command", arguments: { cmd: "cat math.js" } },
      { id: "call_2", name: "apply_patch", arguments: FIX_PATCH, custom: true },
      { id: "call_3", name: "exec_command", arguments: { cmd: "node test.mjs" } },
    ];
    await fixesTheTests({ id: "codex", wire: "responses", model: "gpt-5.5", calls });
    const tools = model!.requests[0]!.body.tools as Array<{ type: string; name: string }>;
    expect(tools.map((t) => [t.type, t.name])).toEqual([
      ["function", "exec_command"],
      ["function", "write_stdin"],
      ["function", "request_user_input"],
      ["custom", "apply_patch"],
      ["function", "view_image"],
    ]);
    expect(toolOutputs(model!.requests[3]!.body, "responses").call_2).toContain(
      "Success. Updated the following files:\nM math.js\n",
    );
  });
});

/** One task through `id` on `wire`: read math.js, fix it, run the tests, answer. */
async function fixesTheTests(options: {
  id: string;
  wire: Wire;
  model?: string;
  calls: (file: string) => FakeToolCall[];
}): Promise<void> {
  const { id, wire } = options;
  model = await startFakeModel();
  oi = await startInProcess({
    model,
    ...(options.model ? { cli: { model: options.model } } : {}),
    configToml: [
      `harness = "${id}"`,
      'model_provider = "fake"',
      "[model_providers.fake]",
      `base_url = "${model.url}"`,
      'env_key = "FAKE_KEY"',
      `wire_api = "${wire}"`,
      "",
    ].join("\n"),
    env: { FAKE_KEY: "sk-fake" },
  });
  const { sessionId, cwd } = await oi.newSession();
  const file = path.join(cwd, "math.js");
  writeFileSync(file, BUGGY);
  writeFileSync(path.join(cwd, "test.mjs"), TEST);
  const calls = options.calls(file);
  model.reply(
    { reasoning: "The sum is wrong; read the file first.", toolCalls: [calls[0]!] },
    { toolCalls: [calls[1]!] },
    { toolCalls: [calls[2]!] },
    { text: "Fixed `add` in math.js; the tests pass." },
  );
  expect(await oi.prompt(sessionId, "The tests fail. Fix math.js.")).toBe("end_turn");
  model.assertDone();
  expect(readFileSync(file, "utf8")).toBe(BUGGY.replace("a - b", "a + b"));
  const last = model.requests[3]!;
  expect(last.path).toBe(wire === "responses" ? "/v1/responses" : "/v1/messages");
  const outputs = toolOutputs(last.body, wire);
  expect(outputs[calls[2]!.id!]).toContain("TESTS PASSED");
  expect(outputs[calls[0]!.id!]).toContain("return a - b");
  expect(sendsReasoningBack(model.requests[1]!.body, wire)).toBe(true);
  expect(oi.editor.text(sessionId)).toContain("the tests pass");
}
