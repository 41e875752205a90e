/**
 * The interactive chat driven as a person would: the built `bin/interpreter.js` runs in a real
 * terminal (a private tmux server), keys go in with `send-keys`, and what the screen shows comes
 * back with `capture-pane`. Only the model is fake.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { atPrompt, chatStarter, colourCodes } from "./support/chat-tmux.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { tempDir } from "./support/in-process.js";
import { needs } from "./support/requires.js";
import { tmuxServer } from "./support/tmux-session.js";

const server = tmuxServer(`oi-chat-test-${process.pid}`);

let model: FakeModel;
const home = tempDir("oi-home-");
const cwd = tempDir("oi-ws-");

const startChat = chatStarter({ server, home, cwd, modelUrl: () => model.url });

beforeAll(async () => {
  model = await startFakeModel({ models: ["mock-model"] });
});

afterAll(async () => {
  await server.kill();
  await model?.close();
});

needs("tmux").describe("interactive chat in a terminal", () => {
  let chat: Awaited<ReturnType<typeof startChat>>;

  it("streams the answer, runs a command and shows it as a ✓ line with folded output", async () => {
    chat = await startChat("main", []);
    await chat.until(atPrompt);
    model.reply(
      {
        reasoning: "Thinking about files.",
        text: "Listing numbers now.",
        toolCalls: [{ name: "exec_command", arguments: { cmd: "seq 1 30" } }],
      },
      { text: "Counted to thirty." },
    );
    await chat.type("count for me");
    const screen = await chat.until("Counted to thirty.");
    expect(screen).toContain("Thinking about files.");
    expect(screen).toContain("Listing numbers now.");
    expect(screen).toMatch(/^✓ seq 1 30$/m);
    // Folded: the first and last lines, with the middle counted.
    expect(screen).toMatch(/^ {4}1$/m);
    expect(screen).toMatch(/^ {4}… 25 more lines$/m);
    expect(screen).toMatch(/^ {4}30$/m);
    expect(screen).not.toMatch(/^ {4}15$/m);
    // Colours are on in a terminal: reasoning dimmed, the check mark green.
    const coloured = await chat.screen(true);
    expect(coloured).toContain("\x1b[");
  });

  it("Ctrl-O expands folded output and folds it again; Ctrl-T pages the whole transcript", async () => {
    await chat.until(atPrompt);
    await chat.keys("C-o");
    const expanded = await chat.until(/^ {4}15$/m);
    expect(expanded).not.toMatch(/… 25 more lines/);
    await chat.keys("C-o");
    await chat.until((s) => /^ {4}… 25 more lines$/m.test(s) && !/^ {4}15$/m.test(s));
    await chat.keys("C-t");
    const page = await chat.until(/transcript · lines \d+-\d+ of \d+/);
    // The page shows the session with its folds open.
    expect(page).toMatch(/^ {4}15$/m);
    await chat.keys("Escape");
    await chat.until((s) => atPrompt(s) && !s.includes("transcript · lines"));
  });

  it("asks before a command and runs it after `y`", async () => {
    model.reply(
      { toolCalls: [{ name: "exec_command", arguments: { cmd: "touch allowed.txt" } }] },
      { text: "Made the file." },
    );
    await chat.type("make a file");
    const question = await chat.until(/\[y\] yes +\[a\] always +\[n\] no +\[N\] never/);
    expect(question).toMatch(/^\? touch allowed\.txt$/m);
    expect(existsSync(path.join(cwd, "allowed.txt"))).toBe(false);
    await chat.keys("y");
    const screen = await chat.until("Made the file.");
    expect(screen).toMatch(/^✓ touch allowed\.txt$/m);
    expect(existsSync(path.join(cwd, "allowed.txt"))).toBe(true);
  });

  it("does not run a command rejected with `n`", async () => {
    model.reply(
      { toolCalls: [{ name: "exec_command", arguments: { cmd: "touch rejected.txt" } }] },
      { text: "Understood, not touching it." },
    );
    await chat.type("make another");
    await chat.until(/^\? touch rejected\.txt$/m);
    await chat.keys("n");
    const screen = await chat.until("Understood, not touching it.");
    expect(screen).toMatch(/^✗ touch rejected\.txt$/m);
    expect(existsSync(path.join(cwd, "rejected.txt"))).toBe(false);
    // The model was told the call was rejected.
    expect(JSON.stringify(model.requests.at(-1)?.body.messages.at(-1))).toMatch(/reject/i);
  });

  it("shows an edit as a coloured diff", async () => {
    model.reply(
      {
        toolCalls: [
          {
            name: "exec_command",
            arguments: {
              cmd: "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: notes.txt\n+first line\n+second line\n*** End Patch\nEOF",
            },
          },
        ],
      },
      { text: "Wrote the notes." },
    );
    await chat.type("write notes");
    const screen = await chat.until("Wrote the notes.");
    expect(screen).toMatch(/notes\.txt \(new file\) \+2 -0/);
    expect(screen).toMatch(/^ {4}\+ first line$/m);
    expect(screen).toMatch(/^ {4}\+ second line$/m);
    const coloured = await chat.screen(true);
    // The added lines are green (SGR 32).
    expect(coloured).toContain("\x1b[32m    + first line");
  });

  it("renders the answer's Markdown: no asterisks or backticks on screen", async () => {
    // Three characters a chunk: every marker arrives split across chunks.
    model.reply({ text: "It is **done** now.\n- `notes.txt`", chunkSize: 3 });
    await chat.type("summarise");
    const screen = await chat.until((s) => /^• notes\.txt$/m.test(s) && atPrompt(s));
    expect(screen).toMatch(/^It is done now\.$/m);
    expect(screen).not.toContain("**done**");
  });

  it("completes `/` names with Tab; a typed `/harness <id>` still runs as typed", async () => {
    const before = model.requests.length;
    await chat.keys("/harn");
    // pi-tui's completion list shows the agent's command with its description.
    await chat.until(/harness +Switch the tool harness/);
    await chat.keys("Tab");
    await chat.keys("-l", "codex");
    await chat.until(/^ \/harness codex$/m);
    await chat.keys("Enter");
    const screen = await chat.until(/Harness set to codex/);
    expect(screen).toMatch(/^› \/harness codex$/m);
    // Answered by the agent itself, not the model.
    expect(model.requests.length).toBe(before);
  });

  it("cancels a hanging turn with Ctrl-C, then answers the next prompt", async () => {
    model.reply({ hang: true }, { text: "Back in business." });
    await chat.type("this will hang");
    await chat.until(/Working · \d+s · ↓ \d+ tokens · Esc to interrupt/);
    await chat.keys("C-c");
    await chat.until("⏹ Cancelled.");
    await chat.until(atPrompt);
    await chat.type("are you there?");
    await chat.until("Back in business.");
    // The new prompt reached the model (after the cancelled one, which stays in the history).
    expect(model.requests.at(-1)?.body.messages.at(-1).content).toMatch(/are you there\?$/);
  });

  it("quits on Ctrl-D with exit code 0", async () => {
    await chat.keys("C-d");
    await chat.until(/^EXITED 0$/m);
  });

  it("--last resumes the session and shows the earlier exchange; NO_COLOR means no escape codes", async () => {
    const resumed = await startChat("resumed", ["--last"], { NO_COLOR: "1" });
    const screen = await resumed.until(atPrompt);
    expect(screen).toContain("› count for me");
    expect(screen).toContain("Counted to thirty.");
    // Without colours the Markdown is still laid out: no markers left.
    expect(screen).toMatch(/^It is done now\.$/m);
    expect(screen).toMatch(/^✓ touch allowed\.txt$/m);
    model.reply(
      {
        toolCalls: [
          {
            name: "exec_command",
            arguments: {
              cmd: "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: notes.txt\n@@\n-first line\n+changed line\n*** End Patch\nEOF",
            },
          },
        ],
      },
      { text: "Changed it." },
    );
    await resumed.type("change the notes");
    const after = await resumed.until("Changed it.");
    expect(after).toMatch(/^ {4}- first line$/m);
    expect(after).toMatch(/^ {4}\+ changed line$/m);
    // The model saw the earlier turns.
    expect(JSON.stringify(model.requests.at(-2)?.body.messages)).toContain("count for me");
    // NO_COLOR: not one colour code on the screen (the composer's cursor is reverse video).
    const raw = await resumed.screen(true);
    expect(raw).toContain("Changed it.");
    expect(colourCodes(raw)).toEqual([]);
    await resumed.keys("C-c");
    await resumed.until("Press Ctrl-C again");
    await resumed.keys("C-c");
    await resumed.until(/^EXITED 0$/m);
    model.assertDone();
  });
});
