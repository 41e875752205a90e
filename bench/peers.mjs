// Other ACP agents measured in the same run as ours, on the same scripted task: spawn →
// initialize, session/new, one prompt in which the model asks for the ten commands of
// ten-calls.mjs through the agent's own shell tool, and peak PSS of the process tree during it.
// Each peer is installed, pinned, from npm into a folder under the OS temp dir (kept between runs,
// keyed by version; nothing of theirs is committed). A peer that cannot run becomes
// `{ name, error }`; the bench never stops for one.
import { execFile } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { peakSampler, startAgent, THINK_MS, treePssMb } from "./daemon.mjs";
import { codexAcp } from "./peer-codex.mjs";
import { claudeCodeAcp, geminiCli, qwenCode } from "./peer-node-agents.mjs";
import { opencode } from "./peer-opencode.mjs";
import { startResponsesModel } from "./responses-model.mjs";
import { median, round } from "./support.mjs";
import { COMMANDS } from "./ten-calls.mjs";

export const PEERS = [codexAcp, claudeCodeAcp, geminiCli, opencode, qwenCode];

const INSTALL_ROOT = path.join(os.tmpdir(), "oi-bench-peers");
const say = (text) => process.stderr.write(`bench: peers: ${text}\n`);

/** Measures every peer `runs` times; `model` is the scripted chat-completions model of the run. */
export async function measurePeers({ runs, scratch, model, replyChunks }) {
  const responses = await startResponsesModel();
  const chat = chatResponder({ model, replyChunks });
  const out = [];
  try {
    for (const peer of PEERS) {
      say(peer.name);
      try {
        out.push(await measurePeer({ peer, runs, scratch, models: { chat, responses } }));
      } catch (error) {
        say(`${peer.name}: ${error.message}`);
        out.push({ name: peer.name, error: error.message.split("\n")[0].slice(0, 300) });
      }
    }
  } finally {
    chat.close();
    await responses.close();
  }
  return out;
}

async function measurePeer({ peer, runs, scratch, models }) {
  if (peer.unsupported) return { name: peer.name, error: peer.unsupported };
  const dir = await install(peer);
  const rows = [];
  for (let i = 0; i < runs; i++) rows.push(await once({ peer, dir, scratch, models }));
  const m = (key) => round(median(rows.map((r) => r[key])));
  return {
    name: peer.name,
    initMs: m("initMs"),
    newMs: m("newMs"),
    tenCallsMs: m("promptMs"),
    pssMb: m("pssMb"),
  };
}

/** `npm install --prefix` into a folder per package and version, reused when already complete. */
async function install(peer) {
  const dir = path.join(INSTALL_ROOT, `${peer.pkg.replace(/[@/]/g, "_")}@${peer.version}`);
  const done = path.join(dir, ".installed");
  if (existsSync(done)) return dir;
  mkdirSync(dir, { recursive: true });
  say(`installing ${peer.pkg}@${peer.version}`);
  try {
    await promisify(execFile)(
      "npm",
      [
        "install",
        "--prefix",
        dir,
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        `${peer.pkg}@${peer.version}`,
      ],
      { timeout: 600_000, maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (error) {
    throw new Error(
      `npm install ${peer.pkg}@${peer.version} failed: ${String(error.stderr || error.message).trim()}`,
    );
  }
  writeFileSync(done, `${peer.version}\n`);
  return dir;
}

async function once({ peer, dir, scratch, models }) {
  const home = mkdtempSync(path.join(scratch, "peer-home-"));
  const cwd = mkdtempSync(path.join(scratch, "peer-ws-"));
  const model = peer.wire === "responses" ? models.responses : models.chat;
  const env = peer.setup({ home, modelUrl: model.url });
  const stderrPath = path.join(home, "stderr.log");
  const stderr = openSync(stderrPath, "w");
  let child;
  let onExit;
  const exited = new Promise((_, reject) => {
    onExit = reject;
  });
  exited.catch(() => {});
  try {
    const started = startAgent({
      command: peer.command(dir),
      args: peer.args({ dir, modelUrl: model.url }),
      env,
      cwd,
      stderr,
      onSpawn(c) {
        child = c;
        c.on("error", (error) => onExit(new Error(`cannot start: ${error.message}`)));
        c.on("exit", (code, signal) => onExit(new Error(`exited (${signal ?? code})`)));
      },
    });
    // Every step races the agent's exit and a time limit, so a stuck or crashed peer only costs it.
    const step = (what, promise, ms) =>
      Promise.race([promise, exited, timeout(ms, `${what} took over ${ms / 1000} s`)]).catch((error) => {
        throw new Error(`${what}: ${error.message}`);
      });
    const agent = await step("initialize", started, 60_000);
    const { sessionId, ms: newMs } = await step("session/new", agent.newSession(cwd), 60_000);
    await sleep(THINK_MS);
    model.task({ calls: COMMANDS.length, command: (i) => COMMANDS[i], shell: peer.shell });
    const stopPss = peakSampler(() => treePssMb(child.pid));
    const prompt = await step("prompt", agent.prompt(sessionId, "run ten"), 180_000).finally(stopPss);
    const pssMb = stopPss();
    const out = path.join(cwd, "out.txt");
    if (!existsSync(out) || readFileSync(out, "utf8") !== "a\nb\n")
      throw new Error(`the ten calls did not run (stopReason ${prompt.stopReason})`);
    return { initMs: agent.initMs, newMs, promptMs: prompt.ms, pssMb };
  } catch (error) {
    throw new Error(`${error.message}${tail(stderrPath)}`);
  } finally {
    model.task(undefined);
    if (child) await end(child);
    closeSync(stderr);
  }
}

/**
 * A self-renewing step on the shared scripted model that serves the task of the current run: the
 * next command through the peer's shell tool while fewer than `calls` tool results came back,
 * then a closing text. A request without that tool (a title, a summary) gets a short text.
 */
function chatResponder({ model, replyChunks }) {
  let task;
  let open = true;
  const step = {
    handle(_req, res, body) {
      if (open) model.reply(step);
      const hasShell = task?.shell && (body.tools ?? []).some((t) => t.function?.name === task.shell.name);
      const done = (body.messages ?? []).filter((m) => m.role === "tool").length;
      const reply =
        hasShell && done < task.calls
          ? {
              toolCalls: [
                { id: `call_${done}`, name: task.shell.name, arguments: task.shell.args(task.command(done)) },
              ],
            }
          : { text: hasShell ? "All commands ran." : "Ten commands" };
      res.writeHead(200, { "content-type": "text/event-stream" });
      let n = 0;
      for (const data of replyChunks(reply, body, () => `id${n++}`)) res.write(`data: ${data}\n\n`);
      res.end();
    },
  };
  model.reply(step);
  return {
    url: model.url,
    task(next) {
      task = next;
    },
    close() {
      open = false;
    },
  };
}

function end(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise((resolve) => child.on("exit", resolve));
  child.stdin.end();
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  return exited.finally(() => clearTimeout(timer));
}

function timeout(ms, message) {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(message)), ms).unref());
}

/** The last lines the peer wrote to stderr, to say why it failed. */
function tail(file) {
  const text = readFileSync(file, "utf8").trim();
  return text ? ` — stderr: ${text.split("\n").slice(-3).join(" | ").slice(0, 400)}` : "";
}
