import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createProvider } from "../src/providers/create-provider.js";
import { listModels } from "../src/providers/list-models.js";
import type { ModelRequest } from "../src/providers/model-request.js";
import type { ProviderEvent } from "../src/providers/types.js";
import { checkById, type DoctorJson, runCli } from "./support/doctor-run.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { tempDir } from "./support/in-process.js";

// llama.cpp's server closes each connection right after its response without saying
// `Connection: close`; a client that puts the socket back in its pool finds it dead on a later
// request (ECONNRESET / socket hang up). The fake does the same with `closeAfterResponse`.

const hi: ModelRequest = {
  system: [],
  messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
  tools: [],
};

let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

describe("a server that closes every connection after its response", () => {
  it.each(["chat", "responses", "messages"] as const)("%s: five requests in a row all pass", async (wire) => {
    model = await startFakeModel({ closeAfterResponse: true });
    const provider = createProvider({
      providerId: "llama.cpp",
      baseUrl: model.url,
      model: "m",
      wire,
      maxRetries: 0,
    });
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) {
      model.reply({ text: `answer ${i}` });
      const events: ProviderEvent[] = [];
      for await (const event of provider.stream(hi, { signal: new AbortController().signal }))
        events.push(event);
      answers.push(
        events.map((e) => (e.type === "text" ? e.text : e.type === "error" ? e.error.message : "")).join(""),
      );
    }
    expect(answers).toEqual([0, 1, 2, 3, 4].map((i) => `answer ${i}`));
    // Each request had a connection of its own: the server closed every one.
    expect(new Set(model.requests.map((r) => r.clientPort)).size).toBe(5);
    model.assertDone();
  });

  it("the model list (plain node:http, no pool) passes five times in a row", async () => {
    model = await startFakeModel({ closeAfterResponse: true, models: ["m"] });
    const endpoint = { providerId: "llama.cpp", baseUrl: model.url, model: "m" };
    for (let i = 0; i < 5; i++)
      expect(await listModels({ endpoint, signal: new AbortController().signal, timeoutMs: 5_000 })).toEqual([
        "m",
      ]);
  });

  it("doctor: model list, both probes and the window probe all pass, five runs in a row", async () => {
    model = await startFakeModel({
      closeAfterResponse: true,
      models: ["m"],
      info: { props: { default_generation_settings: { n_ctx: 131072 } } },
    });
    const home = tempDir("oi-doctor-keepalive-");
    writeFileSync(path.join(home, "config.toml"), "");
    for (let run = 0; run < 5; run++) {
      model.reply({ text: "ok" }, { toolCalls: [{ name: "doctor_ping", arguments: {} }] });
      const result = await runCli(["doctor", "--json", "--timeout", "10", "-m", "m"], {
        home,
        env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-doctor-test" },
      });
      const report = JSON.parse(result.stdout) as DoctorJson;
      for (const id of ["endpoint", "models", "streaming", "tools", "window"])
        expect({ run, id, status: checkById(report, id).status }).toEqual({ run, id, status: "ok" });
    }
    model.assertDone();
  });
});

describe("doctor on each wire", () => {
  it.each(["responses", "messages"] as const)(
    "%s: the provider line names the wire, both probes go to its route and pass",
    async (wire) => {
      model = await startFakeModel({ models: ["m"] });
      const home = tempDir("oi-doctor-wire-");
      writeFileSync(
        path.join(home, "config.toml"),
        `model_provider = "fake"\n[model_providers.fake]\nbase_url = "${model.url}"\nenv_key = "FAKE_KEY"\nwire_api = "${wire}"\n`,
      );
      model.reply({ text: "ok" }, { toolCalls: [{ name: "doctor_ping", arguments: {} }] });
      const result = await runCli(["doctor", "--json", "--timeout", "10", "-m", "m"], {
        home,
        env: { FAKE_KEY: "sk-doctor-test" },
      });
      const report = JSON.parse(result.stdout) as DoctorJson;
      for (const id of ["endpoint", "models", "streaming", "tools"])
        expect({ id, status: checkById(report, id).status }).toEqual({ id, status: "ok" });
      expect(checkById(report, "provider").detail).toContain(`fake on ${wire}`);
      expect(model.requests.map((r) => r.path)).toEqual(
        Array(2).fill(wire === "responses" ? "/v1/responses" : "/v1/messages"),
      );
      model.assertDone();
    },
  );
});
