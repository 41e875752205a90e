import { afterEach, describe, expect, it } from "vitest";
import { builtinHarnesses } from "../src/harnesses/harness-list.js";
import { prefixShare } from "../src/providers/prefix-share.js";
import { type FakeModel, type FakeStep, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess } from "./support/in-process.js";

let model: FakeModel;
let oi: InProcessAgent;

afterEach(async () => {
  await oi?.close();
  await model?.close();
});

/** One shell call and a closing answer, in each harness's own terms. */
function steps(harness: string, n: number): FakeStep[] {
  const command = `echo turn ${n}`;
  const native: Record<string, string> = {
    "claude-code": "Bash",
    "claude-code-bare": "Bash",
    "kimi-code": "Bash",
    "kimi-cli": "Shell",
    "gemini-cli": "run_shell_command",
    "qwen-code": "run_shell_command",
    pi: "bash",
    opencode: "bash",
    "little-coder": "bash",
    zcode: "Bash",
    "deepseek-tui": "exec_shell",
  };
  if (harness === "mini-swe-agent") {
    return [
      { text: `THOUGHT: run it.\n\n\`\`\`bash\n${command}\n\`\`\`` },
      { text: "THOUGHT: done.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```" },
    ];
  }
  if (harness === "swe-agent") {
    return [
      { text: `DISCUSSION\nRun it.\n\n\`\`\`\n${command}\n\`\`\`` },
      { text: "DISCUSSION\nDone.\n\n```\nexit\n```" },
    ];
  }
  if (harness === "terminus-2") {
    const done = JSON.stringify({ analysis: "Done.", plan: "", commands: [], task_complete: true });
    const batch = {
      analysis: "Run it.",
      plan: "",
      commands: [{ keystrokes: `${command}\n`, duration: 0.1 }],
    };
    return [{ text: JSON.stringify(batch) }, { text: done }, { text: done }];
  }
  if (harness === "hermes") {
    const call = JSON.stringify({ name: "shell_command", arguments: { command } });
    return [{ text: `Running it.\n<tool_call>\n${call}\n</tool_call>` }, { text: `Turn ${n} done.` }];
  }
  const call =
    harness === "codex" || harness === "minimal"
      ? { name: "exec_command", arguments: { cmd: command } }
      : { name: native[harness]!, arguments: { command } };
  return [{ text: "Running it.", toolCalls: [call] }, { text: `Turn ${n} done.` }];
}

/** A harness whose original speaks only Anthropic Messages (ZCode) runs on a Messages endpoint. */
const messagesOnly = (harness: { wires: readonly string[] }) => !harness.wires.includes("chat");
const MESSAGES_PROVIDER = (url: string) =>
  `model_provider = "fake"\n[model_providers.fake]\nbase_url = "${url}"\nenv_key = "FAKE_KEY"\nwire_api = "messages"\n`;

type Body = {
  system?: unknown;
  messages: Array<{ role: string; content?: unknown }>;
  tools?: unknown[];
  prompt_cache_key?: string;
};

/** User messages without qwen-code's date reminder, the one part that moves from prompt to prompt. */
function withoutDateReminder(messages: Body["messages"]): Body["messages"] {
  return messages.map((message) =>
    message.role === "user" && Array.isArray(message.content)
      ? {
          ...message,
          content: message.content.filter(
            (part: { text?: string }) => !part.text?.startsWith("<system-reminder>\nToday is"),
          ),
        }
      : message,
  );
}

describe("prompt caching: a stable prefix across the turns of a session", () => {
  it.each(builtinHarnesses().map((h) => [h.id, h] as const))(
    "%s: system prompt and tools byte-identical over 3 turns, each request a prefix of the next",
    async (id, harness) => {
      model = await startFakeModel();
      oi = await startInProcess({
        model,
        harnesses: [harness],
        configToml: `harness = "${id}"\nmode = "full-access"\n${messagesOnly(harness) ? MESSAGES_PROVIDER(model.url) : ""}`,
        ...(messagesOnly(harness) ? { env: { FAKE_KEY: "sk-fake" } } : {}),
        // An OpenAI-family id, so Codex sends its cache key.
        cli: { model: "gpt-5-mock" },
      });
      const { sessionId } = await oi.newSession();
      for (let turn = 1; turn <= 3; turn++) {
        model.reply(...steps(id, turn));
        expect(await oi.prompt(sessionId, `Turn ${turn}: run the command.`)).toBe("end_turn");
      }
      model.assertDone();
      const bodies = model.requests.map((r) => r.body as Body);
      expect(bodies).toHaveLength(3 * steps(id, 1).length);
      // The scripted calls are this harness's own: none came back as an unknown tool.
      expect(JSON.stringify(bodies)).not.toContain("unsupported call");
      // On Messages the system prompt is its own field, and the cache breakpoint moves to the newest message.
      const systemOf = (body: Body) => JSON.stringify(messagesOnly(harness) ? body.system : body.messages[0]);
      const system = systemOf(bodies[0]!);
      const tools = JSON.stringify(bodies[0]!.tools ?? []);
      for (const body of bodies) {
        expect(systemOf(body)).toBe(system);
        expect(JSON.stringify(body.tools ?? [])).toBe(tools);
      }
      // Every request repeats the previous one message for message, then adds to it (apart from
      // what the original itself moves: Qwen Code 0.24.4 puts its date reminder before the newest prompt).
      const stable = (messages: Body["messages"]) =>
        id === "qwen-code"
          ? withoutDateReminder(messages)
          : messagesOnly(harness)
            ? JSON.parse(JSON.stringify(messages).replaceAll(',"cache_control":{"type":"ephemeral"}', ""))
            : messages;
      for (let i = 1; i < bodies.length; i++) {
        const before = stable(bodies[i - 1]!.messages);
        expect(stable(bodies[i]!.messages).slice(0, before.length)).toEqual(before);
      }
      const share = prefixShare(bodies);
      expect(share.overall).toBeGreaterThan(0.9);
      for (const s of share.perRequest) expect(s).toBeGreaterThan(0.8);
      const keys = new Set(bodies.map((b) => b.prompt_cache_key));
      if (id === "codex" || id === "kimi-cli") expect([...keys]).toEqual([sessionId]);
      else if (id === "kimi-code") expect([...keys]).toEqual([`session_${sessionId}`]);
      else expect([...keys]).toEqual([undefined]);
    },
  );
});

describe("prefixShare", () => {
  const tools = [{ type: "function", function: { name: "x", description: "d".repeat(500), parameters: {} } }];
  const user = (text: string) => ({ role: "user", content: text });
  it("is near 1 when each request extends the last, and low when the start changes", () => {
    const a = { tools, messages: [{ role: "system", content: "S" }, user("one")] };
    const b = { tools, messages: [...a.messages, user("two")] };
    expect(prefixShare([a, b]).overall).toBeGreaterThan(0.99);
    // A date in the system prompt that changes between requests breaks the whole prefix after it.
    const dated = (day: string) => ({
      tools: [],
      messages: [{ role: "system", content: `Today: ${day}` }, user("x".repeat(1000))],
    });
    expect(prefixShare([dated("Mon"), dated("Tue")]).overall).toBeLessThan(0.05);
    expect(prefixShare([a]).perRequest).toEqual([]);
  });
});
