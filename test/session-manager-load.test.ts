import { afterEach, expect, it } from "vitest";
import { replayOutputs } from "../src/sessions/replay.js";
import type { SessionOutput } from "../src/sessions/types.js";
import type { HistoryEvent } from "../src/store/events.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess, tempDir } from "./support/in-process.js";

let model: FakeModel;
let oi: InProcessAgent;

afterEach(async () => {
  await oi?.close();
  await model?.close();
});

function turn(n: number): HistoryEvent[] {
  const turnId = `t${n}`;
  return [
    { type: "turn_started", turnId, pid: 1 },
    { type: "user_message", turnId, content: [{ type: "text", text: `question ${n}` }] },
    { type: "assistant_message", turnId, step: 1, text: `answer ${n}`, reasoning: "" },
    { type: "turn_ended", turnId, stopReason: "end_turn" },
  ];
}

it("replays a long stored session in parts while reading it, letting other work run in between", async () => {
  model = await startFakeModel();
  oi = await startInProcess({ model });
  const { store, manager } = oi.runtime;
  const cwd = tempDir("oi-ws-");
  store.createSession({
    id: "long",
    cwd,
    additionalDirectories: [],
    mcpServers: [],
    mode: "auto",
    model: null,
  });
  const history = Array.from({ length: 300 }, (_, n) => turn(n)).flat();
  store.append("long", history);

  const parts: SessionOutput[][] = [];
  let otherWorkRan = 0;
  const session = await manager.load("long", {
    cwd,
    show: async (outputs) => {
      parts.push(outputs);
      // Something else waiting for the event loop, such as another session's request.
      setImmediate(() => otherWorkRan++);
    },
  });

  expect(parts.length).toBeGreaterThan(3);
  // Between two parts, what was waiting got its turn.
  expect(otherWorkRan).toBeGreaterThanOrEqual(parts.length - 1);
  // Whole turns per part, and all of them together are exactly the one-pass replay.
  for (const part of parts) expect(part[0]).toMatchObject({ type: "event", event: { type: "turn_started" } });
  expect(parts.flat()).toEqual(replayOutputs(session.committed.history));
  expect(parts.flat()).toHaveLength(history.length);
  // The session is open with the whole history: loading it again replays it from memory, at once.
  const again: SessionOutput[][] = [];
  expect(await manager.load("long", { cwd, show: async (outputs) => void again.push(outputs) })).toBe(
    session,
  );
  expect(again).toEqual([parts.flat()]);
});
