import { createServer } from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { localServers, probeLocalServers } from "../src/providers/local-servers.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A port that accepts connections and never says a word. */
async function silentPort(): Promise<number> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as net.AddressInfo).port;
}

/** A port nothing listens on (a server was there a moment ago). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const portOf = (model: FakeModel) => Number(new URL(model.url).port);

describe("probeLocalServers", () => {
  it("finds the server that answers, with its models; one refusing and one hanging are not found", async () => {
    const model = await startFakeModel({ models: ["qwen2.5-coder:7b", "llama3.2:3b"] });
    cleanups.push(() => model.close());
    const [ollama, lmstudio, llamacpp] = localServers();
    const servers = [
      { ...ollama!, port: portOf(model) },
      { ...lmstudio!, port: await closedPort() },
      { ...llamacpp!, port: await silentPort() },
    ];
    const probes = await probeLocalServers({ servers, timeoutMs: 300 });
    expect(probes.map((p) => p.server.name)).toEqual(["Ollama", "LM Studio", "llama.cpp"]);
    expect(probes[0]).toMatchObject({
      found: true,
      baseUrl: `http://127.0.0.1:${portOf(model)}/v1`,
      models: ["qwen2.5-coder:7b", "llama3.2:3b"],
    });
    expect(probes[1]).toMatchObject({ found: false });
    expect(probes[1]).toMatchObject({ reason: "nothing listening" });
    expect(probes[2]).toMatchObject({ found: false });
    expect(probes[2]).toMatchObject({ reason: "no answer within 0.3 s" });
    expect(model.modelListRequests).toHaveLength(1);
    expect(model.requests).toHaveLength(0);
  });

  it("does not count a web server that answers with something else", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" }).end("<html><body>My app</body></html>");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
    const [, , , vllm] = localServers();
    const port = (server.address() as net.AddressInfo).port;
    const [probe] = await probeLocalServers({ servers: [{ ...vllm!, port }] });
    expect(probe).toMatchObject({ found: false, reason: "something answers, but not with a model list" });
  });

  it("lists the usual ports of the five servers", () => {
    expect(localServers().map((s) => [s.name, s.port])).toEqual([
      ["Ollama", 11434],
      ["LM Studio", 1234],
      ["llama.cpp", 8080],
      ["vLLM", 8000],
      ["SGLang", 30000],
    ]);
  });
});
