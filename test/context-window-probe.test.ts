import { afterEach, describe, expect, it } from "vitest";
import { probeContextWindow, serverRoot } from "../src/providers/probe-context-window.js";
import { chooseWindow, type ServedWindow } from "../src/providers/served-window.js";
import type { ModelEndpoint } from "../src/providers/types.js";
import { createWindowCache } from "../src/providers/window-cache.js";
import { fromOllama } from "../src/providers/window-readers.js";
import { judgeFit } from "../src/sessions/window-fit.js";
import { type FakeModel, type ServerInfo, startFakeModel } from "./support/fake-model.js";

let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function probe(info: ServerInfo, id = "local-model") {
  model = await startFakeModel({ models: [id, "other"], info });
  const endpoint: ModelEndpoint = { providerId: "local", baseUrl: model.url, model: id, apiKey: "sk-local" };
  return probeContextWindow({ endpoint });
}

const ollamaShow = (parameters: string, native = 40_960) => ({
  parameters,
  details: { family: "qwen3" },
  model_info: { "general.architecture": "qwen3", "qwen3.context_length": native },
});

describe("learning the context window from the server", () => {
  it("llama.cpp: the per-slot n_ctx of /props at the server root, with the key sent", async () => {
    const served = await probe({ props: { total_slots: 1, default_generation_settings: { n_ctx: 8192 } } });
    expect(served).toMatchObject({ tokens: 8192, server: "llama.cpp" });
    expect(served?.source).toContain("/props");
    const props = model!.infoRequests.find((r) => r.path === "/props");
    expect(props?.headers.authorization).toBe("Bearer sk-local");
  });

  it("llama.cpp: names the parallel slots that share -c", async () => {
    const served = await probe({
      props: { n_ctx: 16384, total_slots: 4, default_generation_settings: { n_ctx: 4096 } },
    });
    expect(served).toMatchObject({ tokens: 4096, slots: 4 });
  });

  it("Ollama: the model's num_ctx from /api/show, capped at the model's own length", async () => {
    const served = await probe({
      ollamaShow: ollamaShow('num_ctx                        8192\nstop "<|im_end|>"'),
    });
    expect(served).toMatchObject({ tokens: 8192, server: "ollama", modelfile: true });
    const show = model!.infoRequests.find((r) => r.path === "/api/show");
    expect(show?.body).toEqual({ model: "local-model" });
    expect(fromOllama({ show: ollamaShow("num_ctx 65536", 32_768), ps: undefined, model: "m" })?.tokens).toBe(
      32_768,
    );
  });

  it("Ollama: the loaded model's context from /api/ps wins; without either, the default is assumed", async () => {
    const loaded = await probe(
      {
        ollamaShow: ollamaShow('stop "<|im_end|>"'),
        ollamaPs: { models: [{ name: "qwen3:latest", model: "qwen3:latest", context_length: 8192 }] },
      },
      "qwen3",
    );
    expect(loaded).toMatchObject({ tokens: 8192, server: "ollama" });
    expect(loaded?.assumed).toBeUndefined();
    await model?.close();
    const unloaded = await probe({ ollamaShow: ollamaShow('stop "<|im_end|>"'), ollamaPs: { models: [] } });
    expect(unloaded).toMatchObject({ tokens: 4096, server: "ollama", assumed: true });
    expect(unloaded?.source).toContain("assumed");
  });

  it("vLLM and SGLang: max_model_len in /models, trusted before the root routes", async () => {
    const vllm = await probe({
      modelFields: { owned_by: "vllm", max_model_len: 8192 },
      props: { n_ctx: 65536 },
    });
    expect(vllm).toMatchObject({ tokens: 8192, server: "vllm" });
    await model?.close();
    const sglang = await probe({ modelFields: { owned_by: "sglang", max_model_len: 32768 } });
    expect(sglang).toMatchObject({ tokens: 32768, server: "sglang" });
  });

  it("OpenRouter and others: context_length in /models", async () => {
    expect(await probe({ modelFields: { context_length: 131072 } })).toMatchObject({
      tokens: 131072,
      server: "listed",
    });
  });

  it("LM Studio: loaded_context_length once loaded, else the model's maximum as an assumption", async () => {
    const id = "qwen/qwen3-4b";
    const loaded = await probe(
      { lmStudio: { id, state: "loaded", max_context_length: 32768, loaded_context_length: 8192 } },
      id,
    );
    expect(loaded).toMatchObject({ tokens: 8192, server: "lmstudio" });
    expect(model!.infoRequests.some((r) => r.path === `/api/v0/models/${id}`)).toBe(true);
    await model?.close();
    const unloaded = await probe({ lmStudio: { id, state: "not-loaded", max_context_length: 32768 } }, id);
    expect(unloaded).toMatchObject({ tokens: 32768, assumed: true });
  });

  it("a server that says nothing, an unreachable one and a bad base URL: undefined, never a throw", async () => {
    expect(await probe({})).toBeUndefined();
    expect(model!.errors).toEqual([]);
    const url = model!.url;
    await model!.close();
    model = undefined;
    const endpoint = { providerId: "x", baseUrl: url, model: "m" };
    expect(await probeContextWindow({ endpoint })).toBeUndefined();
    expect(await probeContextWindow({ endpoint: { ...endpoint, baseUrl: "not a url" } })).toBeUndefined();
  });

  it("finds the server root behind /v1 and behind a proxy prefix", () => {
    expect(serverRoot("http://127.0.0.1:11434/v1")?.href).toBe("http://127.0.0.1:11434/");
    expect(serverRoot("http://host/proxy/v1/?x=1")?.href).toBe("http://host/proxy/");
    expect(serverRoot("http://host:8080")?.href).toBe("http://host:8080/");
  });
});

