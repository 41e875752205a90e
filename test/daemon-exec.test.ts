import { mkdirSync } from "node:fs";
import path from "node:path";
import { methods } from "@agentclientprotocol/sdk/unstable";
import { describe, expect, it } from "vitest";
import { processesWith, readStoredSession } from "./reliability/support/protocol-db.js";
import { alive, daemonKit, daemonTest, slowText } from "./support/daemon-kit.js";
import type { FakeStep } from "./support/fake-model.js";
import { tempDir, until } from "./support/in-process.js";

/**
 * `interpreter exec --daemon`: the turn runs in the shared daemon, and what a script sees
 * (stdout, exit code) is what the in-process run gives it.
 */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

const CASES: Array<{ name: string; args: string[]; steps: FakeStep[]; code: number; shows: string }> = [
  {
    name: "an answer",
    args: ["what is the answer?"],
    steps: [{ text: "The answer is 42." }],
    code: 0,
    shows: "The answer is 42.\n",
  },
  {
    name: "Codex JSONL with a command refused for want of approval",
    args: ["--json", "make a file"],
    steps: [
      { toolCalls: [{ name: "exec_command", arguments: { cmd: "touch no.txt" } }] },
      { text: "Could not." },
    ],
    code: 0,
    shows: '"command":"touch no.txt"',
  },
  {
    name: "a failing endpoint",
    args: ["-c", "model_providers.openai.request_max_retries=0", "hi"],
    steps: [{ status: 404, body: { error: { message: "model 'mock-model' not found" } } }],
    code: 1,
    shows: "",
  },
];

describe("interpreter exec --daemon", () => {
  for (const c of CASES) {
    it(`prints and exits as the in-process run does: ${c.name}`, async () => {
      const { model, kit } = await daemonTest();
      const run = async (mode: string) => {
        model.reply(...c.steps);
        return kit.command(model, ["exec", mode, ...c.args]).exited;
      };
      const local = await run("--in-process");
      expect(kit.daemonPid()).toBeUndefined();
      const shared = await run("--daemon");
      // The turn ran in a daemon the run started, which outlives it (for its idle time).
      const daemon = kit.daemonPid();
      expect(daemon).toBeDefined();
      expect(shared.stderr).not.toMatch(/in-process/);
      expect(shared.code).toBe(c.code);
      expect(local.code).toBe(c.code);
      expect(local.stdout).toContain(c.shows);
      expect(shared.stdout.replace(UUID, "<id>")).toBe(local.stdout.replace(UUID, "<id>"));
      if (c.code !== 0) expect(shared.stderr).toMatch(/404/);
      // A second run reaches the same daemon.
      await run("--daemon");
      expect(kit.daemonPid()).toBe(daemon);
    });
  }

  it("falls back to in-process when no daemon can be used, the reason on stderr", async () => {
    const { model, kit } = await daemonTest();
    // A home so deep that the socket path cannot be bound: the run is served in-process.
    const deep = path.join(tempDir("oi-deep-"), "d".repeat(100));
    mkdirSync(deep);
    model.reply({ text: "Served here." });
    const far = await kit.command(model, ["exec", "--daemon", "hi"], { home: deep }).exited;
    expect(far.stderr).toMatch(/too long for a Unix socket; running in-process/);
    expect(far).toMatchObject({ code: 0, stdout: "Served here.\n" });

    // A daemon that exits at once (a config it refuses): said, then the in-process run reports it.
    const broken = daemonKit({ topToml: 'harness = "no-such-harness"\n' });
    const started = Date.now();
    const result = await broken.command(model, ["exec", "--daemon", "hi"]).exited;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.stderr).toMatch(/the daemon failed to start.*; running in-process/);
    expect(result.stderr).toMatch(/unknown harness "no-such-harness"/);
    expect(result.code).toBe(1);
    await broken.cleanup();

    const both = await kit.command(model, ["exec", "--daemon", "--in-process", "hi"]).exited;
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--daemon and --in-process exclude each other");
  });

  it("Ctrl-C cancels the turn in the daemon: its command is killed, the daemon lives on", async () => {
    const { model, kit } = await daemonTest();
    const marker = "sleep 987.125";
    model.reply({ toolCalls: [{ name: "exec_command", arguments: { cmd: marker } }] });
    const run = kit.command(model, ["exec", "--daemon", "--yolo", "wait a long time"]);
    await until(() => processesWith(marker).length > 0, 20_000);
    const daemon = kit.daemonPid() as number;
    run.child.kill("SIGINT");
    const result = await run.exited;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("turn cancelled");
    await until(() => processesWith(marker).length === 0, 5_000);
    expect(alive(daemon)).toBe(true);

    // The cancelled turn is recorded as ended, and an editor window can load it.
    const window = await kit.window(model);
    const { sessions } = await window.acp.request(methods.agent.session.list, {});
    const sessionId = sessions[0]?.sessionId as string;
    expect(readStoredSession(kit.home, sessionId).types).toContain("turn_ended");
    await window.acp.request(methods.agent.session.load, { sessionId, cwd: kit.cwd, mcpServers: [] });
    expect(window.agent.violations).toEqual([]);
  });

  it("a daemon killed mid-run: the run exits 1 and says so, and the turn is kept", async () => {
    const { model, kit } = await daemonTest();
    model.reply({ text: slowText(60), chunkSize: 6, delayMs: 40 });
    const run = kit.command(model, ["exec", "--daemon", "talk slowly"]);
    // The model is answering: the turn is under way in the daemon.
    await until(() => model.requests.length > 0, 20_000);
    process.kill(kit.daemonPid() as number, "SIGKILL");
    const result = await run.exited;
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/daemon stopped during this run; what the turn did until then is kept/);
    expect(result.stdout).toBe("");
    const sessionId = /session (\S+) /.exec(result.stderr)?.[1] as string;
    expect(readStoredSession(kit.home, sessionId).types).toContain("user_message");
  });
});
