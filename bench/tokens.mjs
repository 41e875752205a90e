// Context economy benchmark (not a test): the same scripted task (reading and editing real
// files, running the tests, one ~200 KB command output; 23 tool calls) under every harness,
// against the scripted model. Reports what each harness sends the model: bytes per request,
// total bytes, estimated tokens, the prefix-stable share (what a prompt cache could reuse) and
// the peak history size. A second table runs the task again with a small context window
// (`model_context_window`), against a model that reports usage as request bytes / 4 and refuses
// requests over the window like a real server, so automatic compaction has to keep it going.
// Writes bench/results/tokens.json and tokens.md.
// Usage: npm run bench:tokens
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream } from "@agentclientprotocol/sdk";
import { build } from "esbuild";
import { BIN, benchSetup, ROOT, round } from "./support.mjs";

const ALL_HARNESSES = [
  "codex",
  "claude-code",
  "claude-code-bare",
  "kimi-code",
  "qwen-code",
  "gemini-cli",
  "pi",
  "mini-swe-agent",
  "hermes",
];
/** `--only <harness>` runs one harness (for a look at it; the results files are not written). */
const ONLY = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;
const HARNESSES = ONLY ? [ONLY] : ALL_HARNESSES;

/** The small window of the second table: a local server's typical setting, in tokens. */
const SMALL_WINDOW = 24_000;

const { scratch, startFakeModel, replyChunks, openStore } = await benchSetup("oi-bench-tokens-");
// Built next to benchSetup's modules (node_modules/.cache) so their packages resolve.
const helpers = path.join(ROOT, "node_modules/.cache/oi-bench/tokens-helpers.mjs");
await build({
  stdin: {
    contents: [
      'export { prefixShare } from "./src/providers/prefix-share.ts";',
      'export { builtinHarnesses } from "./src/harnesses/harness-list.ts";',
      'export { COMPACT_PROMPT } from "./src/sessions/compaction.ts";',
    ].join("\n"),
    resolveDir: ROOT,
    loader: "ts",
  },
  outfile: helpers,
  bundle: true,
  format: "esm",
  platform: "node",
  packages: "external",
  loader: { ".md": "text" },
  logLevel: "warning",
});
const { prefixShare, builtinHarnesses, COMPACT_PROMPT } = await import(helpers);
/** How each harness asks for a summary: the first line of its compaction prompt. */
const SUMMARY_ASK = Object.fromEntries(
  builtinHarnesses().map((h) => [h.id, (h.compaction?.prompt ?? COMPACT_PROMPT).trim().split("\n")[0]]),
);

const FILES = {
  "package.json": '{ "name": "calc", "version": "0.1.0", "type": "module" }\n',
  "README.md": "# calc\n\nTODO: describe\n",
  "src/math.js": "export const add = (a, b) => a - b;\nexport const mul = (a, b) => a * b;\n",
  "src/strings.js": "export const shout = (s) => s.toLowerCase();\nexport const trim = (s) => s.trim();\n",
  "src/list.js": "export const sum = (xs) => xs.reduce((total, x) => total - x, 0);\n",
  "src/index.js":
    'export * from "./math.js";\nexport * from "./strings.js";\nexport * from "./list.js";\nexport const version = "0.1.0";\n',
  "test/run.js": `import { add, mul, shout, sum, version } from "../src/index.js";
const checks = [add(2, 3) === 5, mul(2, 3) === 6, shout("hi") === "HI", sum([1, 2, 3]) === 6, version === "0.2.0"];
const failed = checks.filter((ok) => !ok).length;
console.log(failed === 0 ? "all tests passed" : \`\${failed} tests failed\`);
process.exit(failed === 0 ? 0 : 1);
`,
};

const EDITS = [
  ["src/math.js", "a - b", "a + b"],
  ["src/strings.js", "toLowerCase", "toUpperCase"],
  ["src/list.js", "total - x", "total + x"],
  ["src/index.js", "0.1.0", "0.2.0"],
  ["README.md", "TODO: describe", "A small calculator library."],
];

// ~200 KB on stdout: 4000 lines of 50 characters.
const BIG = `node -e "for (let i = 0; i < 4000; i++) console.log('log line ' + String(i).padStart(5, '0') + ' ' + 'x'.repeat(34))"`;

