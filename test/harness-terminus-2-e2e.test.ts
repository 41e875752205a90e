import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { methods } from "@agentclientprotocol/sdk/unstable";
import { afterEach, expect } from "vitest";
import { parseErrorText } from "../src/harnesses/terminus-2/observations.js";
import { initialPrompt, initialScreen } from "../src/harnesses/terminus-2/terminus-2-harness.js";
import { BUGGY_CALC as CALC, writeCalcProject } from "./support/calc-project.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess, tempDir, until } from "./support/in-process.js";
import { needs, onPath } from "./support/requires.js";

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

const reply = (commands: Array<[string, number]>, extra: { task_complete?: boolean } = {}) =>
  JSON.stringify(
    {
      analysis: "Looking at the terminal.",
      plan: "Run the next commands.",
      commands: commands.map(([keystrokes, duration]) => ({ keystrokes, duration })),
      ...extra,
    },
    null,
    2,
  );

/** Live processes whose command line contains `needle`, with every descendant of theirs. */
function processTree(needle: string): Map<number, string> {
  const all = readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, "utf8");
        const cmdline = readFileSync(`/proc/${d}/cmdline`, "utf8").split("\0").join(" ");
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        return { pid: Number(d), ppid, cmdline };
      } catch {
        return undefined;
      }
    })
    .filter((p) => p !== undefined);
  const tree = new Map(all.filter((p) => p.cmdline.includes(needle)).map((p) => [p.pid, p.cmdline]));
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (!tree.has(p.pid) && tree.has(p.ppid)) {
        tree.set(p.pid, p.cmdline);
        grew = true;
      }
    }
  }
  return tree;
}

