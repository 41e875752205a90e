import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bashTool } from "../src/harnesses/swe-agent/bash-tool.js";
import { formatObservation, formatTimeout, NO_OUTPUT } from "../src/harnesses/swe-agent/observation.js";
import { blockedText, FORMAT_ERROR, isBlocked } from "../src/harnesses/swe-agent/parse-action.js";
import { reviewText, submitTool } from "../src/harnesses/swe-agent/submit-tool.js";
import { instancePrompt, sweAgentHarness } from "../src/harnesses/swe-agent/swe-agent-harness.js";
import type { HistoryEvent } from "../src/store/events.js";
import { chatView, firstRequest, harnessContext, tempDir, toolContext } from "./support/harness-fixtures.js";
import { needs } from "./support/requires.js";

const ctx = harnessContext({ model: "mock-model", cwd: "/work/project" });

let ids = 0;
const parse = (text: string) => sweAgentHarness.parse!(text, { step: 1, newId: () => `id${++ids}` });
const bash = (command: string) => ({
  calls: [{ id: expect.any(String), name: "bash", arguments: JSON.stringify({ command }) }],
});

/** The request's shape: roles, and for each message its first line and its tags, no prose. */
function shape(messages: Array<{ role: string; content: unknown }>) {
  return messages.map((m) => {
    const text = String(m.content);
    return {
      role: m.role,
      tags: [...new Set(text.match(/<\/?[a-z_]+>/g) ?? [])],
      lines: text.split("\n").length,
    };
  });
}

describe("swe-agent request", () => {
  it("is a one-line system message and the task in the instance template; no tools, SWE-agent's sampling", () => {
    const opened = sweAgentHarness.open(ctx);
    const request = chatView(
      opened.render({
        history: [{ type: "user_message", turnId: "t1", content: [{ type: "text", text: "Fix the bug." }] }],
        tools: opened.tools,
        ctx,
      }),
    );
    expect(request.tools).toEqual([]);
    expect(request.knobs).toEqual({ temperature: 0, top_p: 1 });
    expect(shape(request.messages)).toEqual([
      { role: "system", tags: [], lines: 1 },
      {
        role: "user",
        tags: ["<uploaded_files>", "</uploaded_files>", "<pr_description>", "</pr_description>"],
        // The original template renders to 19 lines around a one-line task.
        lines: 19,
      },
    ]);
    const user = request.messages[1]!.content as string;
    expect(user).toBe(instancePrompt("Fix the bug.", "/work/project"));
    expect(user.startsWith("<uploaded_files>\n/work/project\n</uploaded_files>\n")).toBe(true);
    expect(user).toContain("\n\n<pr_description>\nFix the bug.\n</pr_description>\n\n");
    // The working directory appears where the template names it: the tag, the intro, the rule.
    expect(user.split("/work/project").length - 1).toBe(3);
    // Five numbered steps, as the default template has.
    expect(user.match(/^\d\. /gm)).toEqual(["1. ", "2. ", "3. ", "4. ", "5. "]);
  });

  it("shows a step's result as OBSERVATION, an empty one as the no-output line, and drops corrected retries", () => {
    const call = (callId: string, step: number, command: string, harness = "swe-agent"): HistoryEvent[] => [
      {
        type: "tool_call",
        turnId: "t1",
        step,
        callId,
        name: harness === "swe-agent" ? "bash" : "exec_command",
        harness,
        capability: "exec",
        arguments: JSON.stringify(harness === "swe-agent" ? { command } : { cmd: command }),
        title: command,
        kind: "execute",
        locations: [],
        display: [],
      },
    ];
    const result = (callId: string, output: string): HistoryEvent => ({
      type: "tool_result",
      turnId: "t1",
      callId,
      status: "completed",
      output,
      display: [],
    });
    const reply = (step: number, text: string): HistoryEvent => ({
      type: "assistant_message",
      turnId: "t1",
      step,
      text,
      reasoning: "",
    });
    const history: HistoryEvent[] = [
      { type: "user_message", turnId: "t1", content: [{ type: "text", text: "task" }] },
      ...call("c1", 1, "ls", "codex"),
      result("c1", "a.txt\n"),
      reply(2, "no block"),
      { type: "format_error", turnId: "t1", step: 2, text: FORMAT_ERROR },
      reply(3, "DISCUSSION\nLook.\n\n```\ncat a.txt\n```"),
      ...call("s1", 3, "cat a.txt"),
      result("s1", formatObservation("")),
      reply(4, "still no block"),
      { type: "format_error", turnId: "t1", step: 4, text: FORMAT_ERROR },
    ];
    const { messages } = firstRequest(sweAgentHarness, ctx, history);
    expect(messages.slice(1)).toEqual([
      { role: "user", content: instancePrompt("task", "/work/project") },
      { role: "assistant", content: "```\nls\n```" },
      { role: "user", content: "OBSERVATION:\na.txt\n" },
      // The corrected reply of step 2 and its correction are gone; the pending one stays.
      { role: "assistant", content: "DISCUSSION\nLook.\n\n```\ncat a.txt\n```" },
      { role: "user", content: NO_OUTPUT },
      { role: "assistant", content: "still no block" },
      { role: "user", content: FORMAT_ERROR },
    ]);
  });
});

