import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { methods } from "@agentclientprotocol/sdk/unstable";
import { onTestFinished } from "vitest";
import { TEST_CEILING } from "./ceiling.js";
import { type FakeModel, startFakeModel } from "./fake-model.js";
import { tempDir, until } from "./in-process.js";
import { type AgentProcess, LAUNCHER, spawnAgent } from "./spawn-agent.js";
import { INIT, testClient } from "./test-client.js";

/**
 * Editor windows on one shared daemon: each window is `interpreter acp` as editors start it
 * (a proxy), driven by the official SDK client; the daemon behind them is found through its
 * lock file. `cleanup()` kills what a test left: its proxies and its daemons, by pid.
 */
export function daemonKit(options: { daemonToml?: string; topToml?: string } = {}) {
  const home = tempDir("oi-daemon-home-");
  writeFileSync(
    path.join(home, "config.toml"),
    `mode = "full-access"\n${options.topToml ?? ""}[daemon]\nidle_exit_secs = 2\n${options.daemonToml ?? ""}`,
  );
  const proxies: AgentProcess[] = [];
  const commands: ReturnType<typeof spawn>[] = [];
  const cwd = tempDir("oi-daemon-ws-");
  const daemons = new Set<number>();

  async function window(model: FakeModel) {
    const agent = spawnAgent({
      home,
      proxy: true,
      env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-test" },
      args: ["-m", "mock-model"],
    });
    proxies.push(agent);
    const editor = testClient();
    const connection = editor.app.connect(agent.stream);
    await connection.agent.request(methods.agent.initialize, INIT);
    const pid = daemonPid();
    if (pid) daemons.add(pid);
    const prompt = (sessionId: string, text: string) =>
      connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
    return { agent, editor, acp: connection.agent, prompt };
  }

  /**
   * Another command on this home (`exec`, `chat`), started as users start it, with the
   * environment and `-m` the windows have: with `--daemon` it reaches their daemon.
   */
  function command(model: FakeModel, args: string[], options: { home?: string } = {}) {
    const at = options.home ?? home;
    const child = spawn(LAUNCHER, [...args, "-m", "mock-model"], {
      cwd: cwd,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: at,
        INTERPRETER_HOME: at,
        ...TEST_CEILING,
        OPENAI_BASE_URL: model.url,
        OPENAI_API_KEY: "sk-test",
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out = { stdout: "", stderr: "" };
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out.stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (out.stderr += d));
    const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      child.on("exit", (code) => resolve({ code, ...out })),
    );
    commands.push(child);
    return { child, out, exited };
  }

  /** The pid in the daemon's lock file, when one is alive. */
  function daemonPid(): number | undefined {
    const dir = path.join(home, "daemon");
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith(".pid"));
    } catch {
      return undefined;
    }
    for (const name of names) {
      const pid = Number(readFileSync(path.join(dir, name), "utf8"));
      if (alive(pid)) {
        daemons.add(pid);
        return pid;
      }
    }
    return undefined;
  }

  async function cleanup() {
    for (const p of proxies.splice(0)) if (p.child.exitCode === null) p.child.kill("SIGKILL");
    for (const c of commands.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
    for (const pid of daemons) if (alive(pid)) process.kill(pid, "SIGKILL");
    await until(() => [...daemons].every((pid) => !alive(pid)), 5_000);
    daemons.clear();
  }

  return { home, cwd, window, command, daemonPid, cleanup };
}

/**
 * The scripted model and a kit on a fresh home for the running test; when the test ends, pass or
 * fail, the kit's processes are killed and then the model is closed.
 */
export async function daemonTest(options: Parameters<typeof daemonKit>[0] = {}) {
  const model = await startFakeModel();
  const kit = daemonKit(options);
  onTestFinished(async () => {
    await kit.cleanup();
    await model.close();
  });
  return { model, kit };
}

/** Whether `pid` runs (a zombie does not). */
export function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return false;
  }
}

/** A slow streamed answer: `words` words, 40 ms apart (a turn that runs for a while). */
export function slowText(words: number): string {
  return Array.from({ length: words }, (_, i) => `word${i}`).join(" ");
}
