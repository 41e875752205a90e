import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../src/store/open-store.js";
import type { Store } from "../src/store/types.js";

// Child processes run our real src/store code: the fixture is bundled to plain ESM with its
// dependencies left as imports, resolved through a node_modules link next to the bundle.
let dir: string;
let writerScript: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "oi-store-proc-"));
  symlinkSync(resolve("node_modules"), join(dir, "node_modules"), "dir");
  writerScript = join(dir, "store-writer.mjs");
  await build({
    entryPoints: [resolve("test/support/store-writer.ts")],
    outfile: writerScript,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    logLevel: "warning",
  });
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Writer {
  child: ChildProcess;
  /** Seqs the child printed, i.e. seqs whose `append` had returned. */
  seqs: number[];
  ready: Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  firstSeq: Promise<void>;
}

function startWriter(args: string[]): Writer {
  const child = spawn(process.execPath, [writerScript, ...args], { stdio: ["pipe", "pipe", "pipe"] });
  const seqs: number[] = [];
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  let onReady!: () => void;
  let onFirst!: () => void;
  const ready = new Promise<void>((r) => {
    onReady = r;
  });
  const firstSeq = new Promise<void>((r) => {
    onFirst = r;
  });
  createInterface({ input: child.stdout! }).on("line", (line) => {
    if (line === "ready") onReady();
    if (line.startsWith("seq ")) {
      seqs.push(...line.slice(4).split(" ").map(Number));
      onFirst();
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((r) =>
    child.on("close", (code, signal) => r({ code, signal, stderr })),
  );
  // A child that dies before it is ready fails the test with its stderr instead of hanging it.
  const failed = exited.then(({ code, signal }) => {
    throw new Error(`writer exited (${code ?? signal}) early:\n${stderr}`);
  });
  failed.catch(() => {});
  return {
    child,
    seqs,
    ready: Promise.race([ready, failed]),
    exited,
    firstSeq: Promise.race([firstSeq, failed]),
  };
}

function session(store: Store, id: string): void {
  store.createSession({ id, cwd: "/work", additionalDirectories: [], mcpServers: [], mode: "auto" });
}

function integrity(path: string): unknown {
  const db = new Database(path, { readonly: true });
  try {
    return db.pragma("integrity_check", { simple: true });
  } finally {
    db.close();
  }
}

/** Seqs of the session's events, after checking each decodes as the notice a writer wrote. */
function storedSeqs(store: Store, sessionId: string): number[] {
  const events = store.events(sessionId);
  for (const { event } of events) expect(event).toMatchObject({ type: "notice", severity: "info" });
  return events.map((e) => e.seq);
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

describe("crash durability", () => {
  it("keeps every acknowledged event when the writer is SIGKILLed mid-stream", {
    timeout: 120_000,
  }, async () => {
    const path = join(dir, "crash", "state.db");
    const setup = openStore({ path });
    session(setup, "s");
    setup.close();

    let previous = 0;
    for (let round = 0; round < 5; round++) {
      const writer = startWriter(["--db", path, "--session", "s", "--writer", `r${round}`, "--batch", "3"]);
      await writer.firstSeq;
      await sleep(150 + 60 * round);
      writer.child.kill("SIGKILL");
      const { signal, stderr } = await writer.exited;
      expect(signal, stderr).toBe("SIGKILL");
      expect(writer.seqs.length).toBeGreaterThan(0);

      expect(integrity(path)).toBe("ok");
      const store = openStore({ path });
      const seqs = storedSeqs(store, "s");
      store.close();
      // Contiguous from 1, and nothing acknowledged is missing (extra, unacknowledged rows may
      // exist: the kill can land between commit and print).
      expect(seqs).toEqual(range(seqs.length));
      const stored = new Set(seqs);
      expect(writer.seqs.filter((seq) => !stored.has(seq))).toEqual([]);
      // This round continued exactly where the previous (killed) one left off.
      expect(writer.seqs).toEqual(writer.seqs.map((_, i) => previous + 1 + i));
      previous = seqs.length;
    }
  });
});

describe("two processes on one database", () => {
  const PER_WRITER = 500;

  async function race(args: [string[], string[]]): Promise<{ writers: Writer[]; ms: number }> {
    const writers = args.map((a) => startWriter([...a, "--count", String(PER_WRITER), "--wait"]));
    await Promise.all(writers.map((w) => w.ready));
    const started = performance.now();
    for (const w of writers) w.child.stdin!.end("go\n");
    const results = await Promise.all(writers.map((w) => w.exited));
    const ms = performance.now() - started;
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    return { writers, ms };
  }

  // Generous timeouts: every commit is fsynced, and a loaded CI disk can make that slow.
  it("appends to different sessions, both opening (and migrating) a fresh file at once", {
    timeout: 120_000,
  }, async () => {
    const path = join(dir, "different", "state.db");
    const { writers, ms } = await race([
      ["--db", path, "--session", "a", "--writer", "a", "--create"],
      ["--db", path, "--session", "b", "--writer", "b", "--create"],
    ]);
    console.info(`store concurrency, different sessions: ${2 * PER_WRITER} appends in ${ms.toFixed(0)} ms`);

    const store = openStore({ path });
    for (const [index, id] of ["a", "b"].entries()) {
      expect(storedSeqs(store, id)).toEqual(range(PER_WRITER));
      expect(writers[index]?.seqs).toEqual(range(PER_WRITER));
      const texts = store.events(id).map((e) => (e.event.type === "notice" ? e.event.text : ""));
      expect(texts).toEqual(range(PER_WRITER).map((i) => `${id}:${i - 1}`));
    }
    store.close();
    expect(integrity(path)).toBe("ok");
  });

  it("appends to the same session without losing or duplicating a seq", { timeout: 120_000 }, async () => {
    const path = join(dir, "same", "state.db");
    const setup = openStore({ path });
    session(setup, "s");
    setup.close();

    const { writers, ms } = await race([
      ["--db", path, "--session", "s", "--writer", "a"],
      ["--db", path, "--session", "s", "--writer", "b"],
    ]);
    const owner = new Map(writers.flatMap((w, index) => w.seqs.map((seq) => [seq, index] as const)));
    const handovers = range(2 * PER_WRITER - 1).filter((seq) => owner.get(seq) !== owner.get(seq + 1)).length;
    console.info(
      `store concurrency, same session: ${2 * PER_WRITER} appends in ${ms.toFixed(0)} ms, ${handovers} lock handovers`,
    );

    const store = openStore({ path });
    expect(storedSeqs(store, "s")).toEqual(range(2 * PER_WRITER));
    const printed = writers.flatMap((w) => w.seqs).sort((x, y) => x - y);
    expect(printed).toEqual(range(2 * PER_WRITER));
    // Each writer's events are stored at the seqs it was told, in the order it wrote them.
    const bySeq = new Map(store.events("s").map((e) => [e.seq, e.event]));
    for (const [index, name] of ["a", "b"].entries()) {
      const seqs = writers[index]!.seqs;
      expect(seqs.map((seq) => bySeq.get(seq))).toEqual(
        seqs.map((_, i) => ({ type: "notice", severity: "info", text: `${name}:${i}` })),
      );
    }
    store.close();
    expect(integrity(path)).toBe("ok");
  });
});
