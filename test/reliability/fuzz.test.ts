import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { tempDir } from "../support/in-process.js";
import { writeFigures } from "./support/load-figures.js";
import { closedPort } from "./support/protocol-closed-port.js";
import { INIT_PARAMS, idKey, spawnRawDaemon } from "./support/protocol-daemon.js";
import {
  expectedAnswer,
  type FuzzContext,
  fuzzLine,
  type Json,
  seededRng,
} from "./support/protocol-fuzz-lines.js";

/** `FUZZ_LINES` sets the count (the soak run uses more); `FUZZ_SEED` replays a run. */
const LINES = Number(process.env.FUZZ_LINES ?? 100_000);
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const BATCH = 500;

// About 0.2 ms a line here; the limits leave room for a loaded machine and the soak's million.
const TIMEOUT_MS = Math.max(240_000, LINES * 3);

it(`survives ${LINES} random and mutated lines on one connection`, { timeout: TIMEOUT_MS }, async () => {
  process.stderr.write(`fuzz: seed ${SEED} (replay with FUZZ_SEED=${SEED}), ${LINES} lines\n`);
  const home = tempDir("oi-fuzz-home-");
  const cwd = tempDir("oi-fuzz-ws-");
  mkdirSync(path.join(cwd, ".git"), { recursive: true });
  writeFileSync(path.join(cwd, ".git", "HEAD"), "ref: refs/heads/main\n");
  // Prompts reach a real turn and a real HTTP attempt, refused at once: no retries, no waiting.
  writeFileSync(
    path.join(home, "config.toml"),
    'model = "fuzz-model"\n[model_providers.openai]\nrequest_max_retries = 0\n',
  );
  const daemon = spawnRawDaemon({
    home,
    keepMessages: false,
    env: { OPENAI_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1`, OPENAI_API_KEY: "sk-fuzz" },
  });
  try {
    expect((await daemon.request("initialize", INIT_PARAMS)).result).toMatchObject({ protocolVersion: 1 });
    const sessionIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      sessionIds.push((await daemon.request("session/new", { cwd, mcpServers: [] })).result.sessionId);
    }
    const ctx: FuzzContext = { rng: seededRng(SEED), cwd, sessionIds, recentIds: [] };
    const decoder = new TextDecoder();
    // Answers owed per id (as on the wire); duplicates and id null count up.
    const owed = new Map<string, number>();
    const firstLine = new Map<string, number>();
    const baseline = daemon.responseCount();
    const started = performance.now();
    let previous: Uint8Array | undefined;
    let bytes = 0;
    for (let n = 1; n <= LINES; n += BATCH) {
      const parts: Uint8Array[] = [];
      for (let i = n; i < Math.min(n + BATCH, LINES + 1); i++) {
        const line = fuzzLine(ctx, i, previous);
        previous = line;
        const answer = expectedAnswer(line, decoder);
        if (answer.answered) {
          const key = idKey(answer.id);
          owed.set(key, (owed.get(key) ?? 0) + 1);
          if (!firstLine.has(key)) firstLine.set(key, i);
          if (answer.method) {
            daemon.note(answer.id, answer.method);
            ctx.recentIds = [...ctx.recentIds.slice(-7), answer.id as Json];
          }
        }
        parts.push(line, NEWLINE);
        bytes += line.length + 1;
      }
      await daemon.write(Buffer.concat(parts));
    }
    const written = performance.now();

    // Zero hangs: every id is answered exactly as often as it was asked.
    const total = [...owed.values()].reduce((a, b) => a + b, 0) + baseline;
    await daemon
      .until(
        () => daemon.responseCount() >= total || daemon.child.exitCode !== null,
        TIMEOUT_MS / 2,
        "every answer",
      )
      .catch(() => undefined);
    const answered = performance.now();
    expect(daemon.child.exitCode, daemon.stderr().slice(-3000)).toBeNull();
    const count = (key: string) => daemon.answerCounts.get(key) ?? 0;
    expect(
      [...owed]
        .filter(([key, owes]) => count(key) !== owes)
        .slice(0, 10)
        .map(
          ([key, owes]) =>
            `id ${key.slice(0, 80)} (line ${firstLine.get(key)}): ${count(key)} answers, owed ${owes}`,
        ),
    ).toEqual([]);

    // Alive and well: a fresh initialize and a session list are answered.
    expect((await daemon.request("initialize", INIT_PARAMS)).result).toMatchObject({ protocolVersion: 1 });
    const list = await daemon.request("session/list", {});
    expect(list.result.sessions.length).toBeGreaterThanOrEqual(3);
    const extra = [...daemon.answerCounts.keys()].filter((key) => !owed.has(key) && !key.startsWith('"req-'));
    expect(extra.slice(0, 10)).toEqual([]);
    expect(daemon.violations.slice(0, 5)).toEqual([]);
    expect(daemon.stderr()).not.toMatch(/unhandled rejection|uncaught|connection failed/i);

    const peakRss = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${daemon.child.pid}/status`, "utf8"))?.[1];
    daemon.child.stdin.end();
    expect(await daemon.exited).toEqual({ code: 0, signal: null });
    const seconds = (answered - started) / 1000;
    writeFigures("fuzz", {
      seed: SEED,
      lines: LINES,
      megabytes: Math.round(bytes / 1e5) / 10,
      answers: daemon.responseCount(),
      writeSeconds: Math.round((written - started) / 100) / 10,
      seconds: Math.round(seconds * 10) / 10,
      linesPerSecond: Math.round(LINES / seconds),
      daemonPeakRssMb: Math.round(Number(peakRss) / 1024),
      crashes: 0,
      unanswered: 0,
      schemaViolations: 0,
    });
  } finally {
    if (daemon.child.exitCode === null) daemon.child.kill("SIGKILL");
    await daemon.exited;
    rmSync(home, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  }
});

const NEWLINE = new Uint8Array([10]);
