import { describe, expect, it } from "vitest";
import { replayOutputs, turnGroups } from "../src/sessions/replay.js";
import type { HistoryEvent } from "../src/store/events.js";

const started = (turnId: string): HistoryEvent => ({ type: "turn_started", turnId, pid: 1 });
const ended = (turnId: string): HistoryEvent => ({ type: "turn_ended", turnId, stopReason: "end_turn" });
const call = (turnId: string, callId: string): HistoryEvent => ({
  type: "tool_call",
  turnId,
  step: 1,
  callId,
  name: "shell_command",
  harness: "codex",
  capability: "exec",
  arguments: "{}",
  title: callId,
  kind: "execute",
  locations: [],
  display: [],
});
const result = (turnId: string, callId: string, output = `${callId} done`): HistoryEvent => ({
  type: "tool_result",
  turnId,
  callId,
  status: "completed",
  output,
  display: [],
});

/** Each output as a short label: `finished a: a done`, `tool_call a`, `interrupted [a]`. */
function labels(history: HistoryEvent[], running?: string): string[] {
  return replayOutputs(history, running).map((o) => {
    if (o.type === "finished_call") return `finished ${o.call.callId}: ${o.result.output}`;
    if (o.type === "interrupted") return `interrupted [${o.openCallIds.join(",")}]`;
    if (o.type !== "event") return o.type;
    const id = "callId" in o.event ? ` ${o.event.callId}` : "";
    return `${o.event.type}${id}`;
  });
}

describe("replayOutputs", () => {
  it("shows each call with its result once, at the call's place, parallel calls included", () => {
    const history = [
      started("t"),
      call("t", "a"),
      call("t", "b"),
      result("t", "b"),
      result("t", "a"),
      ended("t"),
    ];
    expect(labels(history)).toEqual([
      "turn_started",
      "finished a: a done",
      "finished b: b done",
      "turn_ended",
    ]);
  });

  it("pairs a reused id with the result of its own turn; a cut call stays open and failed", () => {
    const history = [
      started("t1"),
      call("t1", "c1"),
      started("t2"),
      call("t2", "c1"),
      result("t2", "c1", "second"),
      ended("t2"),
    ];
    expect(labels(history)).toEqual([
      "turn_started",
      "tool_call c1",
      "interrupted [c1]",
      "turn_started",
      "finished c1: second",
      "turn_ended",
    ]);
  });

  it("leaves the running turn's unfinished call pending, and a result without its call as it is", () => {
    const history = [started("t1"), result("t1", "orphan"), call("t1", "x")];
    expect(labels(history, "t1")).toEqual(["turn_started", "tool_result orphan", "tool_call x"]);
  });
});

describe("turnGroups", () => {
  // Everything the pairing and the interruption marker depend on, in one history: events
  // before the first turn, a turn cut by a crash, an id reused across turns, an orphan result,
  // parallel calls, and events between turns.
  const history: HistoryEvent[] = [
    { type: "mode_changed", mode: "auto" },
    started("t1"),
    call("t1", "c1"),
    started("t2"),
    call("t2", "c1"),
    result("t2", "c1", "second"),
    ended("t2"),
    { type: "model_changed", model: "m2" },
    started("t3"),
    result("t3", "orphan"),
    call("t3", "a"),
    call("t3", "b"),
    result("t3", "b"),
    result("t3", "a"),
    ended("t3"),
    started("t4"),
    call("t4", "open"),
  ];

  it("replays group by group exactly as in one pass, for every group size", () => {
    const whole = replayOutputs(history);
    for (let size = 1; size <= history.length + 1; size++) {
      const groups = [...turnGroups(history, size)];
      expect(groups.flat()).toEqual(history);
      // Every group but the first starts a turn.
      for (const group of groups.slice(1)) expect(group[0]?.type).toBe("turn_started");
      expect(groups.flatMap((group) => replayOutputs(group))).toEqual(whole);
    }
    expect([...turnGroups(history, 1)]).toHaveLength(5);
    expect([...turnGroups(history, 100)]).toHaveLength(1);
  });
});
