import { afterEach, describe, expect, it } from "vitest";
import type { HistoryEvent } from "../src/store/events.js";
import { checkById, type DoctorJson, runCli } from "./support/doctor-run.js";
import { type FakeModel, type ServerInfo, startFakeModel } from "./support/fake-model.js";
import { type InProcessAgent, startInProcess, tempDir } from "./support/in-process.js";

let model: FakeModel | undefined;
let oi: InProcessAgent | undefined;
afterEach(async () => {
  await oi?.close();
  await model?.close();
  oi = undefined;
  model = undefined;
});

const LLAMA_8K: ServerInfo = { props: { total_slots: 1, default_generation_settings: { n_ctx: 8192 } } };
const OLLAMA_8K: ServerInfo = {
  ollamaShow: { parameters: 'stop "<|im_end|>"', model_info: { "qwen3.context_length": 40960 } },
  ollamaPs: { models: [{ name: "mock-model:latest", context_length: 8192 }] },
};
const VLLM_8K: ServerInfo = { modelFields: { owned_by: "vllm", max_model_len: 8192 } };

/** The window-fit warnings among a session's notices (this machine may add a sandbox one). */
const warnings = (events: HistoryEvent[]) =>
  events.flatMap((e) =>
    e.type === "notice" && e.severity === "warning" && e.text.includes("harness's first request")
      ? [e.text]
      : [],
  );

async function agent(info: ServerInfo, options: { configToml?: string; harness?: string } = {}) {
  model = await startFakeModel({ models: ["mock-model"], info });
  oi = await startInProcess({
    model,
    configToml: options.configToml ?? "",
    cli: { model: "mock-model", ...(options.harness ? { harness: options.harness } : {}) },
  });
  const { sessionId } = await oi.newSession();
  return { sessionId, history: () => oi!.runtime.store.history(sessionId) };
}

/** The context size the editor's meter shows after the turn. */
function meterSize(sessionId: string): number | undefined {
  const usage = oi!.editor.updates(sessionId).filter((u) => u.sessionUpdate === "usage_update");
  return (usage.at(-1) as { size?: number } | undefined)?.size;
}

describe("does the harness fit the model's window", () => {
  for (const [server, info, remedy] of [
    ["llama.cpp /props", LLAMA_8K, "start llama-server with `-c 16384`"],
    ["Ollama /api/ps", OLLAMA_8K, "`OLLAMA_CONTEXT_LENGTH=16384 ollama serve`"],
    ["vLLM max_model_len", VLLM_8K, "start vLLM with `--max-model-len 16384`"],
  ] as const) {
    it(`codex against an 8K window from ${server}: warned before the request is sent, the turn goes on`, async () => {
      const { sessionId, history } = await agent(info);
      let warnedBeforeSending: string[] = [];
      model!.reply({ text: "hello", expect: () => (warnedBeforeSending = warnings(history())) });
      expect(await oi!.prompt(sessionId, "hi")).toBe("end_turn");
      model!.assertDone();
      expect(warnedBeforeSending).toHaveLength(1);
      const [text] = warnedBeforeSending;
      expect(text).toMatch(
        /The codex harness's first request leaves too little room in mock-model's context window/,
      );
      expect(text).toMatch(/\(request ~\d+ tokens \+ margin 4096 > window 8192, from [^)]*\)/);
      expect(text).toContain(server.split(" ")[0]);
      expect(text).toContain(remedy);
      expect(text).toMatch(/Or use the lean `pi` harness \(first request ~\d+ tokens\): `\/harness pi`/);
      // The editor saw it as the agent's text ahead of the answer, and its meter uses the window.
      const said = oi!.editor.text(sessionId);
      expect(said.indexOf("**Warning:** The codex harness")).toBeLessThan(said.indexOf("hello"));
      expect(meterSize(sessionId)).toBe(8192);

      // Told once: the next turn sends without a second warning.
      model!.reply({ text: "again" });
      expect(await oi!.prompt(sessionId, "more")).toBe("end_turn");
      expect(warnings(history())).toHaveLength(1);
    });
  }

  it("pi fits the same 8K window: no warning, and the window is the server's", async () => {
    const { sessionId, history } = await agent(LLAMA_8K, { harness: "pi" });
    model!.reply({ text: "hello" });
    expect(await oi!.prompt(sessionId, "hi")).toBe("end_turn");
    expect(warnings(history())).toEqual([]);
    expect(meterSize(sessionId)).toBe(8192);
  });

  it("config model_context_window wins over the server, which is then not asked", async () => {
    const { sessionId, history } = await agent(LLAMA_8K, { configToml: "model_context_window = 65536\n" });
    model!.reply({ text: "hello" });
    expect(await oi!.prompt(sessionId, "hi")).toBe("end_turn");
    expect(warnings(history())).toEqual([]);
    expect(meterSize(sessionId)).toBe(65536);
    expect(model!.infoRequests).toEqual([]);
  });

  it("a window the server states that the bare request alone exceeds: the turn stops, nothing is sent", async () => {
    const { sessionId, history } = await agent({ props: { default_generation_settings: { n_ctx: 4096 } } });
    await expect(oi!.prompt(sessionId, "hi")).rejects.toThrow(
      /first request does not fit mock-model's context window \(request ~\d+ tokens \+ margin 4096 > window 4096/,
    );
    expect(model!.requests).toHaveLength(0);
    const ended = history().at(-1);
    expect(ended).toMatchObject({ type: "turn_ended", stopReason: null });
    expect(JSON.stringify(ended)).toContain("start llama-server with `-c 16384`");
    // Not even pi's request leaves room in 4096 tokens, and the message says so.
    expect(JSON.stringify(ended)).toMatch(
      /Even the lean `pi` harness \(~\d+ tokens\) needs a window of 8192/,
    );
  });

  it("an assumed Ollama default only warns, and names how to confirm it", async () => {
    const { sessionId, history } = await agent({
      ollamaShow: { parameters: 'stop "<|im_end|>"', model_info: { "qwen3.context_length": 40960 } },
      ollamaPs: { models: [] },
    });
    model!.reply({ text: "hello" });
    expect(await oi!.prompt(sessionId, "hi")).toBe("end_turn");
    const [text] = warnings(history());
    expect(text).toContain("window 4096, from Ollama's default context");
    expect(text).toContain("`ollama ps`");
    expect(text).toContain("OLLAMA_CONTEXT_LENGTH=16384");
  });
});