/** The task as abstract steps: every harness performs the same ones in its own tools. */
const TASK = [
  ["run", "ls -R"],
  ["read", "README.md"],
  ["read", "src/index.js"],
  ["read", "src/math.js"],
  ["read", "src/strings.js"],
  ["read", "src/list.js"],
  ["read", "test/run.js"],
  ["run", "node test/run.js"],
  ["run", BIG],
  ["run", "grep -rn TODO ."],
  ["edit", ...EDITS[0]],
  ["edit", ...EDITS[1]],
  ["edit", ...EDITS[2]],
  ["edit", ...EDITS[3]],
  ["read", "src/math.js"],
  ["run", "node test/run.js"],
  ["read", "README.md"],
  ["edit", ...EDITS[4]],
  ["read", "src/list.js"],
  ["read", "src/list.js"],
  ["read", "test/run.js"],
  ["run", "ls src"],
  ["run", "node test/run.js"],
];

const SHELL = {
  codex: ["exec_command", (command) => ({ cmd: command })],
  hermes: ["shell_command", (command) => ({ command })],
  "claude-code": ["Bash", (command) => ({ command })],
  "claude-code-bare": ["Bash", (command) => ({ command })],
  "kimi-code": ["Bash", (command) => ({ command })],
  "gemini-cli": ["run_shell_command", (command) => ({ command })],
  "qwen-code": ["run_shell_command", (command) => ({ command })],
  pi: ["bash", (command) => ({ command })],
};

/** One abstract step as the tool call this harness makes (name + arguments), or shell text. */
function toolCall(harness, step, cwd) {
  const [kind, a, b, c] = step;
  const abs = (rel) => path.join(cwd, rel);
  if (kind === "read") {
    if (harness === "claude-code" || harness === "claude-code-bare") return ["Read", { file_path: abs(a) }];
    if (harness === "kimi-code") return ["Read", { path: abs(a) }];
    if (harness === "gemini-cli" || harness === "qwen-code") return ["read_file", { file_path: abs(a) }];
    if (harness === "pi") return ["read", { path: abs(a) }];
    return shell(harness, `cat ${a}`);
  }
  if (kind === "edit") {
    if (harness === "claude-code" || harness === "claude-code-bare" || harness === "qwen-code")
      return [harness === "qwen-code" ? "edit" : "Edit", { file_path: abs(a), old_string: b, new_string: c }];
    if (harness === "kimi-code") return ["Edit", { path: abs(a), old_string: b, new_string: c }];
    if (harness === "gemini-cli") return ["replace", { file_path: abs(a), old_string: b, new_string: c }];
    if (harness === "pi") return ["edit", { path: abs(a), edits: [{ oldText: b, newText: c }] }];
    if (harness === "mini-swe-agent") return shell(harness, `sed -i 's/${b}/${c}/' ${a}`);
    const patch = `*** Begin Patch\n*** Update File: ${a}\n@@\n${diffLines(a, b, c)}\n*** End Patch`;
    return ["apply_patch", { input: patch }];
  }
  return shell(harness, a);
}

/** The -/+ lines of a one-line change, from the file's content at the time of the edit. */
function diffLines(rel, from, to) {
  const line = CURRENT[rel].split("\n").find((l) => l.includes(from));
  CURRENT[rel] = CURRENT[rel].replace(from, to);
  return `-${line}\n+${line.replace(from, to)}`;
}
let CURRENT = {};

function shell(harness, command) {
  if (harness === "mini-swe-agent") return ["bash", { command }];
  const [name, args] = SHELL[harness];
  return [name, args(command)];
}

/** The fake model's steps: one tool call per reply, in native calls or the harness's text protocol. */
function script(harness, cwd) {
  CURRENT = { ...FILES };
  const steps = TASK.map((step) => {
    const [name, args] = toolCall(harness, step, cwd);
    if (harness === "mini-swe-agent")
      return { text: `THOUGHT: next step.\n\n\`\`\`bash\n${args.command}\n\`\`\`` };
    if (harness === "hermes")
      return { text: `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>` };
    return { text: "Next step.", toolCalls: [{ name, arguments: args }] };
  });
  const done = "All five fixes are in and the tests pass.";
  if (harness === "mini-swe-agent")
    steps.push({ text: "THOUGHT: done.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```" });
  else steps.push({ text: done });
  return steps;
}

