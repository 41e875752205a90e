import { describe, expect, it } from "vitest";
import { renderChatMessages } from "../src/harnesses/shared/chat-messages.js";
import { BackgroundNotices } from "../src/sessions/background-notices.js";
import type { HistoryEvent, HistoryEventOf } from "../src/store/events.js";
import { BackgroundProcesses } from "../src/tools/exec/background-processes.js";
import { createLocalExec } from "../src/tools/exec/run-command.js";

// Where the end of a background command enters the history, and where renderers put it.

function table(notices: () => BackgroundNotices) {
  return new BackgroundProcesses({ onEnd: (p) => notices().ended(p) });
}

const start = (background: BackgroundProcesses, command: string) =>
  background.start({
    exec: createLocalExec(),
    command,
    cwd: "/",
    signal: new AbortController().signal,
    notify: true,
    owner: "kimi-code",
    description: command,
  });

describe("BackgroundNotices", () => {
  it("records an end at once while no turn runs, and during a turn only when flushed, less silenced ones", async () => {
    const committed: HistoryEvent[] = [];
    let busy = false;
    const notices = new BackgroundNotices({ commit: (e) => committed.push(...e), busy: () => busy });
    const background = table(() => notices);
    const idle = start(background, "echo idle");
    await idle.ended();
    expect(committed).toMatchObject([
      {
        type: "background_ended",
        id: idle.id,
        status: "completed",
        exitCode: 0,
        outputTail: "idle\n",
        outputBytes: 5,
      },
    ]);

    busy = true;
    const told = start(background, "exit 3");
    const collected = start(background, "true");
    await Promise.all([told.ended(), collected.ended()]);
    expect(committed).toHaveLength(1);
    collected.silence();
    notices.flush();
    expect(committed.slice(1)).toMatchObject([
      { type: "background_ended", id: told.id, status: "failed", exitCode: 3 },
    ]);
    notices.flush();
    expect(committed).toHaveLength(2);
  });

  it("reports nothing for what killAll ends", async () => {
    const committed: HistoryEvent[] = [];
    const notices = new BackgroundNotices({ commit: (e) => committed.push(...e), busy: () => false });
    const background = table(() => notices);
    start(background, "sleep 30");
    await background.killAll();
    expect(committed).toEqual([]);
  });
});

describe("renderChatMessages with background ends", () => {
  const ended: HistoryEventOf<"background_ended"> = {
    type: "background_ended",
    id: "t1",
    harness: "kimi-code",
    command: "x",
    cwd: "/",
    status: "completed",
    exitCode: 0,
    outputBytes: 0,
    outputTail: "",
    durationMs: 1,
  };
  // A turn whose end arrived after the first call's result, then the next prompt.
  const history: HistoryEvent[] = [
    { type: "user_message", turnId: "a", content: [{ type: "text", text: "go" }] },
    {
      type: "tool_call",
      turnId: "a",
      step: 1,
      callId: "c1",
      name: "Bash",
      harness: "kimi-code",
      capability: "exec",
      arguments: "{}",
      title: "x",
      kind: "execute",
      locations: [],
      display: [],
    },
    { type: "tool_result", turnId: "a", callId: "c1", status: "completed", output: "ok", display: [] },
    ended,
    { type: "assistant_message", turnId: "a", step: 2, text: "done", reasoning: "" },
    { type: "user_message", turnId: "b", content: [{ type: "text", text: "next" }] },
  ];
  const text = (m: { content: unknown }) => JSON.stringify(m.content);

  it("puts it where it arrived, or holds it for the next user message", () => {
    const place = renderChatMessages(history, {
      harness: "kimi-code",
      joinUsers: false,
      backgroundEnded: { text: (e) => `ended ${e.id}`, at: "place" },
    });
    expect(place.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user", "assistant", "user"]);
    expect(text(place[3]!)).toContain("ended t1");
    const next = renderChatMessages(history, {
      harness: "kimi-code",
      backgroundEnded: { text: (e) => `ended ${e.id}`, at: "next-user" },
    });
    expect(next.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "user"]);
    expect(text(next[4]!)).toContain("ended t1\\n\\nnext");
    // Without the option (Codex, Gemini CLI) nothing is told.
    expect(renderChatMessages(history, { harness: "codex" })).toHaveLength(5);
  });
});