describe("the session's window", () => {
  const served: ServedWindow = { tokens: 8192, server: "llama.cpp", source: "llama.cpp /props n_ctx" };

  it("config wins over the server, the server over the table", () => {
    expect(chooseWindow({ model: "gpt-5", configured: 65536, served })).toMatchObject({
      tokens: 65536,
      from: "config",
    });
    expect(chooseWindow({ model: "gpt-5", served })).toMatchObject({ tokens: 8192, from: "server" });
    expect(chooseWindow({ model: "gpt-5" })).toEqual({ tokens: 272_000, from: "table" });
  });

  it("asks once per model, joins a probe under way, and asks again after an assumed answer", async () => {
    const asked: string[] = [];
    let assumed = true;
    const cache = createWindowCache({
      probe: async (m) => {
        asked.push(m);
        return { ...served, ...(assumed ? { assumed: true } : {}) };
      },
    });
    await Promise.all([cache.learn("a"), cache.learn("a")]);
    expect(asked).toEqual(["a"]);
    assumed = false;
    expect((await cache.learn("a"))?.assumed).toBeUndefined();
    await cache.learn("a");
    await cache.learn("b");
    expect(asked).toEqual(["a", "a", "b"]);
  });

  it("a failing probe is cached as no answer", async () => {
    let calls = 0;
    const cache = createWindowCache({
      probe: async () => {
        calls++;
        throw new Error("boom");
      },
    });
    expect(await cache.learn("a")).toBeUndefined();
    expect(await cache.learn("a")).toBeUndefined();
    expect(calls).toBe(1);
  });

  it("judges the first request with a margin of 25 % of the window, at least 4096 tokens", () => {
    expect(judgeFit(7520, 8192)).toMatchObject({
      margin: 4096,
      fits: false,
      overflows: false,
      suggested: 16384,
    });
    expect(judgeFit(1043, 8192)).toMatchObject({ fits: true });
    expect(judgeFit(9000, 8192)).toMatchObject({ overflows: true, suggested: 16384 });
    expect(judgeFit(10000, 32768)).toMatchObject({ margin: 8192, fits: true });
    expect(judgeFit(13000, 16384).suggested).toBe(32768);
  });
});
