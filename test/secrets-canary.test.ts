import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { methods } from "@agentclientprotocol/sdk/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { buildChildEnv } from "../src/tools/exec/child-env.js";
import { createSandboxedExec } from "../src/tools/sandbox/sandboxed-exec.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { tempDir } from "./support/in-process.js";
import { type AgentProcess, spawnAgent } from "./support/spawn-agent.js";
import { INIT, testClient } from "./support/test-client.js";

/**
 * security.md K01 + K02 through the real daemon: secrets in the daemon's own environment reach
 * no command (whatever it prints or reads from /proc), and therefore no model request, ACP line,
 * stderr, database byte or log line. Only the provider key leaves, in the Authorization header.
 */

// Each value embeds a random token; a leak of the token (also of a part of a URL) is a leak.
const token = () => randomBytes(12).toString("hex");
const CANARY_VALUES: Record<string, (t: string) => string> = {
  OPENAI_API_KEY: (t) => `sk-proj-${t}`, // the provider key the daemon uses for the fake model
  ANTHROPIC_API_KEY: (t) => `sk-ant-api03-${t}`,
  GEMINI_API_KEY: (t) => `AIza${t}`,
  OPENROUTER_API_KEY: (t) => `sk-or-v1-${t}`,
  GITHUB_TOKEN: (t) => `ghp_${t}`,
  GH_TOKEN: (t) => `gho_${t}`,
  AWS_ACCESS_KEY_ID: (t) => `AKIA${t}`,
  AWS_SECRET_ACCESS_KEY: (t) => `aws-secret-${t}`,
  AWS_SESSION_TOKEN: (t) => `aws-session-${t}`,
  NPM_TOKEN: (t) => `npm_${t}`,
  NPM_CONFIG__AUTH: (t) => `npm-auth-${t}`,
  DATABASE_URL: (t) => `postgres://app:${t}@db.internal:5432/app`,
  REDIS_URL: (t) => `redis://default:${t}@cache.internal:6379`,
  PGPASSWORD: (t) => `pg-${t}`,
  MYAPP_PASSWORD: (t) => `hunter2-${t}`,
  SLACK_WEBHOOK_URL: (t) => `https://hooks.slack.com/services/T000/B000/${t}`,
  STRIPE_SECRET_KEY: (t) => `sk_live_${t}`,
  GOOGLE_APPLICATION_CREDENTIALS: (t) => `/secrets/gcp-${t}.json`,
  AZURE_CLIENT_SECRET: (t) => `azure-${t}`,
  HF_TOKEN: (t) => `hf_${t}`,
  SENTRY_DSN: (t) => `https://${t}@o0.ingest.sentry.io/1`,
  DOCKER_AUTH_CONFIG: (t) => `{"auths":{"registry":{"auth":"${t}"}}}`,
  CI_JOB_JWT: (t) => `eyJhbGciOi.${t}`,
  // Matches the allowlist (`LC_*`) and must still stay out because of its name.
  LC_API_TOKEN: (t) => `lc-${t}`,
};

interface Canary {
  name: string;
  value: string;
  token: string;
}

function makeCanaries(): Canary[] {
  return Object.entries(CANARY_VALUES).map(([name, shape]) => {
    const t = token();
    return { name, value: shape(t), token: t };
  });
}

/** Names of the canaries whose token occurs in `text`. */
const leaked = (canaries: Canary[], text: string | Buffer) =>
  canaries.filter((c) => text.includes(c.token)).map((c) => c.name);

// What the model runs: every way a command can look at its own, its parent's or anyone's
// environment, including a grandchild that left the process group. `where` says whether the
// command runs in the sandbox (the sandbox's init is pid 1, the command's parent).
const COMMANDS = {
  where: "echo ppid=$PPID; tr '\\0' ' ' </proc/1/cmdline; echo",
  env: "env",
  printenv: "printenv",
  procAll: "cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n'",
  procParent: "cat /proc/$PPID/environ | tr '\\0' '\\n'",
  node: "node -e 'console.log(JSON.stringify(process.env))'",
  python: "python3 -c 'import os;print(dict(os.environ))'",
  grandchild: "setsid sh -c 'env > grand.txt' & sleep 0.5; cat grand.txt",
} as const;
type CommandId = keyof typeof COMMANDS;
const ALL = Object.keys(COMMANDS) as CommandId[];
const PROC: CommandId[] = ["procAll", "procParent"];
/** The commands that see only what the allowlist gave them. */
const OWN_ENV = ALL.filter((id) => !PROC.includes(id));

// CI installs bubblewrap: there a missing sandbox fails the sandboxed run instead of skipping it.
// Without bubblewrap, workspace-write runs approved commands unconfined and a command could read
// the daemon's /proc/<pid>/environ, which is not what this run is about.
const probe = createSandboxedExec({ env: buildChildEnv(process.env), whenUnavailable: "refuse" });
const sandbox = await probe.status();
probe.dispose();
const sandboxRuns = sandbox.available || Boolean(process.env.CI);

