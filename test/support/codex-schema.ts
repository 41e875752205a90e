import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { Ajv } from "ajv";

const require = createRequire(import.meta.url);

/** The pinned Codex CLI (the one codex-acp depends on) and its native binary, when installed. */
export function codexBin(): string | undefined {
  try {
    const bin = require.resolve("@openai/codex/bin/codex.js");
    const version = (require("@openai/codex/package.json") as { version: string }).version;
    return existsSync(bin) && version ? bin : undefined;
  } catch {
    return undefined;
  }
}

export function codexVersion(): string {
  return (require("@openai/codex/package.json") as { version: string }).version;
}

/**
 * `codex app-server generate-json-schema` of the pinned Codex, written once per machine and
 * version into the temp dir (Codex prints its protocol's schema itself: it is the truth).
 */
export function codexSchemaDir(): string {
  const bin = codexBin();
  if (!bin) throw new Error("@openai/codex is not installed");
  const dir = path.join(os.tmpdir(), `oi-codex-schema-${codexVersion()}`);
  if (existsSync(path.join(dir, "ServerNotification.json"))) return dir;
  const home = path.join(dir, "..", `oi-codex-home-${process.pid}`);
  mkdirSync(home, { recursive: true });
  execFileSync(process.execPath, [bin, "app-server", "generate-json-schema", "--out", dir], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, CODEX_HOME: home },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return dir;
}

/** Response type names that are not the method's name + `Response`. */
const RESPONSE_NAMES: Record<string, string> = {
  "account/read": "GetAccountResponse",
  "thread/name/set": "ThreadSetNameResponse",
};

/**
 * Checks every line a server writes: notifications and server→client requests against the
 * generated unions, responses against their method's response type. Returns what failed;
 * `unchecked` names our own methods (`interpreter/*`) that Codex's schema has no type for.
 */
export function createCodexValidator() {
  const dir = codexSchemaDir();
  const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
  const load = (file: string) => JSON.parse(readFileSync(file, "utf8")) as object;
  const notification = ajv.compile(load(path.join(dir, "ServerNotification.json")));
  const serverRequest = ajv.compile(load(path.join(dir, "ServerRequest.json")));
  const files = new Map<string, string>();
  for (const sub of ["", "v1", "v2"])
    for (const name of readdirSync(path.join(dir, sub)))
      if (name.endsWith("Response.json")) files.set(name.slice(0, -5), path.join(dir, sub, name));
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  const responseSchema = (method: string) => {
    const name =
      RESPONSE_NAMES[method] ??
      `${method
        .split(/[/_]/)
        .map((w) => w[0]!.toUpperCase() + w.slice(1))
        .join("")}Response`;
    const file = files.get(name);
    if (!file) return undefined;
    if (!compiled.has(name)) compiled.set(name, ajv.compile(load(file)));
    return compiled.get(name);
  };
  const violations: string[] = [];
  const unchecked = new Set<string>();
  const fail = (what: string, errors: unknown) =>
    violations.push(`${what}: ${JSON.stringify(errors).slice(0, 600)}`);
  return {
    violations,
    unchecked,
    /** One line the server wrote; `requestMethod` is the method of the client request it answers. */
    check(message: Record<string, unknown>, requestMethod?: string) {
      if (typeof message.method === "string") {
        const validate = message.id === undefined ? notification : serverRequest;
        const body = {
          method: message.method,
          params: message.params,
          ...(message.id === undefined ? {} : { id: message.id }),
        };
        if (!validate(body)) fail(`${message.method}`, validate.errors?.slice(0, 3));
        return;
      }
      if (!requestMethod || "error" in message) return;
      const validate = responseSchema(requestMethod);
      if (!validate) {
        unchecked.add(requestMethod);
        return;
      }
      if (!validate(message.result)) fail(`${requestMethod} response`, validate.errors?.slice(0, 3));
    },
  };
}
