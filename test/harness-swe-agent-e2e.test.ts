import { readFileSync } from "node:fs";
import path from "node:path";
import { methods } from "@agentclientprotocol/sdk/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { FORMAT_ERROR } from "../src/harnesses/swe-agent/parse-action.js";
import { instancePrompt } from "../src/harnesses/swe-agent/swe-agent-harness.js";
import { BUGGY_CALC as CALC, writeCalcProject } from "./support/calc-project.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess } from "./support/in-process.js";

let model: FakeModel;
let oi: InProcessAgent;

afterEach(async () => {
  await oi?.close();
  await model?.close();
});

type Message = {
  role: string;
  content: string;
  tool_calls?: Array<{ function: { name: string; arguments: string } }>;
};
const messagesOf = (i: number) => model.requests[i]!.body.messages as Message[];

describe("swe-agent end to end", () => {
  it("fixes the task through DISCUSSION + one fenced command, recovers from a malformed reply and submits", async () => {
    model = await startFakeModel();
    oi = await startInProcess({ model, configToml: 'harness = "swe-agent"\n' });
    const { sessionId, cwd } = await oi.newSession();
    writeCalcProject(cwd);

    const look = "DISCUSSION\nLet me read the implementation first.\n\n```\ncat calc.mjs\n```";
    const fix = `DISCUSSION\n\`add\` subtracts; fix the operator.\n\n\`\`\`\nstr_replace_editor str_replace ${cwd}/calc.mjs --old_str 'a - b' --new_str 'a + b'\n\`\`\``;
    const malformed = "Now I will run the tests to check the fix.";
    const test = "DISCUSSION\nRun the tests.\n\n```bash\nnode test.mjs\n```";
    const submit = "DISCUSSION\nThe tests pass.\n\n```\nsubmit\n```";
    const confirm = "DISCUSSION\nReviewed.\n\n```\nsubmit\n```";
    model.reply(
      { text: look },
      { text: fix },
      { text: malformed },
      { text: test },
      { text: submit },
      { text: confirm },
    );

    expect(await oi.prompt(sessionId, "Fix the add function.")).toBe("end_turn");
    expect(readFileSync(path.join(cwd, "calc.mjs"), "utf8")).toBe(CALC.replace("a - b", "a + b"));
    expect(model.requests).toHaveLength(6);
    for (const request of model.requests) {
      expect(request.body.tools).toBeUndefined();
      expect(request.body).toMatchObject({ temperature: 0, top_p: 1 });
    }

    const first = messagesOf(0);
    expect(first.map((m) => m.role)).toEqual(["system", "user"]);
    expect(first[1]!.content).toBe(instancePrompt("Fix the add function.", cwd));
    expect(messagesOf(1).slice(2)).toEqual([
      { role: "assistant", content: look },
      { role: "user", content: `OBSERVATION:\n${CALC}` },
    ]);
    // SWE-agent's editor answers with its snippet of the edited file.
    expect(messagesOf(2).slice(-2)).toEqual([
      { role: "assistant", content: fix },
      {
        role: "user",
        content:
          `OBSERVATION:\nThe file ${cwd}/calc.mjs has been edited. Here's the result of running \`cat -n\` on a snippet of ${cwd}/calc.mjs:\n` +
          "     1\texport function add(a, b) {\n     2\t  return a + b;\n     3\t}\n" +
          "Review the changes and make sure they are as expected. Edit the file again if necessary.\n",
      },
    ]);
    // The malformed reply is answered by SWE-agent's own correction...
    expect(messagesOf(3).slice(-2)).toEqual([
      { role: "assistant", content: malformed },
      { role: "user", content: FORMAT_ERROR },
    ]);
    // ...and once the model recovers, the failed attempt leaves the history, as in SWE-agent.
    expect(messagesOf(4).slice(-3)).toEqual([
      { role: "user", content: expect.stringContaining("Edit the file again if necessary.") },
      { role: "assistant", content: test },
      { role: "user", content: "OBSERVATION:\nTESTS PASSED\n" },
    ]);
    // An edit inside the workspace is allowed in workspace-write; the test run is asked.
    expect(oi.editor.permissions.map((p) => p.toolCall.title)).toEqual(["node test.mjs"]);
    // The first submit shows SWE-agent's review round; the second one ends the task.
    expect(messagesOf(5).slice(-2)).toEqual([
      { role: "assistant", content: submit },
      {
        role: "user",
        content: expect.stringMatching(
          /^OBSERVATION:\n[\s\S]*Run the submit command again to confirm\.[\s\S]*<diff>\n/,
        ),
      },
    ]);
    expect(oi.editor.text(sessionId)).toContain("Reviewed.");
    model.assertDone();
  });

  it("switches in and out with /harness keeping the history, and replays after a restart", async () => {
    model = await startFakeModel();
    oi = await startInProcess({ model, configToml: 'mode = "full-access"\n' });
    const { sessionId, cwd } = await oi.newSession();
    writeCalcProject(cwd);

    await oi.prompt(sessionId, "/harness");
    expect(oi.editor.text(sessionId)).toContain(
      "- `swe-agent`: SWE-agent: a DISCUSSION, then one command in a fenced block; no tool schema; SWE-agent 1.1.0 (github:SWE-agent/SWE-agent@v1.1.0 ",
    );

    // Codex reads the file.
    model.reply(
      { toolCalls: [{ id: "a1", name: "exec_command", arguments: { cmd: "cat calc.mjs" } }] },
      { text: "add subtracts" },
    );
    await oi.prompt(sessionId, "Fix the add function.");

    // SWE-agent fixes it: Codex's call shows as a fenced command with its output as an observation.
    await oi.prompt(sessionId, "/harness swe-agent");
    model.reply(
      { text: "DISCUSSION\nFix it.\n\n```\nsed -i 's/a - b/a + b/' calc.mjs && node test.mjs\n```" },
      { text: "DISCUSSION\nDone.\n\n```\nsubmit -f\n```" },
    );
    expect(await oi.prompt(sessionId, "go on")).toBe("end_turn");
    const swe = messagesOf(2);
    expect(swe[0]).toMatchObject({ role: "system" });
    expect(swe[1]!.content).toBe(instancePrompt("Fix the add function.", cwd));
    // Codex's call as a fenced command, its result under the step template, then its answer.
    expect(swe.slice(2).map((m) => m.role)).toEqual(["assistant", "user", "assistant", "user"]);
    expect(swe[2]).toEqual({ role: "assistant", content: "```\ncat calc.mjs\n```" });
    expect(swe[3]!.content).toMatch(/^OBSERVATION:\n[\s\S]*return a - b;/);
    expect(swe[4]).toEqual({ role: "assistant", content: "add subtracts" });
    expect(swe[5]).toEqual({ role: "user", content: "go on" });
    expect(readFileSync(path.join(cwd, "calc.mjs"), "utf8")).toBe(CALC.replace("a - b", "a + b"));

    // Back to Codex: SWE-agent's command is an exec_command call now, its observation the result.
    await oi.prompt(sessionId, "/harness codex");
    model.reply({ text: "fixed and tested" });
    expect(await oi.prompt(sessionId, "status?")).toBe("end_turn");
    const codex = messagesOf(4);
    const calls = codex.flatMap((m) => m.tool_calls ?? []).map((c) => c.function);
    expect(calls).toEqual([
      { name: "exec_command", arguments: '{"cmd":"cat calc.mjs"}' },
      {
        name: "exec_command",
        arguments: JSON.stringify({ cmd: "sed -i 's/a - b/a + b/' calc.mjs && node test.mjs" }),
      },
    ]);
    expect(JSON.stringify(codex)).toContain("OBSERVATION:\\nTESTS PASSED");

    // A fresh daemon replays the session, the SWE-agent call included.
    const home = oi.home;
    await oi.close();
    oi = await startInProcess({ model, home });
    await oi.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    const replayed = oi.editor.updates(sessionId).filter((u) => u.sessionUpdate === "tool_call");
    expect(replayed.map((u) => (u as { title?: string }).title)).toEqual([
      "cat calc.mjs",
      "sed -i 's/a - b/a + b/' calc.mjs && node test.mjs",
    ]);
    expect(oi.editor.text(sessionId)).toContain("fixed and tested");

    // And it goes on under SWE-agent after the restart, the instance template still first.
    await oi.prompt(sessionId, "/harness swe-agent");
    model.reply({ text: "DISCUSSION\nNothing left.\n\n```\nexit\n```" });
    expect(await oi.prompt(sessionId, "anything else?")).toBe("end_turn");
    expect(messagesOf(5)[1]!.content).toBe(instancePrompt("Fix the add function.", cwd));
    model.assertDone();
  });
});