describe("interpreter doctor: the context window check", () => {
  async function doctor(info: ServerInfo, args: string[]): Promise<DoctorJson> {
    model = await startFakeModel({ models: ["mock-model"], info });
    model.reply({ text: "ok" }, { toolCalls: [{ name: "doctor_ping", arguments: {} }] });
    const home = tempDir("oi-doctor-window-");
    const result = await runCli(["doctor", "--json", "-m", "mock-model", ...args], {
      home,
      cwd: tempDir("oi-doctor-ws-"),
      env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-doctor" },
    });
    expect(result.stderr).toBe("");
    return JSON.parse(result.stdout) as DoctorJson;
  }

  it("codex against llama.cpp's 8K: a warning with the counts and both remedies", async () => {
    const report = await doctor(LLAMA_8K, []);
    const check = checkById(report, "window");
    expect(check.title).toBe("Context window");
    expect(check.status).toBe("warn");
    expect(check.detail).toMatch(
      /^The codex harness's first request leaves too little room in mock-model's context window \(request ~\d+ tokens \+ margin 4096 > window 8192, from llama\.cpp \/props default_generation_settings\.n_ctx\)/,
    );
    expect(check.fix).toContain("Raise the window to at least 16384: start llama-server with `-c 16384`.");
    expect(check.fix).toMatch(/Or use the lean `pi` harness \(first request ~\d+ tokens\)/);
    expect(report.ok).toBe(true);
  });

  it("pi on the same server fits; a config window larger than the server's is a warning", async () => {
    const pi = checkById(await doctor(LLAMA_8K, ["--harness", "pi"]), "window");
    expect(pi.status).toBe("ok");
    expect(pi.detail).toMatch(
      /^pi's first request ~\d+ tokens \+ margin 4096 fits the 8192-token window \(from llama\.cpp/,
    );
    await model?.close();
    const configured = checkById(await doctor(LLAMA_8K, ["-c", "model_context_window=65536"]), "window");
    expect(configured.status).toBe("warn");
    expect(configured.detail).toContain(
      "fits the 65536-token window (from `model_context_window` in config.toml)",
    );
    expect(configured.detail).toContain("but the server's is 8192 (llama.cpp /props");
    expect(configured.fix).toContain("Lower `model_context_window`");
  });

  it("a request larger than the stated window fails, since sessions will not send it", async () => {
    const report = await doctor({ props: { n_ctx: 4096 } }, []);
    const check = checkById(report, "window");
    expect(check.status).toBe("fail");
    expect(check.detail).toContain("Sessions will not send it.");
    expect(report.ok).toBe(false);
  });
});