/**
 * For the small-window table: answers summary requests (the harness's compaction prompt in the
 * last message) with a summary and every other request with the task's next step; reports
 * usage as request bytes / 4 and refuses a request over the window as vLLM does.
 */
function routeTask(model, harness, steps, window) {
  const stats = { summaries: 0, refused: 0, next: 0 };
  const router = {
    handle(_req, res, body) {
      model.reply(router);
      const tokens = Math.ceil(Buffer.byteLength(JSON.stringify(body)) / 4);
      if (tokens > window) {
        stats.refused++;
        res.writeHead(400, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            error: {
              message: `This model's maximum context length is ${window} tokens. However, you requested ${tokens} tokens.`,
              type: "invalid_request_error",
              code: "context_length_exceeded",
            },
          }),
        );
        return;
      }
      // The ask is the last user message, though a harness may add a reminder after it.
      const last = JSON.stringify(body.messages.slice(-3));
      const summary = last.includes(JSON.stringify(SUMMARY_ASK[harness]).slice(1, -1));
      if (summary) stats.summaries++;
      const step = summary ? { text: SUMMARY } : steps[stats.next++];
      if (!step) throw new Error(`${harness}: a request past the end of the script`);
      const usage = {
        prompt_tokens: tokens,
        completion_tokens: Math.ceil((step.text ?? "").length / 4) + 20,
      };
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const chunk of replyChunks({ ...step, usage }, body, () => `call_${randomUUID()}`))
        res.write(`data: ${chunk}\n\n`);
      res.end();
    },
  };
  model.reply(router);
  return stats;
}

const SUMMARY = `The user wants the calculator fixed so that test/run.js passes, the version bumped to 0.2.0 and a README description. Done so far: read every file; fixed add (a + b), shout (toUpperCase), sum (total + x); bumped src/index.js to 0.2.0. Remaining: describe the library in README.md, re-read src/list.js and test/run.js, run node test/run.js and confirm "all tests passed".`;

async function runHarness(model, harness, window) {
  const home = mkdtempSync(path.join(scratch, "home-"));
  const cwd = mkdtempSync(path.join(scratch, "ws-"));
  for (const [rel, content] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(cwd, rel)), { recursive: true });
    writeFileSync(path.join(cwd, rel), content);
  }
  const small = window ? `model_context_window = ${window}\n` : "";
  writeFileSync(path.join(home, "config.toml"), `mode = "full-access"\nharness = "${harness}"\n${small}`);
  const child = spawn(process.execPath, [BIN, "acp", "--in-process", "-m", "mock-model"], {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      INTERPRETER_HOME: home,
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: "x",
    },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const connection = client({ name: "bench" }).connect(
    ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)),
  );
  await connection.agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities: {},
    clientInfo: { name: "bench", version: "1" },
  });
  const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
  const first = model.requests.length;
  const steps = script(harness, cwd);
  const routed = window ? routeTask(model, harness, steps, window) : undefined;
  if (!routed) model.reply(...steps);
  const { stopReason } = await connection.agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [
      {
        type: "text",
        text: "Fix the calculator so its tests pass, bump the version to 0.2.0 and describe it in the README.",
      },
    ],
  });
  child.stdin.end();
  await new Promise((resolve) => child.on("exit", resolve));
  if (!routed) model.assertDone();
  else if (model.errors.length > 0 || routed.next !== steps.length)
    throw new Error(`${harness}: ${model.errors.join("; ") || `${routed.next} of ${steps.length} steps`}`);
  const bodies = model.requests.slice(first).map((r) => r.body);
  const fixed = readFileSync(path.join(cwd, "src/list.js"), "utf8").includes("total + x");
  if (stopReason !== "end_turn" || !fixed)
    throw new Error(`${harness}: the task did not complete (${stopReason})`);
  if (!routed) return measure(harness, bodies);
  return {
    ...measure(harness, bodies),
    ...ledger(home, sessionId),
    refused: routed.refused,
    window,
    stopReason,
  };
}

