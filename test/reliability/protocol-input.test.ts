import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/in-process.js";
import { closedPort } from "./support/protocol-closed-port.js";
import { INIT_PARAMS, type Message, type RawDaemon, spawnRawDaemon } from "./support/protocol-daemon.js";

/**
 * Bad input on the ACP channel, end to end against `bin/interpreter.js acp`: every bad line is
 * answered the way JSON-RPC and the ACP SDK say (or, for notifications, not at all), and the
 * daemon keeps serving the next request on the same connection.
 */
let daemon: RawDaemon;
let cwd: string;
let nextId = 1;

beforeAll(async () => {
  const home = tempDir("oi-proto-home-");
  cwd = tempDir("oi-proto-ws-");
  mkdirSync(path.join(cwd, ".git"), { recursive: true });
  writeFileSync(path.join(cwd, ".git", "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(path.join(home, "config.toml"), "[model_providers.openai]\nrequest_max_retries = 0\n");
  daemon = spawnRawDaemon({
    home,
    env: { OPENAI_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1`, OPENAI_API_KEY: "sk-test" },
  });
});

afterAll(async () => {
  if (daemon.child.exitCode === null) daemon.child.kill("SIGKILL");
});

/**
 * Sends `line` (any bytes) and then a valid request; resolves with what came back for the line
 * once the valid request and the requests with `ids` (answered in any order) were answered.
 */
async function probe(line: string | Uint8Array, ...ids: unknown[]): Promise<Message[]> {
  const before = daemon.messages.length;
  const marker = `marker-${nextId++}`;
  for (const text of String(line).split("\n")) daemon.remember(text);
  await daemon.write(line);
  await daemon.send({ jsonrpc: "2.0", id: marker, method: "session/list", params: {} });
  const [answer] = await daemon.answers(marker);
  for (const id of ids) await daemon.answers(id);
  expect(answer).toHaveProperty("result.sessions");
  return daemon.messages.slice(before).filter((m) => m.id !== marker && m.method !== "session/update");
}

const request = (id: unknown, method: string, params?: unknown) =>
  `${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`;

describe("bad input on stdin", () => {
  it("refuses a request before initialize with -32600 naming the method (the SDK's gate)", async () => {
    await daemon.send({
      jsonrpc: "2.0",
      id: "early",
      method: "session/new",
      params: { cwd, mcpServers: [] },
    });
    const [answer] = await daemon.answers("early");
    expect(answer).toMatchObject({ error: { code: -32600 } });
    expect(answer!.error.message).toMatch(/initialized before 'session\/new'/);
    const init = await daemon.request("initialize", INIT_PARAMS);
    expect(init.result).toMatchObject({ protocolVersion: 1 });
  });

  it("answers broken JSON with -32700 (id null) and keeps the connection", async () => {
    for (const line of [
      '{"jsonrpc":"2.0","id":5,"method":\n',
      "not json at all\n",
      "{'single':1}\n",
      "\0\0\0\n",
    ]) {
      expect(await probe(line)).toEqual([
        { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } },
      ]);
    }
  });

  it("answers scalars with -32600 and a batch with one -32600, running nothing inside it", async () => {
    for (const line of ["42\n", '"text"\n', "null\n", "true\n"]) {
      const [answer, ...rest] = await probe(line);
      expect(answer).toMatchObject({ id: null, error: { code: -32600 } });
      expect(rest).toEqual([]);
    }
    const batch = `[${request("in-batch", "session/new", { cwd, mcpServers: [] }).trim()}]\n`;
    const answers = await probe(batch);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ id: null, error: { code: -32600, message: /batches/ } });
    expect(await probe("[]\n")).toHaveLength(1);
    expect(daemon.messages.some((m) => m.id === "in-batch")).toBe(false);
  });

  it("answers an unknown method with -32601 and ignores an unknown notification", async () => {
    const answers = await probe(request(41, "no/such_method", {}), 41);
    expect(answers).toEqual([
      expect.objectContaining({ id: 41, error: expect.objectContaining({ code: -32601 }) }),
    ]);
    expect(answers[0]!.error.message).toContain("no/such_method");
    expect(
      await probe(`${JSON.stringify({ jsonrpc: "2.0", method: "no/such_note", params: {} })}\n`),
    ).toEqual([]);
  });

  it("answers invalid params with -32602 naming the field", async () => {
    const [wrongType] = await probe(request(42, "session/new", { cwd: 42, mcpServers: [] }), 42);
    expect(wrongType).toMatchObject({ id: 42, error: { code: -32602, data: { cwd: expect.anything() } } });
    const [relative] = await probe(request(43, "session/new", { cwd: "not/absolute", mcpServers: [] }), 43);
    expect(relative).toMatchObject({ id: 43, error: { code: -32602 } });
    expect(relative!.error.message).toContain("not/absolute");
    const [noPrompt] = await probe(request(44, "session/prompt", { sessionId: "s" }), 44);
    expect(noPrompt).toMatchObject({ id: 44, error: { code: -32602, data: { prompt: expect.anything() } } });
    const [nullParams] = await probe(request(45, "session/new", null), 45);
    expect(nullParams).toMatchObject({ id: 45, error: { code: -32602 } });
  });

  it("says which session when a prompt names an unknown or a closed one", async () => {
    const prompt = [{ type: "text", text: "hi" }];
    const unknown = await daemon.request("session/prompt", { sessionId: "no-such-session", prompt });
    expect(unknown.error).toMatchObject({ code: -32002, data: { sessionId: "no-such-session" } });
    expect(unknown.error.message).toContain("no-such-session");

    const created = await daemon.request("session/new", { cwd, mcpServers: [] });
    const { sessionId } = created.result as { sessionId: string };
    expect((await daemon.request("session/close", { sessionId })).result).toEqual({});
    const closed = await daemon.request("session/prompt", { sessionId, prompt });
    expect(closed.error).toMatchObject({ code: -32002, data: { sessionId } });
    expect(closed.error.message).toContain(sessionId);
    expect(closed.error.message).toMatch(/not open/);
  });

  it("never answers a notification, whatever its params, and goes on", async () => {
    const notes = [
      { jsonrpc: "2.0", method: "session/cancel", params: { sessionId: 5 } },
      { jsonrpc: "2.0", method: "session/cancel" },
      { jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "never-was" } },
      { jsonrpc: "2.0", method: "session/cancel", params: "x".repeat(100_000) },
      { jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: { no: 1 } } },
    ];
    expect(await probe(notes.map((n) => `${JSON.stringify(n)}\n`).join(""))).toEqual([]);
  });

  it("accepts CRLF line endings and ignores empty lines", async () => {
    expect(await probe("\n\r\n   \n\t\r\n")).toEqual([]);
    const answers = await probe(request(46, "session/list", {}).replace("\n", "\r\n"), 46);
    expect(answers).toEqual([expect.objectContaining({ id: 46, result: expect.anything() })]);
  });

  it("refuses 10,000-level nesting with -32600, answering a request by its id", async () => {
    const deep = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
    const [asRequest] = await probe(
      `{"jsonrpc":"2.0","id":47,"method":"session/new","params":{"cwd":${deep}}}\n`,
      47,
    );
    expect(asRequest).toMatchObject({ id: 47, error: { code: -32600 } });
    // The SDK alone echoes this object back as error data and dies on the recursion.
    const [asGarbage] = await probe(`{"payload":${deep}}\n`);
    expect(asGarbage).toMatchObject({ id: null, error: { code: -32600 } });
    expect(await probe(`{"jsonrpc":"2.0","method":"session/cancel","params":${deep}}\n`)).toEqual([]);
  });

  it("answers invalid UTF-8 before the JSON with -32700 and tolerates it inside a string", async () => {
    const bad = Buffer.from([0xff, 0xfe, 0xc3]);
    expect(await probe(Buffer.concat([bad, Buffer.from(request(48, "session/list", {}))]))).toEqual([
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32700 }) }),
    ]);
    const inside = Buffer.from(
      request(49, "session/list", { cwd: "/tmp/__BAD__" }).replace("__BAD__", "\u0001"),
    );
    inside[inside.indexOf(1)] = 0xff;
    expect(await probe(inside, 49)).toEqual([expect.objectContaining({ id: 49, result: { sessions: [] } })]);
  });

  it("answers both requests that share an id", async () => {
    const line = request("twice", "session/list", {});
    await probe(line + line, "twice");
    expect(await daemon.answers("twice", 2)).toHaveLength(2);
    await probe("");
    expect(daemon.messages.filter((m) => m.id === "twice")).toHaveLength(2);
  });

  it("answers a line over 32 MiB with -32700 and keeps serving", async () => {
    const head = '{"jsonrpc":"2.0","id":50,"method":"session/list","params":{"cwd":"/';
    const chunk = "x".repeat(1024 * 1024);
    const before = daemon.messages.length;
    await daemon.write(head);
    for (let i = 0; i < 33; i++) await daemon.write(chunk);
    const answers = await probe('"}}\n');
    expect(answers).toEqual([{ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }]);
    expect(daemon.messages.slice(before).some((m) => m.id === 50)).toBe(false);
    expect(daemon.stderr()).toMatch(/dropped a \d{8}-byte message/);
  });

  it("wrote only schema-valid JSON-RPC, and exits 0 on stdin EOF", async () => {
    daemon.child.stdin.end();
    expect(await daemon.exited).toEqual({ code: 0, signal: null });
    expect(daemon.violations).toEqual([]);
    expect(daemon.stderr()).not.toMatch(/unhandled rejection|uncaught|TypeError|RangeError/i);
  });
});
