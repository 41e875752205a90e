/**
 * kill -9 at random moments of a scripted multi-step task, then a new daemon loads the session.
 *
 * "Received ⊆ replayed", precisely: filter both sides to the updates that show stored history
 * (`durable`: live-only updates such as a tool going in_progress or streamed output dropped,
 * each call's result folded into the call as `session/load` sends it). Let `base` be the session's replay verified after the previous kill (empty for a new
 * session) and `live` the durable updates the client received during this run's prompt, up
 * to and including the last line the killed daemon wrote. Then the new replay must equal
 * `base ++ live` on its first |base| + |live| updates, value for value (same text chunks in
 * the same order, same tool call ids, titles, inputs, results, plans, usage), except that a
 * call received pending may replay finished (`asReceived`). What follows may only be events
 * committed but not yet sent when the kill landed, and the interrupted
 * marker. Every committed turn without `turn_ended` is shown as interrupted (exactly one
 * marker per open turn, the last update of the replay when this run's turn is the open one,
 * its unfinished calls failed); a prompt the client saw answered has its `turn_ended` stored.
 */
import { randomInt } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { methods, type SessionUpdate } from "@agentclientprotocol/sdk/unstable";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HistoryEvent } from "../../src/store/events.js";
import { openStore } from "../../src/store/open-store.js";
import { probeSandbox } from "../../src/tools/sandbox/probe-sandbox.js";
import {
  agentText,
  type Daemon,
  delay,
  durable,
  integrityCheck,
  seededRandom,
  startDaemon,
} from "./support/crash-daemon.js";
import { writeFigures } from "./support/load-figures.js";
import { type RoutedModel, startRoutedModel } from "./support/load-routed-model.js";
import { loadWorkspace, promptFor, reliabilityScript } from "./support/load-tasks.js";

const RUNS = Number(process.env.CRASH_RUNS ?? 50);
const SEED = Number(process.env.CRASH_SEED ?? randomInt(2 ** 31));
const INTERRUPTED = /This turn was interrupted/;
/** Longer than bubblewrap takes to set up a sandbox and arm --die-with-parent, even on a busy machine. */
const SANDBOX_STARTUP_MS = 250;

let model: RoutedModel;
let root: string;
let sandboxed = false;
const daemons: Daemon[] = [];

beforeAll(async () => {
  model = await startRoutedModel({ script: reliabilityScript, delayMs: 2 });
  root = mkdtempSync(path.join(os.tmpdir(), "oi-crash-"));
  sandboxed = (await probeSandbox()).available;
});
afterAll(async () => {
  for (const d of daemons) if (d.agent.child.exitCode === null) d.agent.child.kill("SIGKILL");
  await model?.close();
});

function home(name: string): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  // auto: commands run in bubblewrap unasked (and die with the daemon); edits in the workspace are allowed.
  writeFileSync(path.join(dir, "config.toml"), 'mode = "auto"\n');
  return dir;
}

async function daemonAt(dir: string): Promise<Daemon> {
  const daemon = await startDaemon({ home: dir, modelUrl: model.url });
  daemons.push(daemon);
  return daemon;
}

interface Pending {
  sessionId: string;
  cwd: string;
  marker: string;
  base: SessionUpdate[];
  live: SessionUpdate[];
  /** Whether the client got the prompt's response. */
  state: { answered: boolean };
}

function storedHistory(db: string, sessionId: string): HistoryEvent[] {
  const store = openStore({ path: db });
  try {
    return store.events(sessionId).map((e) => e.event);
  } finally {
    store.close();
  }
}

function countEvents(db: string): number {
  const connection = new Database(db, { readonly: true });
  try {
    return connection.prepare("SELECT count(*) FROM events").pluck().get() as number;
  } finally {
    connection.close();
  }
}

