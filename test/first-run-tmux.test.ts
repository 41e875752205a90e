/**
 * The chat's first run with nothing configured, driven in a real terminal (a private tmux
 * server). The scripted model poses as Ollama on Ollama's own port, 11434: the chat runs in a
 * network namespace of its own (`unshare -n`), where that port is free whatever this machine
 * runs, and where a relay carries 127.0.0.1:11434 to the fake model through a Unix socket.
 * An empty namespace shows the "nothing found" path the same way on every machine.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { atPrompt as chatAtPrompt } from "./support/chat-tmux.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { tempDir } from "./support/in-process.js";
import { bridge, inNetns, netnsFlags, runToEnd } from "./support/netns.js";
import { BIN } from "./support/spawn-agent.js";
import { tmuxMissing, tmuxServer } from "./support/tmux-session.js";

const flags = netnsFlags();
const missing = typeof flags === "string" ? flags : tmuxMissing();
const tmux = tmuxServer(`oi-first-run-${process.pid}`);
const cwd = tempDir("oi-ws-");
const MODELS = ["qwen2.5-coder:7b", "llama3.2:3b"];

let model: FakeModel;
let relay: { close(): Promise<void> };
let socket: string;

/** The chat as a new user starts it: a clean environment, no OPENAI_* variables, no flags. */
function chatArgv(options: { home: string; ollama: boolean; env?: Record<string, string>; args?: string[] }) {
  const vars = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: options.home,
    TERM: "screen",
    INTERPRETER_HOME: options.home,
    ...options.env,
  };
  return inNetns({
    flags: flags as string[],
    relays: options.ollama ? { 11434: socket } : {},
    command: [
      "env",
      "-i",
      ...Object.entries(vars).map(([k, v]) => `${k}=${v}`),
      process.execPath,
      BIN,
      ...(options.args ?? []),
    ],
  });
}

/** The banner is out and the prompt is the last line (a notice may stand between them). */
/** The banner is up and the composer waits above the status line. */
const atPrompt = (screen: string) => screen.includes("· /help") && chatAtPrompt(screen);

beforeAll(async () => {
  if (missing) return;
  model = await startFakeModel({ models: MODELS });
  socket = path.join(tempDir("oi-relay-"), "ollama.sock");
  relay = await bridge(socket, Number(new URL(model.url).port));
});

afterAll(async () => {
  if (missing) return;
  await tmux.kill();
  await relay?.close();
  await model?.close();
});