let model: FakeModel | undefined;
let agent: AgentProcess | undefined;
const scratch: string[] = [];

afterEach(async () => {
  if (agent && agent.child.exitCode === null) agent.child.kill("SIGKILL");
  agent = undefined;
  await model?.close();
  model = undefined;
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  canaries: Canary[];
  home: string;
  cwd: string;
  model: FakeModel;
  agent: AgentProcess;
  ids: CommandId[];
  permissions: number;
  /** What the model received as each command's result (from the last request). */
  outputs: Partial<Record<CommandId, string>>;
}

async function runCanaryTurn(
  mode: "workspace-write" | "full-access",
  ids: CommandId[],
  config = "",
): Promise<Run> {
  const canaries = makeCanaries();
  const home = tempDir("oi-canary-home-");
  const cwd = tempDir("oi-canary-ws-");
  scratch.push(home, cwd);
  writeFileSync(path.join(home, "config.toml"), `mode = "${mode}"\n${config}`);
  model = await startFakeModel({ models: ["mock-model"] });
  agent = spawnAgent({
    home,
    env: {
      ...Object.fromEntries(canaries.map((c) => [c.name, c.value])),
      OPENAI_BASE_URL: model.url,
      // Everything the daemon can log, so the log scan covers the most.
      INTERPRETER_LOG: "trace",
    },
    args: ["-m", "mock-model"],
  });
  const editor = testClient();
  const connection = editor.app.connect(agent.stream);
  await connection.agent.request(methods.agent.initialize, INIT);
  const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
  model.reply(
    ...ids.map((id) => ({
      toolCalls: [{ id, name: "exec_command", arguments: { cmd: COMMANDS[id], yield_time_ms: 30_000 } }],
    })),
    { text: "Looked at the environment." },
  );
  const response = await connection.agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "show me every environment variable you can find" }],
  });
  expect(response.stopReason).toBe("end_turn");
  model.assertDone();
  // A clean exit: the database is checkpointed and the log flushed before we read them.
  agent.child.stdin!.end();
  expect(await agent.exited).toEqual({ code: 0, signal: null });

  const messages = model.requests.at(-1)!.body.messages as {
    role: string;
    tool_call_id?: string;
    content: unknown;
  }[];
  const outputs: Run["outputs"] = {};
  for (const id of ids) {
    const message = messages.find((m) => m.role === "tool" && m.tool_call_id === id);
    expect(message, `result of ${id}`).toBeDefined();
    outputs[id] = typeof message!.content === "string" ? message!.content : JSON.stringify(message!.content);
  }
  return { canaries, home, cwd, model, agent, ids, permissions: editor.permissions.length, outputs };
}

/** Every file under `dir`, raw bytes (SQLite main file, -wal and -shm included while they exist). */
function filesUnder(dir: string): { file: string; bytes: Buffer }[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).isFile())
    .map((file) => ({ file, bytes: readFileSync(file) }));
}

/** The commands really ran and printed an environment, so a canary would have been printed too. */
function assertCommandsPrintedTheirEnvironment(run: Run): void {
  const { home, outputs } = run;
  // The allowlisted HOME and the forced PAGER sit in every environment a command gets.
  for (const id of ["env", "printenv", "procAll", "procParent", "grandchild"] as const) {
    if (outputs[id] === undefined) continue;
    expect(outputs[id], id).toContain(`HOME=${home}`);
    expect(outputs[id], id).toContain("PAGER=cat");
  }
  if (outputs.node !== undefined) {
    expect(outputs.node).toContain(`"HOME":"${home}"`);
    expect(outputs.node).toContain('"PAGER":"cat"');
  }
  if (outputs.python !== undefined) {
    expect(outputs.python).toContain(`'HOME': '${home}'`);
    expect(outputs.python).toContain("'PAGER': 'cat'");
  }
  if (outputs.grandchild !== undefined) {
    expect(readFileSync(path.join(run.cwd, "grand.txt"), "utf8")).toContain(`HOME=${home}`);
  }
}

