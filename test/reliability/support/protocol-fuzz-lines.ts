/**
 * Random and mutated ACP lines for the protocol fuzz test, from a seeded PRNG so a failing run
 * reproduces with `FUZZ_SEED=<seed>`. `expectedAnswer` says which id (if any) the daemon must
 * answer a line with, mirroring JSON-RPC, the SDK's classification and our framing rules.
 */

export type Rng = () => number;

/** mulberry32: small, fast, good enough to spread cases; the same seed gives the same lines. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FuzzContext {
  rng: Rng;
  cwd: string;
  /** Sessions that exist in the daemon (prompts to them start real turns against a dead endpoint). */
  sessionIds: string[];
  /** Ids of requests sent lately, for `$/cancel_request` to aim at. */
  recentIds: Json[];
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

const int = (rng: Rng, n: number) => Math.floor(rng() * n);
const pick = <T>(rng: Rng, items: readonly T[]): T => items[int(rng, items.length)]!;

/** A well-formed client message of a random kind (weights keep expensive work rare). */
function template(ctx: FuzzContext, id: Json): Obj {
  const { rng, cwd } = ctx;
  const sessionId = rng() < 0.85 ? pick(rng, ctx.sessionIds) : `unknown-${int(rng, 1000)}`;
  const request = (method: string, params: Obj): Obj => ({ jsonrpc: "2.0", id, method, params });
  const r = rng() * 100;
  if (r < 6)
    return request("initialize", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true } } });
  if (r < 7) return request("session/new", { cwd, mcpServers: [] });
  if (r < 7.1) return request("session/load", { sessionId, cwd, mcpServers: [] });
  if (r < 9) return request("session/resume", { sessionId, cwd });
  if (r < 20)
    return request("session/list", rng() < 0.5 ? {} : { cwd, cursor: rng() < 0.5 ? "bogus" : null });
  if (r < 21) return request("session/close", { sessionId: `unknown-${int(rng, 9)}` });
  if (r < 22) return request("session/delete", { sessionId: `unknown-${int(rng, 9)}` });
  if (r < 30)
    return request("session/set_mode", { sessionId, modeId: pick(rng, ["read-only", "auto", "nope"]) });
  if (r < 38) {
    const [configId, value] = pick(rng, [
      ["mode", "workspace-write"],
      ["model", "other-model"],
      ["harness", "pi"],
      ["harness", "no-such"],
      ["colour", "blue"],
    ] as const);
    return request("session/set_config_option", { sessionId, configId, value });
  }
  if (r < 40) return request("session/set_model", { sessionId, modelId: pick(rng, ["fuzz-model", ""]) });
  if (r < 41) {
    const text = pick(rng, [
      "hello",
      "/status",
      "/mode auto",
      "/harness codex",
      "/usage",
      "/compact",
      "fix it",
    ]);
    return request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
  }
  if (r < 55) return { jsonrpc: "2.0", method: "session/cancel", params: { sessionId } };
  if (r < 60)
    return {
      jsonrpc: "2.0",
      method: "$/cancel_request",
      params: { requestId: ctx.recentIds[int(rng, ctx.recentIds.length)] ?? id },
    };
  if (r < 65) return { jsonrpc: "2.0", id, result: { outcome: { outcome: "cancelled" } } };
  if (r < 70) return { jsonrpc: "2.0", id, error: { code: -32000, message: "client error" } };
  if (r < 75) return request(pick(rng, ["no/such", "session/update", "fs/read_text_file", "_ext/thing"]), {});
  return request("session/prompt", {
    sessionId: `unknown-${int(rng, 1000)}`,
    prompt: [{ type: "text", text: "x" }],
  });
}

/** A JSON value of a random type, sometimes huge or deeply nested. */
function wrongValue(rng: Rng): Json {
  const r = rng() * 100;
  if (r < 0.08) return "h".repeat(64 * 1024 + int(rng, 512 * 1024));
  if (r < 1) return nest(2 + int(rng, 400));
  if (r < 15) return int(rng, 2) === 0 ? -int(rng, 1e9) : 1e308;
  if (r < 30) return randomString(rng, int(rng, 40));
  if (r < 40) return null;
  if (r < 50) return rng() < 0.5;
  if (r < 65) return [int(rng, 9), "a", null];
  if (r < 80) return { type: pick(rng, ["text", "image", "resource", "bogus"]), text: 7 };
  return "";
}

