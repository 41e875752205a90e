import { createHash } from "node:crypto";

/** OpenAI function names: `^[a-zA-Z0-9_-]{1,64}$`. */
const MAX_LENGTH = 64;
const HASH_LENGTH = 12;
const INVALID = /[^a-zA-Z0-9_-]/g;

export interface RawToolName {
  server: string;
  tool: string;
}

/**
 * Model-visible names for MCP tools, Codex style: `mcp__<server>__<tool>`, every character
 * outside `[a-zA-Z0-9_-]` replaced by `_`. The server part never contains `__` (runs of `_`
 * collapse), so the first `__` after the prefix always ends it. When a name is longer than 64
 * characters, or several tools would get the same name, each of them is cut and given `_` plus
 * the first 12 hex digits of the SHA-1 of its raw server and tool names. Every member of a
 * colliding group is hashed, so a tool's name never depends on the order servers answered in.
 * Returns one name per input, in order, all distinct.
 */
export function modelToolNames(tools: readonly RawToolName[]): string[] {
  const plain = tools.map(({ server, tool }) => `mcp__${serverPart(server)}__${tool.replace(INVALID, "_")}`);
  const counts = new Map<string, number>();
  for (const name of plain) counts.set(name, (counts.get(name) ?? 0) + 1);
  const taken = new Set<string>();
  return plain.map((name, index) => {
    const raw = tools[index]!;
    let chosen = name.length <= MAX_LENGTH && counts.get(name) === 1 ? name : hashed(name, raw, "");
    // Two different raw names hashing alike, or a plain name equal to a hashed one: salt until free.
    for (let salt = 1; taken.has(chosen); salt++) chosen = hashed(name, raw, String(salt));
    taken.add(chosen);
    return chosen;
  });
}

function serverPart(server: string): string {
  const part = server
    .trim()
    .replace(INVALID, "_")
    .replace(/_{2,}/g, "_")
    .replace(/^_+|_+$/g, "");
  return part === "" ? "server" : part;
}

function hashed(name: string, raw: RawToolName, salt: string): string {
  const digest = createHash("sha1").update(`${raw.server}\0${raw.tool}\0${salt}`).digest("hex");
  return `${name.slice(0, MAX_LENGTH - HASH_LENGTH - 1)}_${digest.slice(0, HASH_LENGTH)}`;
}