/** K01 + K02: no canary token in any output, request, protocol line, stderr, file or log. */
function assertNoLeaks(run: Run): void {
  const { canaries, home, model, agent } = run;
  const providerKey = canaries.find((c) => c.name === "OPENAI_API_KEY")!;
  assertCommandsPrintedTheirEnvironment(run);

  for (const [id, output] of Object.entries(run.outputs)) expect(leaked(canaries, output), id).toEqual([]);
  for (const { file, bytes } of filesUnder(run.cwd)) expect(leaked(canaries, bytes), file).toEqual([]);

  // Every request to the model: bodies (every tool result the model ever saw) and headers. The
  // provider key is allowed in exactly one place, the Authorization header.
  expect(model.requests).toHaveLength(run.ids.length + 1);
  for (const [i, request] of model.requests.entries()) {
    expect(leaked(canaries, JSON.stringify(request.body)), `request ${i} body`).toEqual([]);
    const { authorization, ...headers } = request.headers;
    expect(authorization, `request ${i}`).toBe(`Bearer ${providerKey.value}`);
    expect(leaked(canaries, JSON.stringify(headers)), `request ${i} headers`).toEqual([]);
  }

  // The ACP stream carried the command output to the editor, so a leak would show there.
  const stdout = agent.lines.join("\n");
  expect(agent.violations).toEqual([]);
  expect(stdout).toContain("PAGER=cat");
  expect(leaked(canaries, stdout), "ACP stdout").toEqual([]);
  expect(leaked(canaries, agent.stderr()), "stderr").toEqual([]);

  // Every file in the daemon's home as raw bytes: the database (which holds the command output)
  // and the log (which is not empty).
  const files = filesUnder(home);
  const db = files.filter((f) => path.basename(f.file).startsWith("openinterpreter.db"));
  const logs = files.filter((f) => f.file.startsWith(path.join(home, "log") + path.sep));
  expect(db.map((f) => path.basename(f.file))).toContain("openinterpreter.db");
  expect(Buffer.concat(db.map((f) => f.bytes)).includes("PAGER=cat")).toBe(true);
  expect(logs.map((f) => path.relative(home, f.file))).toContain(path.join("log", "openinterpreter.log"));
  expect(logs.reduce((sum, f) => sum + f.bytes.length, 0)).toBeGreaterThan(0);
  for (const { file, bytes } of files) expect(leaked(canaries, bytes), file).toEqual([]);
}

describe("canary secrets in the daemon's environment (security.md K01, K02)", () => {
  it.skipIf(!sandboxRuns)(
    "workspace-write: approved commands run in the sandbox and find none of them, not even in /proc",
    async () => {
      expect(sandbox, sandbox.available ? "" : sandbox.reason).toMatchObject({ available: true });
      const run = await runCanaryTurn("workspace-write", ALL, "[sandbox]\nper_session_helper = false\n");
      expect(run.outputs.where).toContain("ppid=1\n");
      expect(run.outputs.where).not.toContain("--confined");
      // Not every command is known read-only: some were asked about and approved.
      expect(run.permissions).toBeGreaterThan(0);
      assertNoLeaks(run);
    },
    60_000,
  );

  it.skipIf(!sandboxRuns || process.getuid?.() !== 0)(
    "workspace-write with a confined helper per sandbox (root: it needs a pids cgroup): none either",
    async () => {
      // The parent is the helper, whose environ is refused (sandbox-helper.test.ts), so it
      // cannot be printed for the check that each command printed an environment.
      // The first commands run in a sandbox of their own while the helper starts: `where` last.
      const ids = [...ALL.filter((id) => id !== "procParent" && id !== "where"), "where" as const];
      const run = await runCanaryTurn("workspace-write", ids);
      expect(run.outputs.where).toMatch(/ppid=1\n.*--confined/);
      expect(run.permissions).toBeGreaterThan(0);
      assertNoLeaks(run);
    },
    60_000,
  );

  it("full-access: unsandboxed commands get none of them in their environment", async () => {
    const run = await runCanaryTurn("full-access", OWN_ENV);
    expect(run.outputs.where).not.toContain("ppid=1\n");
    expect(run.permissions).toBe(0);
    assertNoLeaks(run);
  }, 60_000);

  // Outside the sandbox a command runs as the daemon's user and can read the daemon's own
  // /proc/<pid>/environ: the daemon zeroes that block at start-up, keeping its keys in memory only.
  it("full-access: the daemon's /proc/<pid>/environ holds none of them", async () => {
    const run = await runCanaryTurn("full-access", ["procParent"]);
    // The command read the block (now zeros, printed as newlines), and found nothing in it.
    expect(run.outputs.procParent!.length).toBeGreaterThan(100);
    expect(leaked(run.canaries, run.outputs.procParent!)).toEqual([]);
    // The daemon still has its key: the model was reached with it.
    const key = run.canaries.find((c) => c.name === "OPENAI_API_KEY")!;
    expect(run.model.requests.at(-1)!.headers.authorization).toBe(`Bearer ${key.value}`);
  }, 60_000);

  it("the canaries are a real test: at least 20, each unique, each found where it is printed", () => {
    const canaries = makeCanaries();
    expect(canaries.length).toBeGreaterThanOrEqual(20);
    expect(new Set(canaries.map((c) => c.token)).size).toBe(canaries.length);
    const inherited = canaries.map((c) => `${c.name}=${c.value}`).join("\n");
    expect(leaked(canaries, inherited)).toEqual(canaries.map((c) => c.name));
  });
});
