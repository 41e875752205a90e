/**
 * The chat's composer, pickers, status line and rendering on pi-tui, driven in a real terminal
 * (a private tmux server) as a person would; only the model is scripted.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { atPrompt, chatStarter, statusLine } from "./support/chat-tmux.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { tempDir } from "./support/in-process.js";
import { needs } from "./support/requires.js";
import { tmuxServer } from "./support/tmux-session.js";

const server = tmuxServer(`oi-composer-test-${process.pid}`);
let model: FakeModel;
const home = tempDir("oi-home-");
const cwd = tempDir("oi-ws-");
const startChat = chatStarter({ server, home, cwd, modelUrl: () => model.url });

/** The text of the last user message the model was sent. */
const lastPrompt = () => {
  const messages = model.requests.at(-1)?.body.messages ?? [];
  const user = messages.filter((m: { role: string }) => m.role === "user").at(-1);
  return typeof user?.content === "string" ? user.content : JSON.stringify(user?.content);
};
/** The tool names of the last model request. */
const toolNames = () =>
  (model.requests.at(-1)?.body.tools ?? []).map((t: { function?: { name: string }; name?: string }) =>
    t.function ? t.function.name : t.name,
  );

beforeAll(async () => {
  model = await startFakeModel({ models: ["mock-model", "other-model"] });
  // A repository whose .gitignore hides build/: `@` completion must not offer what it ignores.
  mkdirSync(path.join(cwd, ".git"), { recursive: true });
  writeFileSync(path.join(cwd, ".git/HEAD"), "ref: refs/heads/main\n");
  writeFileSync(path.join(cwd, ".gitignore"), "build/\n");
  mkdirSync(path.join(cwd, "src"));
  mkdirSync(path.join(cwd, "build"));
  writeFileSync(path.join(cwd, "src/alpha-widget.ts"), "export {};\n");
  writeFileSync(path.join(cwd, "build/widget-bundle.js"), "\n");
});

afterAll(async () => {
  await server.kill();
  await model?.close();
});