/** Turn ids with a `turn_started` and no `turn_ended`. */
function openTurns(history: HistoryEvent[]): string[] {
  const ended = new Set(history.flatMap((e) => (e.type === "turn_ended" ? [e.turnId] : [])));
  return history.flatMap((e) => (e.type === "turn_started" && !ended.has(e.turnId) ? [e.turnId] : []));
}

/**
 * A replayed update as the client could have received it: a call the client saw pending may
 * replay finished, its result committed in the moment between storing and sending. Any other
 * difference is left for the comparison to find.
 */
function asReceived(replayed: SessionUpdate, live: SessionUpdate | undefined): SessionUpdate {
  if (
    replayed.sessionUpdate !== "tool_call" ||
    live?.sessionUpdate !== "tool_call" ||
    live.status !== "pending" ||
    replayed.toolCallId !== live.toolCallId
  ) {
    return replayed;
  }
  return { ...replayed, status: live.status, content: live.content, rawOutput: live.rawOutput };
}

const isMarker = (u: SessionUpdate): boolean =>
  u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" && INTERRUPTED.test(u.content.text);

describe("crash durability", () => {
  it(`keeps every received update across ${RUNS} kill -9s at random moments`, {
    timeout: 60_000 + RUNS * 4_000,
  }, async () => {
    process.stderr.write(`crash durability: seed ${SEED} (repeat with CRASH_SEED=${SEED}), ${RUNS} kills\n`);
    const random = seededRandom(SEED);
    const dir = home("kills");
    const db = path.join(dir, "openinterpreter.db");
    const figures = {
      kills: 0,
      midTurn: 0,
      duringCommand: 0,
      continued: 0,
      updatesVerified: 0,
      eventsInDatabase: 0,
      /** Kills that orphaned a sandbox still starting up (it then ran to its end). */
      startupOrphans: 0,
    };
    const context = (run: number) => `run ${run}, seed ${SEED}`;

    // Run 0 finishes the task: it checks the script works and counts the updates of a whole turn.
    let daemon = await daemonAt(dir);
    const firstCwd = path.join(root, "ws-0");
    mkdirSync(firstCwd);
    const first = await daemon.connection.agent.request(methods.agent.session.new, {
      cwd: firstCwd,
      mcpServers: [],
    });
    const whole = await daemon.connection.agent.request(methods.agent.session.prompt, {
      sessionId: first.sessionId,
      prompt: [{ type: "text", text: promptFor("crash-r0") }],
    });
    expect(whole.stopReason).toBe("end_turn");
    expect(readFileSync(path.join(firstCwd, "notes-crash-r0.md"), "utf8")).toBe("v2 crash-r0\n");
    expect(readFileSync(path.join(firstCwd, "out-crash-r0.txt"), "utf8")).toBe("crash-r0\n");
    const turnUpdates = daemon.updates(first.sessionId).length;
    let pending: Pending = {
      sessionId: first.sessionId,
      cwd: firstCwd,
      marker: "crash-r0",
      base: [],
      live: [],
      state: { answered: true },
    };

    // Usually the next daemon starts while this one works (spawning costs more than a run's
    // task), as a second daemon on the database; every third run the next one starts cold,
    // after the kill, so it also recovers the WAL on open.
    let standby: Promise<Daemon> | undefined;
    for (let run = 1; run <= RUNS + 1; run++) {
      // Kill the daemon of the previous run (run 0's is idle by now).
      const { survivors } = await daemon.kill9({ childCwdPrefix: root });
      // bubblewrap arms --die-with-parent only once its namespaces exist: a kill that lands while
      // a sandbox is still starting orphans it, and it runs to its end (a known limit). Whatever
      // had been running longer than that must have died with the daemon.
      const oldest = Math.max(0, ...survivors.map((s) => s.ageMs ?? 0));
      if (sandboxed && oldest >= SANDBOX_STARTUP_MS) {
        expect(survivors, `${context(run - 1)}: processes outlived the daemon`).toEqual([]);
      }
      if (survivors.length > 0) figures.startupOrphans++;
      expect(daemon.agent.violations, context(run - 1)).toEqual([]);
      pending.live = durable(daemon.updates(pending.sessionId)).slice(pending.base.length);
      figures.kills += run > 1 ? 1 : 0;

      expect(integrityCheck(db), context(run - 1)).toBe("ok");
      const history = storedHistory(db, pending.sessionId);

      daemon = await (standby ?? daemonAt(dir));
      standby = undefined;
      await daemon.connection.agent.request(methods.agent.session.load, {
        sessionId: pending.sessionId,
        cwd: pending.cwd,
        mcpServers: [],
      });
      const replay = durable(daemon.updates(pending.sessionId));
      const known = [...pending.base, ...pending.live];
      expect(replay.slice(0, pending.base.length), `${context(run - 1)}: earlier replay`).toEqual(
        pending.base,
      );
      expect(
        replay.slice(pending.base.length, known.length).map((u, i) => asReceived(u, pending.live[i])),
        `${context(run - 1)}: received updates`,
      ).toEqual(pending.live);
      figures.updatesVerified += pending.live.length;

      const open = openTurns(history);
      expect(replay.filter(isMarker).length, `${context(run - 1)}: interrupted markers`).toBe(open.length);
      const turn = history.find(
        (e) => e.type === "user_message" && JSON.stringify(e.content).includes(`[task:${pending.marker}]`),
      );
      const turnId = turn?.type === "user_message" ? turn.turnId : undefined;
      if (pending.state.answered) expect(turnId && !open.includes(turnId), context(run - 1)).toBe(true);
      if (turnId && open.includes(turnId)) {
        figures.midTurn++;
        const tail = replay.slice(known.length);
        expect(tail.at(-1) && isMarker(tail.at(-1)!), `${context(run - 1)}: marker last`).toBe(true);
        const results = new Set(history.flatMap((e) => (e.type === "tool_result" ? [e.callId] : [])));
        const cut = history.flatMap((e) =>
          e.type === "tool_call" && e.turnId === turnId && !results.has(e.callId) ? [e.callId] : [],
        );
        for (const callId of cut) {
          expect(tail, `${context(run - 1)}: ${callId} shown failed`).toContainEqual(
            expect.objectContaining({
              sessionUpdate: "tool_call_update",
              toolCallId: callId,
              status: "failed",
            }),
          );
        }
        expect(agentText(tail)).toMatch(INTERRUPTED);
      }
      if (run > RUNS) break;

      // This run: continue the loaded session now and then, else start a new one; kill at random.
      const marker = `crash-r${run}`;
      const continued = random() < 0.3;
      let sessionId = pending.sessionId;
      let cwd = pending.cwd;
      if (continued) {
        figures.continued++;
      } else {
        cwd = path.join(root, `ws-${run}`);
        mkdirSync(cwd);
        ({ sessionId } = await daemon.connection.agent.request(methods.agent.session.new, {
          cwd,
          mcpServers: [],
        }));
      }
      const base = continued ? replay : [];
      const already = daemon.updates(sessionId).length;
      // A fifth of the kills wait for the slow command to start (child-process clean-up);
      // the rest land after a random number of updates plus a random few milliseconds.
      const duringCommand = random() < 0.2;
      const threshold = Math.floor(random() * turnUpdates);
      const extraMs = Math.floor(random() * (duringCommand ? 100 : 15));
      const state = { answered: false };
      let fire!: () => void;
      const moment = new Promise<void>((resolve) => {
        fire = resolve;
      });
      daemon.onUpdate = ({ sessionId: id, update }) => {
        if (id !== sessionId) return;
        const slowStarted =
          update.sessionUpdate === "tool_call_update" &&
          update.toolCallId === `${marker}-c4` &&
          update.status === "in_progress";
        if (duringCommand ? slowStarted : daemon.updates(sessionId).length - already >= threshold) fire();
      };
      if (!duringCommand && threshold === 0) fire();
      const prompt = daemon.connection.agent
        .request(methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text: promptFor(marker) }],
        })
        .then(
          () => {
            state.answered = true;
            fire();
          },
          () => undefined,
        );
      if (run % 3 !== 0) standby = daemonAt(dir);
      await moment;
      await delay(extraMs);
      if (duringCommand && !state.answered) figures.duringCommand++;
      // `answered` is read after the kill: a response the dead daemon wrote still counts.
      pending = { sessionId, cwd, marker, base, live: [], state };
      void prompt;
    }

    expect(await daemon.close()).toEqual({ code: 0, signal: null });
    figures.eventsInDatabase = countEvents(db);
    process.stderr.write(
      `crash durability: ${figures.kills} kills (${figures.midTurn} mid-turn, ${figures.duringCommand} during a command, ` +
        `${figures.continued} in continued sessions), ${figures.updatesVerified} received updates found in replays\n`,
    );
    expect(figures.midTurn).toBeGreaterThan(RUNS / 3);
    expect(model.errors).toEqual([]);
    writeFigures("crash", { seed: SEED, runs: RUNS, sandboxed, ...figures });
  });
});

