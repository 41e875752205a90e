/**
 * One daemon, many sessions at once: every session runs a ten-tool-call task (file writes and
 * sandboxed shell commands in its own workspace) against the routed fake model, all prompts
 * in flight together. Users notice lost or mixed-up work and a daemon that stalls or bloats,
 * so the test checks each workspace's files, that each session's updates carry only its own
 * marker, the daemon's peak RSS (sampled from /proc) and its event-loop delay p99 (measured
 * inside the daemon, `INTERPRETER_DIAGNOSTICS=1`, logged at exit).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { methods } from "@agentclientprotocol/sdk/unstable";
import { afterAll, beforeAll, describe, expect } from "vitest";
import type { DiagnosticsFigures } from "../../src/cli/diagnostics.js";
import { needs } from "../support/requires.js";
import { type Daemon, durable, startDaemon } from "./support/crash-daemon.js";
import { writeFigures } from "./support/load-figures.js";
import { type RoutedModel, startRoutedModel } from "./support/load-routed-model.js";
import { LOAD_CALLS, loadWorkspace, promptFor, reliabilityScript } from "./support/load-tasks.js";

const SESSIONS = Number(process.env.LOAD_SESSIONS ?? 50);
/**
 * The target for the event-loop delay p99. Reported with the figures, never asserted: tests do
 * not assert timings, and a CI run shares two cores with every other test file.
 */
const P99_TARGET_MS = 100;
const MAX_RSS_MB = 400;

let model: RoutedModel;
let root: string;
let daemon: Daemon | undefined;

beforeAll(async () => {
  model = await startRoutedModel({ script: reliabilityScript, delayMs: 1, jitterMs: 40 });
  root = mkdtempSync(path.join(os.tmpdir(), "oi-load-"));
});
afterAll(async () => {
  if (daemon?.agent.child.exitCode === null) daemon.agent.child.kill("SIGKILL");
  await model?.close();
  rmSync(root, { recursive: true, force: true });
});

function rssMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : 0;
  } catch {
    return 0;
  }
}

function loggedDiagnostics(home: string): DiagnosticsFigures | undefined {
  const lines = readFileSync(path.join(home, "log", "openinterpreter.log"), "utf8")
    .trim()
    .split("\n");
  for (const line of lines.reverse()) {
    const entry = JSON.parse(line) as { msg?: string; diagnostics?: DiagnosticsFigures };
    if (entry.msg === "diagnostics") return entry.diagnostics;
  }
  return undefined;
}

describe("load", () => {
  needs("bwrap").it(
    `runs ${SESSIONS} sessions of ${LOAD_CALLS} tool calls at once with no cross-talk`,
    {
      timeout: 240_000,
    },
    async () => {
      const home = path.join(root, "home");
      mkdirSync(home);
      writeFileSync(path.join(home, "config.toml"), 'mode = "auto"\n');
      daemon = await startDaemon({ home, modelUrl: model.url, env: { INTERPRETER_DIAGNOSTICS: "1" } });
      const pid = daemon.agent.child.pid!;
      let peakRss = rssMb(pid);
      const sampler = setInterval(() => {
        peakRss = Math.max(peakRss, rssMb(pid));
      }, 25);

      const markers = Array.from({ length: SESSIONS }, (_, i) => `load-s${String(i).padStart(3, "0")}`);
      const sessions = await Promise.all(
        markers.map(async (marker) => {
          const cwd = path.join(root, marker);
          mkdirSync(cwd);
          const { sessionId } = await daemon!.connection.agent.request(methods.agent.session.new, {
            cwd,
            mcpServers: [],
          });
          return { marker, cwd, sessionId };
        }),
      );
      const started = performance.now();
      const answers = await Promise.all(
        sessions.map(({ sessionId, marker }) =>
          daemon!.connection.agent.request(methods.agent.session.prompt, {
            sessionId,
            prompt: [{ type: "text", text: promptFor(marker) }],
          }),
        ),
      );
      const wallMs = performance.now() - started;
      clearInterval(sampler);
      peakRss = Math.max(peakRss, rssMb(pid));
      expect(answers.map((a) => a.stopReason)).toEqual(sessions.map(() => "end_turn"));

      for (const { marker, cwd, sessionId } of sessions) {
        for (const [file, content] of loadWorkspace(marker)) {
          expect(readFileSync(path.join(cwd, file), "utf8"), `${marker}: ${file}`).toBe(content);
        }
        const updates = daemon.updates(sessionId);
        const text = JSON.stringify(updates);
        const foreign = markers.filter((m) => m !== marker && text.includes(m));
        expect(foreign, `${marker} received another session's content`).toEqual([]);
        const calls = durable(updates).flatMap((u) =>
          u.sessionUpdate === "tool_call" ? [u.toolCallId] : [],
        );
        expect(calls).toEqual(Array.from({ length: LOAD_CALLS }, (_, step) => `${marker}-c${step}`));
        const done = updates.filter(
          (u) => u.sessionUpdate === "tool_call_update" && u.status === "completed",
        );
        expect(done.length, marker).toBe(LOAD_CALLS);
      }
      expect(daemon.permissions).toBe(0);

      expect(await daemon.close()).toEqual({ code: 0, signal: null });
      expect(daemon.agent.violations).toEqual([]);
      expect(model.errors).toEqual([]);
      const diagnostics = loggedDiagnostics(home);
      expect(diagnostics, "the daemon logs its figures at exit with INTERPRETER_DIAGNOSTICS=1").toBeDefined();
      const figures = {
        sessions: SESSIONS,
        toolCalls: SESSIONS * LOAD_CALLS,
        modelRequests: [...model.served.values()].reduce((a, b) => a + b, 0),
        wallMs: Math.round(wallMs),
        peakRssMb: Math.round(peakRss * 10) / 10,
        maxRssMb: diagnostics!.maxRssMb,
        eventLoopDelayMs: diagnostics!.eventLoopDelayMs,
        // How busy the machine was (1-minute load average over its CPU count): context for the delay.
        machineLoad: `${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs`,
        p99TargetMs: P99_TARGET_MS,
        p99TargetMet: diagnostics!.eventLoopDelayMs.p99 < P99_TARGET_MS,
      };
      writeFigures("load", figures);
      expect(Math.max(peakRss, diagnostics!.maxRssMb)).toBeLessThan(MAX_RSS_MB);
    },
  );
});
