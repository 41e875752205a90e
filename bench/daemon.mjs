// Drives one daemon process for the benchmarks: spawn, ACP client, memory sampling.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { client, methods, ndJsonStream } from "@agentclientprotocol/sdk";

/**
 * The pause between a session opening and its first prompt, as when a user types it. Every
 * agent gets the same pause, so work an agent does in the background after `session/new`
 * (ours: loading the HTTP client, listing the endpoint's models) is off the prompt's clock.
 */
export const THINK_MS = 1_000;

/**
 * Starts `command args` as an ACP agent and connects the SDK client; times spawn → initialize.
 * `stderr` is a file descriptor for the agent's stderr (default: dropped); `onSpawn(child)` lets a
 * caller watch or kill an agent that never answers `initialize`; `onUpdate(params, at)` sees each
 * session/update as it arrives.
 */
export async function startAgent({ command, args, env, cwd, stderr = "ignore", onSpawn, onUpdate }) {
  const start = performance.now();
  const child = spawn(command, args, { env, cwd, stdio: ["pipe", "pipe", stderr] });
  onSpawn?.(child);
  const stream = ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  const updates = [];
  let firstUpdateAt;
  const connection = client({ name: "bench" })
    .onNotification(methods.client.session.update, ({ params }) => {
      firstUpdateAt ??= performance.now();
      updates.push(params);
      onUpdate?.(params, performance.now());
    })
    .onRequest(methods.client.session.requestPermission, ({ params }) => ({
      outcome: { outcome: "selected", optionId: params.options[0].optionId },
    }))
    .connect(stream);
  await connection.agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities: {},
    clientInfo: { name: "bench", version: "1" },
  });
  const initMs = performance.now() - start;
  return {
    child,
    agent: connection.agent,
    updates,
    initMs,
    /** When the first session/update arrived (performance.now()), if one did. */
    get firstUpdateAt() {
      return firstUpdateAt;
    },
    async newSession(cwd) {
      const t = performance.now();
      const { sessionId } = await connection.agent.request(methods.agent.session.new, {
        cwd,
        mcpServers: [],
      });
      return { sessionId, ms: performance.now() - t };
    },
    async prompt(sessionId, text) {
      const t = performance.now();
      const { stopReason } = await connection.agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text }],
      });
      return { stopReason, ms: performance.now() - t };
    },
    async stop() {
      child.stdin.end();
      const exited = new Promise((resolve) => child.on("exit", resolve));
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Our daemon through the installed launcher, in a fresh home with the given mode. */
export function ourDaemon({
  launcher,
  scratch,
  modelUrl,
  mode = "full-access",
  snapshot = true,
  onUpdate,
  config = "",
}) {
  const home = mkdtempSync(path.join(scratch, "home-"));
  writeFileSync(path.join(home, "config.toml"), `mode = "${mode}"\n${config}`);
  return {
    home,
    start: () =>
      startAgent({
        onUpdate,
        command: launcher,
        args: ["acp", "--in-process", "-m", "mock-model"],
        env: {
          PATH: process.env.PATH,
          HOME: home,
          INTERPRETER_HOME: home,
          OPENAI_BASE_URL: modelUrl,
          OPENAI_API_KEY: "x",
          ...(snapshot ? {} : { INTERPRETER_SNAPSHOT: "0" }),
        },
      }),
  };
}

/** The bare agent with its turn loop (bench/bare-tool-agent.mjs), on the same model. */
export function bareAgent({ scratch, modelUrl }) {
  const home = mkdtempSync(path.join(scratch, "home-"));
  return {
    home,
    start: () =>
      startAgent({
        command: process.execPath,
        args: [fileURLToPath(new URL("./bare-tool-agent.mjs", import.meta.url))],
        env: { PATH: process.env.PATH, HOME: home, OPENAI_BASE_URL: modelUrl, OPENAI_API_KEY: "x" },
      }),
  };
}

/**
 * A model step that answers from the request itself: `calls` shell calls (one per request, the
 * command chosen by `command(i, body)`), then a closing text. Lets many sessions share one
 * scripted model without their steps getting mixed up.
 */
export function taskStep({ replyChunks, calls, command, toolName = "exec_command", argName = "cmd" }) {
  return {
    handle(_req, res, body) {
      const done = body.messages.filter((m) => m.role === "tool").length;
      const step =
        done < calls
          ? { toolCalls: [{ id: `c${done}`, name: toolName, arguments: { [argName]: command(done, body) } }] }
          : { text: "All commands ran." };
      res.writeHead(200, { "content-type": "text/event-stream" });
      let n = 0;
      for (const data of replyChunks(step, body, () => `id${n++}`)) res.write(`data: ${data}\n\n`);
      res.end();
    },
  };
}

/** CPU time a process has used (user + system), in ms; the kernel counts in ticks of 10 ms. */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Resident memory of a process (VmRSS) in MB. */
export function rssMb(pid) {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return kb ? Number(kb) / 1024 : 0;
}

/** Proportional set size of a process and all its descendants, in MB (shared pages split fairly). */
export function treePssMb(pid) {
  let kb = 0;
  for (const p of [pid, ...descendants(pid)]) {
    try {
      kb += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${p}/smaps_rollup`, "utf8"))?.[1] ?? 0);
    } catch {
      // The process ended between listing and reading.
    }
  }
  return kb / 1024;
}

export function descendants(pid) {
  const children = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${name}/stat`, "utf8").split(") ")[1].split(" ")[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
    } catch {
      // Gone already.
    }
  }
  const out = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** Samples `measure()` every `ms` until stopped; returns the peak. */
export function peakSampler(measure, ms = 20) {
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, measure());
  }, ms);
  return () => {
    clearInterval(timer);
    return Math.max(peak, measure());
  };
}