needs("tmux").describe("the chat's composer, pickers and status line", () => {
  let chat: Awaited<ReturnType<typeof startChat>>;

  it("sends a multi-line prompt (Ctrl-J and a trailing backslash add lines) and shows it whole", async () => {
    chat = await startChat("main", []);
    const first = await chat.until(atPrompt);
    expect(statusLine(first)).toMatch(/^mock-model · codex · workspace-write · context 0% · (un)?sandboxed$/);
    model.reply({ text: "Three lines received." });
    await chat.keys("-l", "first line");
    await chat.keys("C-j");
    await chat.keys("-l", "second line\\");
    await chat.keys("Enter");
    await chat.keys("-l", "third line");
    const composing = await chat.until(/^ third line$/m);
    expect(composing).toMatch(/^ first line\n second line\n third line$/m);
    await chat.keys("Enter");
    const screen = await chat.until("Three lines received.");
    expect(screen).toMatch(/^› first line\n {2}second line\n {2}third line$/m);
    expect(lastPrompt()).toContain("first line\nsecond line\nthird line");
  });

  it("keeps a large paste as one block in the composer and sends it whole", async () => {
    await chat.until(atPrompt);
    const pasted = Array.from({ length: 30 }, (_, i) => `pasted line ${i + 1}`).join("\n");
    await chat.keys("-l", "review this: ");
    await chat.paste(pasted);
    const composing = await chat.until(/\[paste #1 \+30 lines\]/);
    expect(composing).not.toContain("pasted line 15");
    model.reply({ text: "Reviewed." });
    await chat.keys("Enter");
    await chat.until("Reviewed.");
    expect(lastPrompt()).toContain(`review this: ${pasted}`);
  });

  it("renders a Markdown table as a table and moves the status line's context figure", async () => {
    const before = statusLine(await chat.until(atPrompt));
    model.reply({
      text: "Stock:\n\n| Fruit | Count |\n|---|---|\n| apples | 3 |\n| pears | 12 |\n",
      usage: { prompt_tokens: 6200, completion_tokens: 40 },
    });
    await chat.type("how many?");
    const screen = await chat.until((s) => s.includes("pears") && atPrompt(s));
    expect(screen).toMatch(/│ Fruit +│ Count +│/);
    expect(screen).toMatch(/│ apples +│ 3 +│/);
    expect(screen).not.toContain("|---|");
    const after = statusLine(screen);
    expect(after).not.toBe(before);
    expect(after).toMatch(/context \d+% · 6\.\dk\//);
  });

  it("highlights a code block by its language (the highlighter loads at the first block)", async () => {
    model.reply({ text: "```ts\nconst total: number = 42;\n```\n" });
    await chat.type("some code");
    await chat.until((s) => s.includes("const total: number = 42;") && atPrompt(s));
    // The keyword green and the number cyan (emphasize's default sheet), once it has loaded.
    const deadline = Date.now() + 10_000;
    let coloured = await chat.screen(true);
    while (!coloured.includes("\x1b[32mconst\x1b[39m") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      coloured = await chat.screen(true);
    }
    expect(coloured).toContain("\x1b[32mconst\x1b[39m");
    expect(coloured).toContain("\x1b[36m42\x1b[39m");
  });

  it("completes `@` with the workspace's files, leaving out what .gitignore ignores", async () => {
    await chat.keys("-l", "look at @widg");
    const list = await chat.until(/alpha-widget\.ts/);
    expect(list).not.toContain("widget-bundle.js");
    await chat.keys("Tab");
    await chat.until(/^ look at @src\/alpha-widget\.ts$/m);
    model.reply({ text: "Looked." });
    await chat.keys("Enter");
    await chat.until("Looked.");
    expect(lastPrompt()).toContain("look at @src/alpha-widget.ts");
  });

  it("`/harness` opens a list (pinned originals, the model's recommendation); the pick renders the next request", async () => {
    await chat.until(atPrompt);
    await chat.type("/harness");
    const list = await chat.until(/type to filter/);
    expect(list).toMatch(/→ codex \(current\) ★ recommended/);
    // The selected row's whole description: what it is for and the original it is pinned to.
    expect(list).toMatch(/OpenAI Codex: .*Codex CLI \d/);
    await chat.keys("-l", "claude-code");
    await chat.until(/filter: claude-code/);
    await chat.keys("Enter");
    await chat.until(/Harness set to claude-code/);
    const screen = await chat.until(atPrompt);
    expect(statusLine(screen)).toMatch(/ · claude-code · /);
    model.reply({ text: "Claude-style tools here." });
    await chat.type("which tools?");
    await chat.until("Claude-style tools here.");
    expect(toolNames()).toContain("Bash");
    expect(toolNames()).not.toContain("exec_command");
  });

  it("`/model` lists the endpoint's models; the pick is the model of the next request", async () => {
    await chat.until(atPrompt);
    await chat.type("/model");
    const list = await chat.until(/other-model/);
    expect(list).toMatch(/→ mock-model \(current\)/);
    await chat.keys("Down");
    await chat.keys("Enter");
    await chat.until((s) => / · other-model|^other-model · /m.test(statusLine(s)) && atPrompt(s));
    model.reply({ text: "Now the other model." });
    await chat.type("hello again");
    await chat.until("Now the other model.");
    expect(model.requests.at(-1)?.body.model).toBe("other-model");
  });

  it("keeps its layout when the terminal narrows mid-answer", async () => {
    await chat.until(atPrompt);
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    model.reply({ text: `${words} THE-END`, chunkSize: 8, delayMs: 40 });
    await chat.type("say a lot");
    await chat.until("word10");
    await chat.resize(60);
    const screen = await chat.until((s) => s.includes("THE-END") && atPrompt(s));
    for (const line of screen.split("\n")) expect([...line].length).toBeLessThanOrEqual(60);
    // Re-wrapped once, not printed twice.
    expect(screen.split("THE-END").length).toBe(2);
    expect(screen.replace(/\s+/g, " ")).toContain(`${words} THE-END`);
    await chat.resize(120);
  });

  it("Esc interrupts a running command and leaves no process behind", async () => {
    await chat.until(atPrompt);
    model.reply({ toolCalls: [{ name: "Bash", arguments: { command: "sleep 313" } }] });
    await chat.type("wait a while");
    await chat.until(/\[y\] yes/);
    await chat.keys("y");
    await chat.until(() => spawnSync("pgrep", ["-f", "sleep 313"]).status === 0);
    await chat.keys("Escape");
    await chat.until("⏹ Cancelled.");
    await chat.until(() => spawnSync("pgrep", ["-f", "sleep 313"]).status === 1);
    await chat.until(atPrompt);
  });

  it("↑ brings back prompts of an earlier session of the project; Ctrl-D quits", async () => {
    await chat.keys("C-d");
    await chat.until(/^EXITED 0$/m);
    const history = readFileSync(path.join(home, "chat-history.jsonl"), "utf8");
    expect(history).toContain("hello again");
    const again = await startChat("again", []);
    await again.until(atPrompt);
    await again.keys("Up");
    await again.until(/^ wait a while$/m);
    await again.keys("Up");
    await again.until(/^ say a lot$/m);
    await again.keys("C-u");
    // `/resume` lists this folder's sessions; the pick replays the earlier one here.
    await again.type("/resume");
    await again.until(/Resume a session of this folder/);
    await again.keys("Enter");
    const replayed = await again.until((s) => s.includes("Three lines received.") && atPrompt(s));
    expect(replayed).toMatch(/^› first line/m);
    expect(replayed).toMatch(/^✗ Bash|^• Bash|sleep 313/m);
    await again.keys("C-d");
    await again.until(/^EXITED 0$/m);
    model.assertDone();
  });
});