describe.skipIf(missing !== undefined)(
  `first run of the chat${missing ? ` (skipped: ${missing})` : ""}`,
  () => {
    it("finds Ollama on its port, lists its models, writes config.toml only after y; the next prompt works", async () => {
      const home = tempDir("oi-home-");
      const file = path.join(home, "config.toml");
      const chat = await tmux.start("found", chatArgv({ home, ollama: true }), cwd);
      let screen = await chat.until("Esc leaves");
      expect(screen).toContain("No model is set up yet.");
      expect(screen).toMatch(/^→ \[1\] Ollama at http:\/\/127\.0\.0\.1:11434 · 2 models$/m);
      expect(screen).toMatch(/^ {2}\[2\] A hosted provider instead/m);
      await chat.keys("Enter");
      screen = await chat.until(/Models of Ollama:\n→ \[1\] qwen2\.5-coder:7b\n {2}\[2\] llama3\.2:3b\n/);
      // The arrow moves the marker in place; Enter takes the marked row.
      await chat.keys("Down");
      await chat.until(/^ {2}\[1\] qwen2\.5-coder:7b\n→ \[2\] llama3\.2:3b$/m);
      await chat.keys("Enter");
      screen = await chat.until("[n] no, write nothing");
      expect(screen).toContain(`This writes ${file}:`);
      expect(screen).toMatch(/^ {4}model = "llama3\.2:3b"\n {4}model_provider = "ollama"$/m);
      expect(existsSync(file)).toBe(false);
      await chat.keys("y");
      screen = await chat.until(atPrompt);
      expect(screen).toContain(`✓ Wrote ${file}`);
      expect(screen).toMatch(/· model llama3\.2:3b · harness /);
      expect(readFileSync(file, "utf8")).toBe('model = "llama3.2:3b"\nmodel_provider = "ollama"\n');

      model.reply({ text: "Hello from the local server." });
      await chat.type("say hello");
      await chat.until("Hello from the local server.");
      expect(model.requests.at(-1)?.body.model).toBe("llama3.2:3b");
      await chat.keys("C-d");
      await chat.until(/^EXITED 0$/m);

      // The next start reads the file and asks nothing.
      const again = await tmux.start("again", chatArgv({ home, ollama: true }), cwd);
      const next = await again.until(atPrompt);
      expect(next).not.toContain("No model is set up yet.");
      expect(next).toMatch(/· model llama3\.2:3b · harness /);
      await again.keys("C-d");
      await again.until(/^EXITED 0$/m);
      model.assertDone();
    });

    it("declining with n writes nothing and sends nothing to the model", async () => {
      const home = tempDir("oi-home-");
      const file = path.join(home, "config.toml");
      const before = model.requests.length;
      const chat = await tmux.start("declined", chatArgv({ home, ollama: true }), cwd);
      await chat.until("Esc leaves");
      await chat.keys("1");
      await chat.until("Models of Ollama:");
      await chat.keys("2");
      await chat.until("[n] no, write nothing");
      await chat.keys("n");
      const screen = await chat.until(/^EXITED 0$/m);
      expect(screen).toContain(`Nothing was written; those lines in ${file} set it up later.`);
      expect(existsSync(file)).toBe(false);
      expect(model.requests.length).toBe(before);
    });

    it("with no server on any port: lists hosted providers and their variable; a failed listing goes back", async () => {
      const home = tempDir("oi-home-");
      const chat = await tmux.start(
        "nothing",
        chatArgv({ home, ollama: false, env: { OPENROUTER_API_KEY: "sk-or-test" } }),
        cwd,
      );
      let screen = await chat.until("Esc leaves");
      expect(screen).toContain(
        "No model server answered on this machine (Ollama :11434, LM Studio :1234, llama.cpp :8080, vLLM :8000, SGLang :30000).",
      );
      expect(screen).toMatch(/^→ \[1\] OpenAI +OPENAI_API_KEY$/m);
      expect(screen).toMatch(/^ {2}\[2\] OpenRouter +OPENROUTER_API_KEY \(set\)$/m);
      expect(screen).toMatch(/^ {2}\[3\] DeepSeek +DEEPSEEK_API_KEY$/m);
      expect(screen).toMatch(/^ {2}\[4\] Moonshot \(Kimi\) +MOONSHOT_API_KEY$/m);
      // The key is set, so OpenRouter's models are asked for; this namespace has no network.
      await chat.keys("2");
      // The failure is told and the list is back (in the composer's place).
      screen = await chat.until((s) => s.includes("✗ Cannot reach") && s.includes("Esc leaves"));
      expect(screen).toMatch(/✗ Cannot reach openrouter at https:\/\/openrouter\.ai\/api\/v1/);
      await chat.keys("3");
      screen = await chat.until(/^EXITED 0$/m);
      expect(screen).toContain("DeepSeek reads its key from DEEPSEEK_API_KEY");
      expect(screen).toMatch(/^ {4}export DEEPSEEK_API_KEY=<your key>$/m);
      expect(existsSync(path.join(home, "config.toml"))).toBe(false);
    });

    it("Esc at the first list leaves the set-up and writes nothing", async () => {
      const home = tempDir("oi-home-");
      const chat = await tmux.start("escaped", chatArgv({ home, ollama: true }), cwd);
      await chat.until("Esc leaves");
      await chat.keys("Escape");
      const screen = await chat.until(/^EXITED 0$/m);
      expect(screen).toContain("Set-up left; nothing was written.");
      expect(existsSync(path.join(home, "config.toml"))).toBe(false);
    });

    it("without a terminal: prints what it found and the lines to write, writes nothing, exit 1", async () => {
      const home = tempDir("oi-home-");
      const argv = chatArgv({ home, ollama: true, args: ["chat"] });
      const { code, stdout } = await runToEnd(argv, { cwd, input: "hello\n" });
      expect(code).toBe(1);
      const file = path.join(home, "config.toml");
      expect(stdout).toContain(
        `Found Ollama at http://127.0.0.1:11434 · 2 models. To use it, put these lines in ${file}:`,
      );
      expect(stdout).toMatch(/^ {4}model = "qwen2\.5-coder:7b"\n {4}model_provider = "ollama"$/m);
      expect(stdout).toContain("(models: qwen2.5-coder:7b, llama3.2:3b)");
      expect(stdout).toMatch(/^ {2}OpenRouter +OPENROUTER_API_KEY$/m);
      expect(stdout).not.toContain("\x1b[");
      expect(existsSync(file)).toBe(false);
    });
  },
);
