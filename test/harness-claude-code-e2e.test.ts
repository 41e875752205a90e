import { readFileSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { claudeCodeHarness } from "../src/harnesses/claude-code/claude-code-harness.js";
import { claudeCodeBareHarness } from "../src/harnesses/claude-code-bare/claude-code-bare-harness.js";
import { READ_REMINDER } from "../src/harnesses/shared/claude-code-core/tools/read.js";
import type { Harness } from "../src/harnesses/types.js";
import { type ChatBody, type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess } from "./support/in-process.js";

let model: FakeModel;
let oi: InProcessAgent;

afterEach(async () => {
  await oi?.close();
  await model?.close();
});

const BUGGY = "export function add(a, b) {\n  return a - b;\n}\n";
const TEST = [
  'import { add } from "./math.js";',
  'if (add(2, 3) !== 5) { console.log("TESTS FAILED"); process.exit(1); }',
  'console.log("TESTS PASSED");',
  "",
].join("\n");

async function workspace(harness: Harness) {
  model = await startFakeModel();
  oi = await startInProcess({ model, harnesses: [harness], configToml: `harness = "${harness.id}"\n` });
  const session = await oi.newSession();
  writeFileSync(path.join(session.cwd, "math.js"), BUGGY);
  writeFileSync(path.join(session.cwd, "test.mjs"), TEST);
  return session;
}

type Message = { role: string; content: string; tool_call_id?: string };
const toolMessage = (body: ChatBody, id: string) =>
  (body.messages as Message[]).find((m) => m.role === "tool" && m.tool_call_id === id)?.content;

/** Read math.js, fix it with Edit, run the tests with Bash, answer: Claude Code's own call shapes. */
function scriptFix(cwd: string) {
  const file = path.join(cwd, "math.js");
  model.reply(
    {
      text: "I'll read math.js first.",
      toolCalls: [{ id: "toolu_1", name: "Read", arguments: { file_path: file } }],
    },
    {
      toolCalls: [
        {
          id: "toolu_2",
          name: "Edit",
          arguments: { file_path: file, old_string: "a - b", new_string: "a + b" },
        },
      ],
    },
    {
      toolCalls: [
        { id: "toolu_3", name: "Bash", arguments: { command: "node test.mjs", description: "Run tests" } },
      ],
    },
    { text: "Fixed `add` in math.js:2; the tests pass." },
  );
  return file;
}

function expectFixSeen(file: string) {
  expect(readFileSync(file, "utf8")).toBe("export function add(a, b) {\n  return a + b;\n}\n");
  const last = model.requests[3]!.body;
  expect(toolMessage(last, "toolu_1")).toBe(
    `     1→export function add(a, b) {\n     2→  return a - b;\n     3→}\n     4→${READ_REMINDER}`,
  );
  expect(toolMessage(last, "toolu_2")).toBe(`The file ${file} has been updated successfully.`);
  expect(toolMessage(last, "toolu_3")).toBe("TESTS PASSED");
  // The test command is not known read-only: the editor was asked, and allowed it.
  expect(oi.editor.permissions.map((p) => p.toolCall.title)).toEqual(["node test.mjs"]);
}

describe("claude-code end to end", () => {
  it("reads, edits, runs the tests and answers, with Claude Code's surface on the wire", async () => {
    const { sessionId, cwd } = await workspace(claudeCodeHarness);
    const file = scriptFix(cwd);
    expect(await oi.prompt(sessionId, "The tests fail. Fix math.js.")).toBe("end_turn");
    expectFixSeen(file);
    model.assertDone();

    const first = model.requests[0]!.body;
    expect(first.max_tokens).toBe(32000);
    expect(first.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      "Task",
      "TaskOutput",
      "Bash",
      "Glob",
      "Grep",
      "ExitPlanMode",
      "Read",
      "Edit",
      "Write",
      "NotebookEdit",
      "WebFetch",
      "TodoWrite",
      "WebSearch",
      "TaskStop",
      "AskUserQuestion",
      "EnterPlanMode",
    ]);
    const system = first.messages[0] as Message;
    expect(system.role).toBe("system");
    expect(system.content).toMatch(
      /^You are a Claude agent, working as a coding assistant in Open Interpreter\.\n\nYou are an interactive agent that helps users with software engineering tasks/,
    );
    expect(system.content).toContain(`<env>\nWorking directory: ${cwd}\nIs directory a git repo: No\n`);
    expect(system.content).not.toContain("gitStatus:");
    expect(first.messages.slice(1)).toEqual([
      {
        role: "user",
        content: expect.stringMatching(
          /^<system-reminder>\n.+\n# currentDate\n[^\n]*\d{4}-\d{2}-\d{2}[\s\S]*<\/system-reminder>\n\nThe tests fail\. Fix math\.js\.$/,
        ),
      },
    ]);
    expect(oi.editor.text(sessionId)).toContain("the tests pass.");
  });
});

describe("claude-code-bare end to end", () => {
  it("does the same task with only Bash, Read and Edit and the short prompt", async () => {
    const { sessionId, cwd } = await workspace(claudeCodeBareHarness);
    const file = scriptFix(cwd);
    expect(await oi.prompt(sessionId, "The tests fail. Fix math.js.")).toBe("end_turn");
    expectFixSeen(file);
    model.assertDone();

    const first = model.requests[0]!.body;
    expect(first.max_tokens).toBeUndefined();
    expect(
      first.tools.map((t: { function: { name: string; description: string } }) => t.function),
    ).toMatchObject([
      { name: "Bash", description: "execute shell commands" },
      { name: "Read", description: "read text files" },
      { name: "Edit", description: "modify file contents in place" },
    ]);
    expect((first.messages[0] as Message).content).toMatch(
      new RegExp(
        `^You are a Claude agent, working as a coding assistant in Open Interpreter\\.\\n\\nCWD: ${cwd}\\nDate: \\d{4}-\\d{2}-\\d{2}$`,
      ),
    );
  });

  it("refuses an Edit before any Read and an Edit after the file changed on disk", async () => {
    const { sessionId, cwd } = await workspace(claudeCodeBareHarness);
    const file = path.join(cwd, "math.js");
    const edit = (id: string) => ({
      id,
      name: "Edit",
      arguments: { file_path: file, old_string: "a - b", new_string: "a + b" },
    });
    const changedOnDisk = "export function add(a, b) {\n  return a - b; // someone else\n}\n";
    model.reply(
      { toolCalls: [edit("toolu_1")] },
      { toolCalls: [{ id: "toolu_2", name: "Read", arguments: { file_path: file } }] },
      {
        // The user saves the file between the model's Read and its Edit.
        expect: () => {
          writeFileSync(file, changedOnDisk);
          utimesSync(file, new Date(), new Date(Date.now() + 10_000));
        },
        toolCalls: [edit("toolu_3")],
      },
      { text: "The file changed under me; I will read it again." },
    );
    expect(await oi.prompt(sessionId, "Fix math.js.")).toBe("end_turn");
    model.assertDone();
    const last = model.requests[3]!.body;
    expect(toolMessage(last, "toolu_1")).toBe(
      "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>",
    );
    expect(toolMessage(last, "toolu_3")).toBe(
      "<tool_use_error>File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.</tool_use_error>",
    );
    expect(readFileSync(file, "utf8")).toBe(changedOnDisk);
  });
});
