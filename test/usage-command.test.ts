import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseSince, usageCommand } from "../src/cli/usage-command.js";
import type { HistoryEvent } from "../src/store/events.js";
import { openStore } from "../src/store/open-store.js";
import { tempDir } from "./support/in-process.js";
import { LAUNCHER } from "./support/spawn-agent.js";

const NOW = new Date("2026-11-30T12:00:00.000Z");
let home: string;

/** Two sessions: one ten days ago on kimi-code, one an hour ago on codex, one request estimated. */
function seed(): void {
  let clock = new Date("2026-11-20T12:00:00.000Z");
  const store = openStore({ path: path.join(home, "openinterpreter.db"), now: () => clock });
  const usage = (over: Partial<HistoryEvent & { type: "usage" }>): HistoryEvent => ({
    type: "usage",
    turnId: "t",
    inputTokens: 1000,
    outputTokens: 100,
    contextUsed: 1100,
    contextSize: 128000,
    provider: "openai",
    ...over,
  });
  for (const id of ["old", "new"]) {
    store.createSession({ id, cwd: "/w", additionalDirectories: [], mcpServers: [], mode: "auto" });
  }
  store.updateSession("new", { title: "Fix the parser" });
  store.append("old", [
    usage({ model: "kimi-k2", harness: "kimi-code", cost: 0.002, currency: "USD", cachedInputTokens: 500 }),
  ]);
  clock = new Date("2026-11-30T11:00:00.000Z");
  store.append("new", [
    usage({ model: "gpt-5", harness: "codex", cost: 0.01, currency: "USD", cachedInputTokens: 250 }),
    usage({ model: "gpt-5", harness: "codex", estimated: true }),
  ]);
  store.close();
}

async function run(argv: string[]) {
  let out = "";
  let err = "";
  const code = await usageCommand(argv, {
    now: () => NOW,
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
  });
  return { code, out, err };
}

beforeEach(() => {
  home = tempDir("oi-usage-");
  vi.stubEnv("INTERPRETER_HOME", home);
  vi.stubEnv("HOME", home);
  seed();
});

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("interpreter usage", () => {
  it("prints every model's requests, tokens, cached share and cost, and marks estimates", async () => {
    const { code, out } = await run([]);
    expect(code).toBe(0);
    const lines = out.split("\n");
    expect(lines[0]).toBe("Model requests, by model.");
    const gpt = lines.find((l) => l.startsWith("gpt-5"));
    expect(gpt).toMatch(/^gpt-5 \*\s+2\s+2000\s+250 \(13%\)\s+200\s+0\s+0\.01 USD$/);
    expect(lines.find((l) => l.startsWith("kimi-k2"))).toMatch(/500 \(50%\).*0\.002 USD$/);
    expect(lines.find((l) => l.startsWith("total"))).toMatch(
      /^total \*\s+3\s+3000\s+750 \(25%\)\s+300\s+0\s+0\.012 USD$/,
    );
    expect(out).toContain("* 1 requests had no usage from the endpoint");
  });

  it("filters by --since (a duration or a date) and groups by harness or session", async () => {
    const recent = await run(["--since", "7d", "--by", "harness"]);
    expect(recent.out).toContain("by harness");
    expect(recent.out).toMatch(/^codex \*\s+2\s/m);
    expect(recent.out).not.toContain("kimi-code");

    const byDate = await run(["--since", "2026-11-01", "--by", "session"]);
    expect(byDate.out).toMatch(/^new \(Fix the parser\) \*\s+2\s/m);
    expect(byDate.out).toMatch(/^old\s+1\s/m);

    const none = await run(["--since", "1h"]);
    expect(none.out).toMatch(/gpt-5/);
    expect((await run(["--since", "30m"])).out).toBe(
      "No model requests recorded since 2026-11-30T11:30:00.000Z.\n",
    );
  });

  it("prints JSON with --json", async () => {
    const { code, out } = await run(["--json", "--by", "model"]);
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.by).toBe("model");
    expect(report.groups.map((g: { key: string }) => g.key)).toEqual(["gpt-5", "kimi-k2"]);
    expect(report.total).toMatchObject({ requests: 3, inputTokens: 3000, estimated: 1, currency: "USD" });
    expect(report.total.cost).toBeCloseTo(0.012, 10);
  });

  it("rejects bad flags with exit code 2 and a readable message", async () => {
    const bad = await run(["--by", "colour"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--by must be one of model, harness, session, got 'colour'");
    const since = await run(["--since", "last tuesday"]);
    expect(since.code).toBe(2);
    expect(since.err).toContain("--since: expected a date or a duration like 7d, got 'last tuesday'");
    await expect(usageCommand(["--colour"])).rejects.toThrow(/Unknown option '--colour'/);
  });

  it("reads durations and dates", () => {
    expect(parseSince("7d", NOW)).toBe("2026-11-23T12:00:00.000Z");
    expect(parseSince("12h", NOW)).toBe("2026-11-30T00:00:00.000Z");
    expect(parseSince("2w", NOW)).toBe("2026-11-16T12:00:00.000Z");
    expect(parseSince("2026-11-01", NOW)).toBe("2026-11-01T00:00:00.000Z");
    expect(parseSince("yesterday", NOW)).toBeNull();
  });

  it("is a command of the installed binary, grouped by session as JSON", () => {
    const result = spawnSync(LAUNCHER, ["usage", "--by", "session", "--json"], {
      env: { PATH: process.env.PATH, HOME: home, INTERPRETER_HOME: home },
      encoding: "utf8",
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(JSON.stringify(report)).toContain("Fix the parser");
    expect(JSON.stringify(report)).toContain("old");
  });
});
