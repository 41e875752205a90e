import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createProvider } from "../src/providers/create-provider.js";
import type { ModelRequest } from "../src/providers/model-request.js";
import type { ModelEndpoint, ProviderEvent } from "../src/providers/types.js";
import { type ConnectProxy, startConnectProxy } from "./support/connect-proxy.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";

// The SDK's dispatcher reads the proxy variables when a provider sends its first request, so
// each test sets them first and uses a new provider.

const hi: ModelRequest = {
  system: [],
  messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
  tools: [],
};
const NAMES = ["HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy"];

let model: FakeModel;
let proxy: ConnectProxy;
let saved: Record<string, string | undefined>;

beforeEach(async () => {
  saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
  for (const name of NAMES) delete process.env[name];
  model = await startFakeModel();
  proxy = await startConnectProxy();
});
afterEach(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await Promise.all([model.close(), proxy.close()]);
});

async function text(endpoint: ModelEndpoint): Promise<string> {
  const events: ProviderEvent[] = [];
  for await (const event of createProvider(endpoint).stream(hi, { signal: new AbortController().signal }))
    events.push(event);
  const last = events.at(-1);
  if (last?.type === "error") throw new Error(last.error.message);
  return events.map((e) => (e.type === "text" ? e.text : "")).join("");
}

describe.each(["chat", "responses"] as const)("%s provider behind a proxy", (wire) => {
  const endpoint = (): ModelEndpoint => ({
    providerId: "local",
    baseUrl: model.url,
    model: "m",
    wire,
    maxRetries: 0,
  });
  const target = () => new URL(model.url).host;

  it("HTTP_PROXY: the request goes through the proxy", async () => {
    process.env.HTTP_PROXY = proxy.url;
    model.reply({ text: "via proxy" });
    expect(await text(endpoint())).toBe("via proxy");
    expect(proxy.seen.some((line) => line.includes(target()))).toBe(true);
    model.assertDone();
  });

  it("HTTPS_PROXY alone does not catch an http:// endpoint; with HTTP_PROXY unset it goes direct", async () => {
    process.env.HTTPS_PROXY = proxy.url;
    model.reply({ text: "direct" });
    expect(await text(endpoint())).toBe("direct");
    expect(proxy.seen).toEqual([]);
  });

  it("HTTPS_PROXY: an https:// endpoint is reached through a CONNECT tunnel", async () => {
    process.env.HTTPS_PROXY = proxy.url;
    // The tunnel leads to the plain-HTTP fake, so TLS then fails: what matters is the CONNECT.
    const https = { ...endpoint(), baseUrl: model.url.replace("http:", "https:") };
    await expect(text(https)).rejects.toThrow(/local at https:/);
    expect(proxy.seen).toEqual([`CONNECT ${target()}`]);
  });

  it("NO_PROXY=127.0.0.1 bypasses the proxy", async () => {
    process.env.HTTP_PROXY = proxy.url;
    process.env.HTTPS_PROXY = proxy.url;
    process.env.NO_PROXY = "127.0.0.1";
    model.reply({ text: "bypassed" });
    expect(await text(endpoint())).toBe("bypassed");
    expect(proxy.seen).toEqual([]);
    model.assertDone();
  });
});
