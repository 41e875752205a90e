import { type ChildProcess, spawn } from "node:child_process";
import { TEST_CEILING } from "./ceiling.js";
import { createCodexValidator } from "./codex-schema.js";
import { LAUNCHER } from "./spawn-agent.js";

// biome-ignore lint/suspicious/noExplicitAny: protocol JSON, asserted field by field in the tests
type Json = any;
type Message = Record<string, unknown> & {
  id?: number | string;
  method?: string;
  params?: Json;
  result?: Json;
};

/**
 * `bin/interpreter app-server` over stdio with a minimal Codex-style client: every line the
 * server writes is checked against the pinned Codex's generated schema (`violations`).
 */
export function spawnAppServer(options: {
  home: string;
  env?: Record<string, string>;
  args?: string[];
  /** Answers server→client requests (approvals); default: decline. */
  onServerRequest?: (message: Message) => unknown;
}) {
  const child: ChildProcess = spawn(LAUNCHER, ["app-server", ...(options.args ?? [])], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: options.home,
      INTERPRETER_HOME: options.home,
      ...TEST_CEILING,
      ...options.env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (c: string) => {
    stderr += c;
  });
  const validator = createCodexValidator();
  const messages: Message[] = [];
  const methods = new Map<number, string>();
  const pending = new Map<number, { resolve(v: Json): void; reject(e: Error): void }>();
  let next = 1;
  let buffer = "";
  const write = (m: Record<string, unknown>) => child.stdin!.write(`${JSON.stringify(m)}\n`);
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      let m: Message;
      try {
        m = JSON.parse(line);
      } catch {
        validator.violations.push(`not JSON: ${line.slice(0, 200)}`);
        continue;
      }
      messages.push(m);
      const answering = typeof m.id === "number" && !m.method ? methods.get(m.id) : undefined;
      validator.check(m, answering);
      if (m.method && m.id !== undefined) {
        void Promise.resolve(options.onServerRequest?.(m) ?? { decision: "decline" }).then((result) =>
          write({ id: m.id, result }),
        );
      } else if (typeof m.id === "number") {
        const waiter = pending.get(m.id);
        pending.delete(m.id);
        if (m.error) waiter?.reject(new Error(JSON.stringify(m.error)));
        else waiter?.resolve(m.result);
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    child,
    messages,
    violations: validator.violations,
    unchecked: validator.unchecked,
    exited,
    stderr: () => stderr,
    request(method: string, params: Record<string, unknown> = {}): Promise<Json> {
      const id = next++;
      methods.set(id, method);
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        write({ id, method, params });
      });
    },
    notify: (method: string, params: Record<string, unknown> = {}) => write({ method, params }),
    notifications: (method: string) => messages.filter((m) => m.method === method && m.id === undefined),
  };
}