describe("swe-agent thought_action parser", () => {
  it("takes the last top-level code block, whatever its tag", () => {
    expect(parse("DISCUSSION\nList files.\n\n```\nls -l\n```")).toEqual(bash("ls -l"));
    expect(parse("```bash\nnode test.mjs\n```")).toEqual(bash("node test.mjs"));
    expect(parse("First\n```\npwd\n```\nthen\n```\nls\n```\n")).toEqual(bash("ls"));
    // A block nested in another: the outer one is the action.
    expect(parse("```\ncat <<EOF\n```python\nx\n```\nEOF\n```")).toEqual(
      bash("cat <<EOF\n```python\nx\n```\nEOF"),
    );
  });

  it("answers a reply without a block with SWE-agent's correction, word for word", () => {
    expect(parse("I will now run the tests.")).toEqual({ calls: [], formatError: FORMAT_ERROR });
    expect(parse("inline ``` fence ``` only")).toEqual({ calls: [], formatError: FORMAT_ERROR });
    expect(FORMAT_ERROR.split("\n")).toEqual([
      "Your output was not formatted correctly. You must always include one discussion and one command as part of your response. Make sure you do not have multiple discussion/command tags.",
      "Please make sure your output precisely matches the following format:",
      "DISCUSSION",
      "Discuss here with yourself about what your planning and what you're going to do in this step.",
      "",
      "```",
      "command(s) that you're going to run",
      "```",
    ]);
  });

  it("refuses blocked actions the way its filter compares them, and ends on exit or a forced submit", () => {
    expect(parse("```\nvim\n```")).toEqual({ calls: [], formatError: blockedText("vim\n") });
    expect(blockedText("vim\n")).toBe("Operation 'vim\n' is not supported by this environment.");
    expect(isBlocked("python")).toBe(true);
    expect(isBlocked("tail")).toBe(true);
    expect(isBlocked("vim notes.txt")).toBe(false);
    expect(isBlocked("python test.py")).toBe(false);
    expect(isBlocked("radare2 bin")).toBe(true);
    expect(isBlocked("radare2 -q -c 'pdf' bin")).toBe(false);
    expect(parse("```\nexit\n```")).toEqual({ calls: [] });
    expect(parse("```\nsubmit -f\n```")).toEqual({ calls: [] });
  });
});

describe("swe-agent submit", () => {
  const submitCall: HistoryEvent = {
    type: "tool_call",
    turnId: "t1",
    step: 3,
    callId: "s1",
    name: "submit",
    harness: "swe-agent",
    capability: "other",
    arguments: "{}",
    title: "submit",
    kind: "read",
    locations: [],
    display: [],
  };
  const prompt: HistoryEvent = {
    type: "user_message",
    turnId: "t2",
    content: [{ type: "text", text: "more" }],
  };
  const parseWith = (text: string, history: HistoryEvent[]) =>
    sweAgentHarness.parse!(text, { step: 1, newId: () => "x", history });

  it("shows the review round on the first submit of a task, and ends on the second", () => {
    const submit = "Done.\n```\nsubmit\n```";
    expect(parseWith(submit, [])).toEqual({ calls: [{ id: "x", name: "submit", arguments: "{}" }] });
    expect(parseWith(submit, [submitCall])).toEqual({ calls: [] });
    // A new prompt is a new task: its first submit is reviewed again.
    expect(parseWith(submit, [submitCall, prompt])).toMatchObject({ calls: [{ name: "submit" }] });
  });

  needs("git").it("reviews every change, new files included, without staging anything", async () => {
    const cwd = tempDir("oi-swe-git-");
    const git = (...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" });
    git("init", "-q");
    writeFileSync(path.join(cwd, "a.txt"), "one\n");
    git("add", "a.txt");
    git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init");
    writeFileSync(path.join(cwd, "a.txt"), "two\n");
    writeFileSync(path.join(cwd, "new.txt"), "fresh\n");
    const { output } = await submitTool().execute({}, toolContext(cwd));
    expect(output.startsWith("OBSERVATION:\n")).toBe(true);
    expect(output).toMatch(/\n4\. Run the submit command again to confirm\.\n/);
    const diff = output.slice(output.indexOf("<diff>\n") + 7, output.indexOf("\n</diff>"));
    expect(diff).toContain("--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two");
    expect(diff).toContain("+++ b/new.txt\n@@ -0,0 +1 @@\n+fresh");
    expect(git("diff", "--cached", "--name-only")).toBe("");
    expect(
      reviewText("D")
        .split("\n")
        .filter((l) => /^\d\. /.test(l)),
    ).toHaveLength(4);
    expect(reviewText("D").endsWith("\n<diff>\nD\n</diff>\n")).toBe(true);
  });
});

describe("swe-agent observations", () => {
  it("has the step templates and the 30 s timeout text", () => {
    expect(formatObservation("hi\n")).toBe("OBSERVATION:\nhi\n");
    expect(formatObservation(" \n")).toBe("Your command ran successfully and did not produce any output.");
    const long = formatObservation("é".repeat(100_005));
    expect(long.startsWith(`Observation: ${"é".repeat(100_000)}<response clipped><NOTE>`)).toBe(true);
    expect(long).toContain("Observations should not exceeded 100000 characters. 5 characters were elided.");
    expect(formatTimeout("sleep 99")).toBe(
      "The command 'sleep 99' was cancelled because it took more than 30 seconds. Please try a different command that completes more quickly.",
    );
  });

  it("runs a command with stderr merged and no exit code", async () => {
    const cwd = tempDir("oi-swe-");
    const run = (command: string) => bashTool().execute({ command }, toolContext(cwd));
    expect(await run("echo out; echo err >&2")).toMatchObject({
      output: "OBSERVATION:\nout\nerr\n",
      isError: false,
    });
    expect(await run("true")).toMatchObject({ output: NO_OUTPUT, isError: false });
    expect(await run("printf nope; exit 3")).toMatchObject({ output: "OBSERVATION:\nnope", isError: true });
  });
});