needs("tmux").describe("terminus-2 end to end", () => {
  needs("tmux").it(
    "fixes the task with JSON keystrokes in one persistent terminal, recovers from a malformed reply, confirms completion twice",
    async () => {
      model = await startFakeModel();
      oi = await startInProcess({ model, configToml: 'harness = "terminus-2"\n' });
      const { sessionId, cwd } = await oi.newSession();
      writeCalcProject(cwd);

      const look = reply([
        ["MARK=persisted\n", 0.1],
        ["cat calc.mjs\n", 0.2],
      ]);
      const fix = reply([["sed -i 's/a - b/a + b/' calc.mjs\n", 0.2]]);
      const malformed = "I will run the tests now.";
      const test = `Running the tests.\n${reply([["node test.mjs; echo $MARK\n", 1]])}`;
      const done = reply([], { task_complete: true });
      model.reply(
        { text: look },
        { text: fix },
        { text: malformed },
        { text: test },
        { text: done },
        { text: done },
      );

      expect(await oi.prompt(sessionId, "Fix the add function.")).toBe("end_turn");
      expect(readFileSync(path.join(cwd, "calc.mjs"), "utf8")).toBe(CALC.replace("a - b", "a + b"));
      expect(model.requests).toHaveLength(6);
      for (const request of model.requests) {
        expect(request.body.tools).toBeUndefined();
        expect(request.body.temperature).toBe(0.7);
      }

      // No system message: the protocol, the task and the screen are the first user message.
      const first = messagesOf(0);
      expect(first).toEqual([
        { role: "user", content: initialPrompt("Fix the add function.", initialScreen(cwd)) },
      ]);
      const afterLook = messagesOf(1);
      expect(afterLook.slice(1, 2)).toEqual([{ role: "assistant", content: look }]);
      const screen1 = afterLook[2]!.content;
      expect(screen1).toMatch(/^New Terminal Output:\n/);
      expect(screen1).toContain("MARK=persisted\n");
      expect(screen1).toContain("cat calc.mjs\nexport function add(a, b) {\n  return a - b;\n}\n");

      // The malformed reply gets Terminus 2's parsing-error prompt.
      expect(messagesOf(3).slice(-2)).toEqual([
        { role: "assistant", content: malformed },
        {
          role: "user",
          content: parseErrorText("No valid JSON found in response", "- No valid JSON object found"),
        },
      ]);
      expect(messagesOf(3).at(-1)!.content).toBe(
        "Previous response had parsing errors:\nERROR: No valid JSON found in response\nWARNINGS: - No valid JSON object found\n\nPlease fix these issues and provide a proper JSON response.",
      );

      // Text before the JSON is run with a warning; the shell kept the variable from the first batch.
      const afterTest = messagesOf(4).at(-1)!.content;
      expect(afterTest).toMatch(
        /^Previous response had warnings:\nWARNINGS: - Extra text detected before JSON object\n\nNew Terminal Output:\n/,
      );
      expect(afterTest).toContain("TESTS PASSED\npersisted\n");

      // The first task_complete asks to confirm, with the terminal's state; the second ends the turn.
      const confirm = messagesOf(5).at(-1)!.content;
      // Nothing new since the last batch: the original's diff still starts at the old buffer's last line.
      expect(confirm).toMatch(/^Current terminal state:\nNew Terminal Output:\n\n\S+@\S+:\S+[#$]\n/);
      expect(confirm).toContain(
        'Are you sure you want to mark the task as complete? This will trigger your solution to be graded and you won\'t be able to make any further corrections. If so, include "task_complete": true in your JSON response again.',
      );
      expect(oi.editor.permissions.map((p) => p.toolCall.title)).toEqual([
        "MARK=persisted; cat calc.mjs",
        "sed -i 's/a - b/a + b/' calc.mjs",
        "node test.mjs; echo $MARK",
      ]);
      model.assertDone();

      // The terminal and its tmux server live in the session's tree, and die when the session closes.
      const tree = processTree("oi-terminal-");
      expect([...tree.values()].some((c) => c.includes("tmux -D -S"))).toBe(true);
      expect([...tree.values()].some((c) => c.includes("bash --noprofile --norc -i"))).toBe(true);
      // The pane's shell is started as any command: inside the sandbox where there is one.
      if (onPath("bwrap")) expect([...tree.values()].some((c) => c.includes("bwrap"))).toBe(true);
      await oi.agent.request(methods.agent.session.close, { sessionId });
      await expect.poll(() => [...tree.keys()].filter((pid) => alive(pid)), { timeout: 10_000 }).toEqual([]);
    },
    60_000,
  );

  needs("tmux").it(
    "a cancel kills the terminal's whole tree; the next batch gets a new terminal",
    async () => {
      model = await startFakeModel();
      oi = await startInProcess({ model, configToml: 'harness = "terminus-2"\nmode = "full-access"\n' });
      const { sessionId } = await oi.newSession();
      const marker = `oi-terminus-cancel-${process.pid}-${Date.now()}`;
      model.reply({ text: reply([[`bash -c 'exec -a ${marker} sleep 60'\n`, 30]]) });
      const turn = oi.prompt(sessionId, "wait for it");
      await until(() => processTree(marker).size > 0, 10_000);
      const tree = processTree("oi-terminal-");
      expect(tree.size).toBeGreaterThan(2);
      await oi.agent.notify(methods.agent.session.cancel, { sessionId });
      expect(await turn).toBe("cancelled");
      await expect.poll(() => [...tree.keys()].filter((pid) => alive(pid)), { timeout: 10_000 }).toEqual([]);
      expect(processTree(marker).size).toBe(0);

      model.reply(
        { text: reply([["echo again\n", 0.2]]) },
        { text: reply([], { task_complete: true }) },
        {
          text: reply([], { task_complete: true }),
        },
      );
      expect(await oi.prompt(sessionId, "go on")).toBe("end_turn");
      expect(messagesOf(2).at(-1)!.content).toMatch(/^New Terminal Output:\n[\s\S]*# echo again\nagain\n/);
    },
    60_000,
  );

  needs("tmux").it(
    "switches in and out with /harness keeping the history, and replays after a restart",
    async () => {
      model = await startFakeModel();
      oi = await startInProcess({ model, configToml: 'mode = "full-access"\n' });
      const { sessionId, cwd } = await oi.newSession();
      writeCalcProject(cwd);

      await oi.prompt(sessionId, "/harness");
      expect(oi.editor.text(sessionId)).toContain(
        "- `terminus-2`: Terminal-Bench's Terminus 2: JSON keystrokes into a persistent tmux terminal; no tool schema; Terminus 2 (terminal-bench) 0.2.18 (pypi:terminal-bench@0.2.18 ",
      );

      // Codex reads the file.
      model.reply(
        { toolCalls: [{ id: "a1", name: "exec_command", arguments: { cmd: "cat calc.mjs" } }] },
        { text: "add subtracts" },
      );
      await oi.prompt(sessionId, "Fix the add function.");

      // Terminus 2 fixes it: Codex's call is written as a Terminus 2 reply, its output follows.
      await oi.prompt(sessionId, "/harness terminus-2");
      const fix = reply([["sed -i 's/a - b/a + b/' calc.mjs && node test.mjs\n", 0.5]]);
      const done = reply([], { task_complete: true });
      model.reply({ text: fix }, { text: done }, { text: done });
      expect(await oi.prompt(sessionId, "go on")).toBe("end_turn");
      const terminus = messagesOf(2);
      expect(terminus.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
      expect(terminus[0]!.content).toBe(initialPrompt("Fix the add function.", initialScreen(cwd)));
      expect(JSON.parse(terminus[1]!.content)).toMatchObject({
        commands: [{ keystrokes: "cat calc.mjs\n" }],
      });
      expect(terminus[2]!.content).toContain("return a - b;");
      expect(terminus[3]).toEqual({ role: "assistant", content: "add subtracts" });
      expect(terminus[4]).toEqual({ role: "user", content: "go on" });
      expect(readFileSync(path.join(cwd, "calc.mjs"), "utf8")).toBe(CALC.replace("a - b", "a + b"));
      expect(messagesOf(3).at(-1)!.content).toContain("TESTS PASSED");

      // Back to Codex: the terminal call is shown as text with its output.
      await oi.prompt(sessionId, "/harness codex");
      model.reply({ text: "fixed and tested" });
      expect(await oi.prompt(sessionId, "status?")).toBe("end_turn");
      const codex = JSON.stringify(messagesOf(5));
      expect(codex).toContain("[called terminal with");
      expect(codex).toContain("TESTS PASSED");

      // A fresh daemon replays the session, the terminal calls included.
      const home = oi.home;
      await oi.close();
      oi = await startInProcess({ model, home });
      await oi.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
      const replayed = oi.editor.updates(sessionId).filter((u) => u.sessionUpdate === "tool_call");
      expect(replayed.map((u) => (u as { title?: string }).title)).toEqual([
        "cat calc.mjs",
        "sed -i 's/a - b/a + b/' calc.mjs && node test.mjs",
        "(wait)",
      ]);
      expect(oi.editor.text(sessionId)).toContain("fixed and tested");

      // And Terminus 2 goes on after the restart in a new terminal, its first prompt unchanged.
      await oi.prompt(sessionId, "/harness terminus-2");
      model.reply({ text: reply([["cat calc.mjs\n", 0.2]]) }, { text: done }, { text: done });
      expect(await oi.prompt(sessionId, "check")).toBe("end_turn");
      expect(messagesOf(6)[0]!.content).toBe(initialPrompt("Fix the add function.", initialScreen(cwd)));
      expect(messagesOf(7).at(-1)!.content).toContain("return a + b;");
      model.assertDone();
    },
    60_000,
  );

  needs("tmux", "bwrap").it(
    "confines the pane's shell as any command: the workspace is writable, the rest is not",
    async () => {
      model = await startFakeModel();
      oi = await startInProcess({ model, configToml: 'harness = "terminus-2"\n' });
      const { sessionId, cwd } = await oi.newSession();
      const outside = tempDir("oi-outside-");
      const done = reply([], { task_complete: true });
      model.reply(
        {
          text: reply([
            [`touch inside.txt; touch ${outside}/escaped.txt; echo status=$?\n`, 0.5],
            ["echo key=$OPENAI_API_KEY tmp=$TMPDIR\n", 0.3],
          ]),
        },
        { text: done },
        { text: done },
      );
      expect(await oi.prompt(sessionId, "write two files")).toBe("end_turn");
      expect(existsSync(path.join(cwd, "inside.txt"))).toBe(true);
      expect(existsSync(path.join(outside, "escaped.txt"))).toBe(false);
      expect(messagesOf(1).at(-1)!.content).toContain("status=1");
      // The environment of a sandboxed command: the daemon's secrets filtered out, /tmp its own.
      expect(messagesOf(1).at(-1)!.content).toContain("\nkey= tmp=/tmp\n");
    },
    60_000,
  );
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