/** What the session recorded: compactions, and the summary requests' share of the ledger. */
function ledger(home, sessionId) {
  const store = openStore({ path: path.join(home, "openinterpreter.db") });
  try {
    const events = store.events(sessionId).map((e) => e.event);
    const usage = events.filter((e) => e.type === "usage");
    const summaries = usage.filter((e) => e.purpose === "compaction");
    const tokens = (list) => list.reduce((n, e) => n + e.inputTokens + e.outputTokens, 0);
    return {
      compactions: events.filter((e) => e.type === "compaction").length,
      ledgerRequests: usage.length,
      summaryRequests: summaries.length,
      summaryTokens: tokens(summaries),
      ledgerTokens: tokens(usage),
    };
  } finally {
    store.close();
  }
}

function measure(harness, bodies) {
  const sizes = bodies.map((b) => Buffer.byteLength(JSON.stringify(b)));
  const history = bodies.map((b) => Buffer.byteLength(JSON.stringify(b.messages.slice(1))));
  const total = sizes.reduce((a, b) => a + b, 0);
  return {
    harness,
    requests: bodies.length,
    toolCalls: TASK.length + (harness === "mini-swe-agent" ? 1 : 0),
    meanBytes: Math.round(total / bodies.length),
    maxBytes: Math.max(...sizes),
    totalBytes: total,
    estimatedTokens: Math.round(total / 4),
    prefixStableShare: Math.round(prefixShare(bodies).overall * 10_000) / 10_000,
    peakHistoryBytes: Math.max(...history),
  };
}

const model = await startFakeModel({ models: ["mock-model"] });
const rows = [];
for (const harness of HARNESSES) rows.push(await runHarness(model, harness));
await model.close();
const smallRows = [];
for (const harness of HARNESSES) {
  const routed = await startFakeModel({ models: ["mock-model"] });
  smallRows.push(await runHarness(routed, harness, SMALL_WINDOW));
  await routed.close();
}

const kb = (n) => `${round(n / 1024)} KB`;
const table = [
  "| harness | requests | tool calls | bytes/request mean | max | total | est. tokens | prefix-stable | peak history |",
  "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ...rows.map(
    (r) =>
      `| ${r.harness} | ${r.requests} | ${r.toolCalls} | ${kb(r.meanBytes)} | ${kb(r.maxBytes)} | ${kb(r.totalBytes)} | ${r.estimatedTokens} | ${(r.prefixStableShare * 100).toFixed(2)} % | ${kb(r.peakHistoryBytes)} |`,
  ),
].join("\n");
const smallTable = [
  "| harness | completed | requests | compactions | refused as too long | peak request | total | est. tokens | ledger tokens (of which summaries) | prefix-stable | peak history |",
  "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ...smallRows.map(
    (r) =>
      `| ${r.harness} | ${r.stopReason === "end_turn" ? "yes" : r.stopReason} | ${r.requests} | ${r.compactions} | ${r.refused} | ${kb(r.maxBytes)} | ${kb(r.totalBytes)} | ${r.estimatedTokens} | ${r.ledgerTokens} (${r.summaryTokens}) | ${(r.prefixStableShare * 100).toFixed(2)} % | ${kb(r.peakHistoryBytes)} |`,
  ),
].join("\n");
if (ONLY) {
  console.log(table);
  console.log(smallTable);
  process.exit(0);
}
const result = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  rows,
  smallWindow: { window: SMALL_WINDOW, rows: smallRows },
};
mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
writeFileSync(path.join(ROOT, "bench/results/tokens.json"), `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(
  path.join(ROOT, "bench/results/tokens.md"),
  `# Context economy: one task under every harness\n\nThe same scripted task (23 tool calls: reads, edits, test runs and one ~200 KB command output) against the scripted model; bytes are request bodies as sent, tokens estimated as bytes / 4, prefix-stable is the share of each request's bytes that the next request repeats byte for byte (what a prompt cache can reuse), peak history is the largest conversation (messages after the system prompt) sent.\n\n${table}\n\n## The same task with a ${SMALL_WINDOW}-token window\n\n\`model_context_window = ${SMALL_WINDOW}\`; the model reports usage as request bytes / 4 and refuses a request over the window (HTTP 400, \`context_length_exceeded\`), so every harness compacts at its own threshold. Requests include the summary requests; ledger tokens are the session's \`usage\` events, in brackets those of the summary requests (\`purpose: "compaction"\`).\n\n${smallTable}\n`,
);
console.log(table);
console.log(smallTable);
