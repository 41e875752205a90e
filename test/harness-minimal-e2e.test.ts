import { readFileSync } from "node:fs";
import path from "node:path";
import { methods } from "@agentclientprotocol/sdk/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { BUGGY_CALC as CALC, writeCalcProject } from "./support/calc-project.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess } from "./support/in-process.js";

let model: FakeModel;
let oi: InProcessAgent;

afterEach(async () => {
  await oi?.close();
  await model?.close();
});

type Body = {
  tools?: Array<{ function: { name: string } }>;
  messages: Array<{
    role: string;
    content: unknown;
    tool_call_id?: string;
    tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  }>;
};
const body = (i: number) => model.requests[i]!.body as Body;
const toolText = (i: number, id: string) =>
  body(i).messages.find((m) => m.tool_call_id === id)?.content as string;

describe("minimal end to end", () => {
  it("fixes the task with Codex's tools as plain functions; a malformed call gets the parse error back", async () => {
    model = await startFakeModel();
    oi = await startInProcess({ model, configToml: 'harness = "minimal"\n' });
    const { sessionId, cwd } = await oi.newSession();
    writeCalcProject(cwd);
    model.reply(
      { toolCalls: [{ id: "c1", name: "exec_command", arguments: { cmd: "cat calc.mjs" } }] },
      { toolCalls: [{ id: "c2", name: "exec_command", arguments: '{"cmd": "sed -i' }] },
      {
        toolCalls: [
          {
            id: "c3",
            name: "exec_command",
            arguments: { cmd: "sed -i 's/a - b/a + b/' calc.mjs && node test.mjs" },
          },
        ],
      },
      { text: "Fixed: add adds, the tests pass." },
    );
    expect(await oi.prompt(sessionId, "Fix the add function.")).toBe("end_turn");
    expect(readFileSync(path.join(cwd, "calc.mjs"), "utf8")).toBe(CALC.replace("a - b", "a + b"));
    expect(model.requests).toHaveLength(4);
    for (let i = 0; i < 4; i++) {
      expect(body(i).tools!.map((t) => t.function.name)).toEqual([
        "exec_command",
        "write_stdin",
        "request_user_input",
        "view_image",
      ]);
      expect(body(i).messages[0]!.role).toBe("system");
    }
    expect(body(0).messages.slice(1)).toEqual([{ role: "user", content: "Fix the add function." }]);
    expect(toolText(1, "c1")).toContain("return a - b;");
    expect(toolText(2, "c2")).toMatch(/^failed to parse function arguments for exec_command: /);
    expect(toolText(3, "c3")).toContain("TESTS PASSED");
    expect(oi.editor.text(sessionId)).toContain("Fixed: add adds");
    model.assertDone();
  });

  it("switches in and out with /harness keeping the history, and replays after a restart", async () => {
    model = await startFakeModel();
    oi = await startInProcess({ model, configToml: 'mode = "full-access"\n' });
    const { sessionId, cwd } = await oi.newSession();
    writeCalcProject(cwd);

    await oi.prompt(sessionId, "/harness");
    expect(oi.editor.text(sessionId)).toContain(
      "- `minimal`: Open Interpreter's minimal harness: a two-line prompt and the native tools as plain chat tools; Open Interpreter minimal 0.0.40 (github:openinterpreter/openinterpreter@rust-v0.0.40 ",
    );

    // Claude Code reads the file with Bash.
    await oi.prompt(sessionId, "/harness claude-code");
    model.reply(
      { toolCalls: [{ id: "a1", name: "Bash", arguments: { command: "cat calc.mjs" } }] },
      { text: "add subtracts" },
    );
    await oi.prompt(sessionId, "Fix the add function.");

    // Minimal fixes it: the Bash call is an exec_command call in its request.
    await oi.prompt(sessionId, "/harness minimal");
    model.reply(
      {
        toolCalls: [
          { id: "b1", name: "exec_command", arguments: { cmd: "sed -i 's/a - b/a + b/' calc.mjs" } },
        ],
      },
      { text: "fixed" },
    );
    expect(await oi.prompt(sessionId, "go on")).toBe("end_turn");
    const minimal = body(2).messages;
    expect(minimal.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "user"]);
    expect(minimal[2]!.tool_calls!.map((c) => c.function)).toEqual([
      { name: "exec_command", arguments: '{"cmd":"cat calc.mjs"}' },
    ]);
    expect(readFileSync(path.join(cwd, "calc.mjs"), "utf8")).toBe(CALC.replace("a - b", "a + b"));

    // Back to Codex: minimal's call is Codex's own.
    await oi.prompt(sessionId, "/harness codex");
    model.reply({ text: "done" });
    expect(await oi.prompt(sessionId, "status?")).toBe("end_turn");
    const codexCalls = body(4)
      .messages.flatMap((m) => m.tool_calls ?? [])
      .map((c) => c.function.name);
    expect(codexCalls).toEqual(["exec_command", "exec_command"]);

    // A fresh daemon replays the session, then minimal goes on.
    const home = oi.home;
    await oi.close();
    oi = await startInProcess({ model, home });
    await oi.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    const replayed = oi.editor.updates(sessionId).filter((u) => u.sessionUpdate === "tool_call");
    expect(replayed.map((u) => (u as { title?: string }).title)).toEqual([
      "cat calc.mjs",
      "sed -i 's/a - b/a + b/' calc.mjs",
    ]);
    await oi.prompt(sessionId, "/harness minimal");
    model.reply({ text: "all good" });
    expect(await oi.prompt(sessionId, "anything else?")).toBe("end_turn");
    expect(body(5).messages[1]).toEqual({ role: "user", content: "Fix the add function." });
    model.assertDone();
  });
});