describe("two daemons on one database", () => {
  it("run prompts in different sessions at the same time: both complete, nothing lost, seqs contiguous", {
    timeout: 60_000,
  }, async () => {
    const dir = home("dual");
    const db = path.join(dir, "openinterpreter.db");
    const [a, b] = await Promise.all([daemonAt(dir), daemonAt(dir)]);
    const sides = await Promise.all(
      ([a!, b!] as const).map(async (daemon, index) => {
        const marker = `load-dual${index}`;
        const cwd = path.join(root, `dual-ws-${index}`);
        mkdirSync(cwd);
        const { sessionId } = await daemon.connection.agent.request(methods.agent.session.new, {
          cwd,
          mcpServers: [],
        });
        return { daemon, marker, cwd, sessionId };
      }),
    );
    const answers = await Promise.all(
      sides.map(({ daemon, sessionId, marker }) =>
        daemon.connection.agent.request(methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text: promptFor(marker) }],
        }),
      ),
    );
    expect(answers.map((r) => r.stopReason)).toEqual(["end_turn", "end_turn"]);

    // Each daemon reads the other's session back exactly as the other daemon showed it live.
    for (const [index, side] of sides.entries()) {
      const other = sides[1 - index]!;
      await side.daemon.connection.agent.request(methods.agent.session.load, {
        sessionId: other.sessionId,
        cwd: other.cwd,
        mcpServers: [],
      });
      expect(durable(side.daemon.updates(other.sessionId))).toEqual(
        durable(other.daemon.updates(other.sessionId)),
      );
    }
    for (const side of sides) {
      expect(await side.daemon.close()).toEqual({ code: 0, signal: null });
      expect(side.daemon.agent.violations).toEqual([]);
      for (const [file, content] of loadWorkspace(side.marker)) {
        expect(readFileSync(path.join(side.cwd, file), "utf8"), `${side.marker} ${file}`).toBe(content);
      }
    }

    expect(integrityCheck(db)).toBe("ok");
    const store = openStore({ path: db });
    try {
      for (const side of sides) {
        const events = store.events(side.sessionId);
        expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
        const results = events.flatMap((e) => (e.event.type === "tool_result" ? [e.event] : []));
        expect(results.map((r) => [r.callId, r.status])).toEqual(
          Array.from({ length: 10 }, (_, step) => [`${side.marker}-c${step}`, "completed"]),
        );
        expect(events.at(-1)?.event).toMatchObject({ type: "turn_ended", stopReason: "end_turn" });
        expect(JSON.stringify(events)).not.toContain(sides.find((s) => s !== side)!.marker);
      }
    } finally {
      store.close();
    }
    expect(model.errors).toEqual([]);
  });
});