function nest(depth: number): Json {
  let value: Json = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function randomString(rng: Rng, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++)
    out += String.fromCharCode(rng() < 0.9 ? 32 + int(rng, 95) : int(rng, 0xd800));
  return out;
}

/** Every (parent, key) in `value`, so a mutation can reach any field. */
function slots(value: Json, out: Array<[Obj | Json[], string | number]> = []) {
  if (Array.isArray(value)) {
    for (const [i, child] of value.entries()) {
      out.push([value, i]);
      slots(child, out);
    }
  } else if (value && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      out.push([value, key]);
      slots(child, out);
    }
  }
  return out;
}

function mutate(rng: Rng, message: Obj, n: number): void {
  const all = slots(message);
  const [parent, key] = all[int(rng, all.length)] ?? [message, "x"];
  const r = rng() * 100;
  if (r < 30) {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete (parent as Obj)[key];
  } else if (r < 70) (parent as Obj)[key as string] = wrongValue(rng);
  else if (r < 80) (parent as Obj)[randomString(rng, 6)] = wrongValue(rng);
  else if (r < 88) message.jsonrpc = pick(rng, ["1.0", 2, null, "2.0"]);
  else message.id = pick(rng, [n, `s${n}`, -n, n + 0.25, `${n}`, null, n * 1e290, { n }, [n], true]);
}

const encoder = new TextEncoder();

/** The next line (without its `\n`) for line number `n`. */
export function fuzzLine(ctx: FuzzContext, n: number, previous: Uint8Array | undefined): Uint8Array {
  const { rng } = ctx;
  const r = rng() * 100;
  if (r < 2 && previous) return previous; // a duplicate id
  if (r < 4) return encoder.encode(pick(rng, ["", "   ", "\t", "\r"]));
  if (r < 6) return randomBytes(rng, 1 + int(rng, 200));
  if (r < 7) return encoder.encode(pick(rng, ["42", '"s"', "null", "[]", "[1,2]", "true", "{}", "-0"]));
  if (r < 7.1) {
    // 10,000 levels: as params of a request, and as an object that is no JSON-RPC at all.
    const deep = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
    const text =
      rng() < 0.5 ? `{"jsonrpc":"2.0","id":${n},"method":"session/list","params":${deep}}` : `{"x":${deep}}`;
    return encoder.encode(text);
  }
  const id: Json = rng() < 0.5 ? n : `s${n}`;
  const message = template(ctx, id);
  const mutations = r < 35 ? 0 : 1 + int(rng, 3);
  for (let i = 0; i < mutations; i++) mutate(rng, message, n);
  let bytes = encoder.encode(JSON.stringify(message));
  const t = rng() * 100;
  if (t < 4)
    bytes = bytes.subarray(0, int(rng, bytes.length)); // truncated
  else if (t < 8)
    bytes = withByte(bytes, int(rng, bytes.length), pick(rng, [0xff, 0xc3, 0x80, 0x00, 0x22, 0x7d]));
  else if (t < 12) bytes = concat(bytes, encoder.encode("\r"));
  else if (t < 13) bytes = concat(encoder.encode("  \t"), bytes);
  return bytes;
}

function randomBytes(rng: Rng, length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    const byte = int(rng, 256);
    out[i] = byte === 10 ? 11 : byte;
  }
  return out;
}

function withByte(bytes: Uint8Array, at: number, byte: number): Uint8Array {
  const out = new Uint8Array(bytes);
  out[at] = byte;
  return out;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Mirrors `message-stream.ts` and the SDK's dispatch. `answered: false` means no answer at all. */
export function expectedAnswer(
  line: Uint8Array,
  decoder: { decode(bytes: Uint8Array): string },
): { answered: false } | { answered: true; id: unknown; method?: string } {
  const text = decoder.decode(line).trim();
  if (!text) return { answered: false };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { answered: true, id: null };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { answered: true, id: null };
  const m = value as Record<string, unknown>;
  const validId =
    m.id === null || typeof m.id === "string" || (typeof m.id === "number" && Number.isFinite(m.id));
  if (!("method" in m))
    return "id" in m || "result" in m || "error" in m ? { answered: false } : { answered: true, id: null };
  if (m.jsonrpc !== "2.0" || typeof m.method !== "string") return { answered: true, id: null };
  if (!("id" in m)) return { answered: false };
  return validId ? { answered: true, id: m.id, method: m.method } : { answered: true, id: null };
}
