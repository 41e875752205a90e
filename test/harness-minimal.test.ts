import { describe, expect, it } from "vitest";
import { codexHarness } from "../src/harnesses/codex/codex-harness.js";
import { minimalHarness } from "../src/harnesses/minimal/minimal-harness.js";
import { toolSpecs } from "../src/harnesses/shared/tool-specs.js";
import { chatView, harnessContext } from "./support/harness-fixtures.js";

const minimal = minimalHarness(codexHarness);
const history = [
  { type: "user_message" as const, turnId: "t1", content: [{ type: "text" as const, text: "Fix the bug." }] },
];

function request(model: string, instructions = "") {
  const ctx = harnessContext({ model, instructions });
  const opened = minimal.open(ctx);
  return { opened, view: chatView(opened.render({ history, tools: opened.tools, ctx })) };
}

describe("minimal request", () => {
  it("is a two-line system prompt, the prompt as sent, and the native tools as plain functions", () => {
    const { view } = request("mock-model", "Always run the tests.");
    expect(view.messages.map((m) => m.role)).toEqual(["system", "user"]);
    const system = view.messages[0]!.content as string;
    expect(system.split("\n")).toHaveLength(2);
    expect(system).toContain("current directory");
    // No AGENTS.md, environment or permissions message: the user's prompt is the whole user turn.
    expect(view.messages[1]!.content).toBe("Fix the bug.");
    expect(JSON.stringify(view)).not.toContain("Always run the tests.");
    expect(view.knobs).toBeUndefined();
    // Codex's tools for this model, each with Codex's own schema and description, without `strict`.
    const codex = codexHarness.open(harnessContext({ model: "mock-model" })).tools;
    expect(view.tools.map((t) => t.function.name)).toEqual([
      "exec_command",
      "write_stdin",
      "request_user_input",
      "view_image",
    ]);
    expect(view.tools.map((t) => t.function)).toEqual(
      toolSpecs(codex).map(({ name, description, parameters }) => ({ name, description, parameters })),
    );
    expect(JSON.stringify(view.tools)).not.toContain('"strict"');
  });

  it("leaves out what the native harness sends as a freeform tool (Codex's grammar apply_patch)", () => {
    const native = codexHarness.open(harnessContext({ model: "gpt-5.5" }));
    const nativeSpecs = native.render({
      history,
      tools: native.tools,
      ctx: harnessContext({ model: "gpt-5.5" }),
    }).tools;
    expect(nativeSpecs.find((s) => s.name === "apply_patch")?.type).toBe("custom");
    const { opened, view } = request("gpt-5.5");
    expect(opened.tools.map((t) => t.name)).toEqual([
      "exec_command",
      "write_stdin",
      "request_user_input",
      "view_image",
    ]);
    expect(view.tools.map((t) => t.function.name)).toEqual([
      "exec_command",
      "write_stdin",
      "request_user_input",
      "view_image",
    ]);
  });
});
