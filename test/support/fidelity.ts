import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "./doctor-run.js";
import { tempDir } from "./harness-fixtures.js";

// Our harnesses measured the way the originals were: the same recording mock and scripted plan
// (../shared/tools/capture-requests), the same reducer, so a summary of ours compares with a
// summary of the original facet by facet. The shared folder is outside the repository; tests
// skip with a reason where it is absent.

export const SHARED = fileURLToPath(new URL("../../../shared/", import.meta.url));
const TOOLS = path.join(SHARED, "tools/capture-requests");
export const CAPTURES = path.join(SHARED, "conformance/harness-requests");
export const HAVE_SHARED = existsSync(path.join(TOOLS, "mock.mjs")) && existsSync(CAPTURES);

// biome-ignore lint/suspicious/noExplicitAny: summaries are JSON whose shape the reducer owns
export type Summary = Record<string, any>;

export function originalSummary(file: string): Summary {
  return JSON.parse(readFileSync(path.join(CAPTURES, file), "utf8")) as Summary;
}

/** Runs `interpreter exec` with `harness` on `wire` against the recording mock and reduces the capture. */
export async function captureOurs(options: {
  harness: string;
  model: string;
  wire: string;
  /** Give the session one user skill (for originals that always list bundled skills). */
  skill?: boolean;
}): Promise<Summary> {
  const root = tempDir("oi-fidelity-");
  const ws = path.join(root, "ws");
  const home = path.join(root, "home");
  const out = path.join(root, "out");
  mkdirSync(ws);
  mkdirSync(home);
  if (options.skill) {
    mkdirSync(path.join(home, "skills/release-notes"), { recursive: true });
    writeFileSync(
      path.join(home, "skills/release-notes/SKILL.md"),
      "---\nname: release-notes\ndescription: Drafts release notes from the commits since the last tag.\n---\n\nRead `git log` since the last tag and group the changes.\n",
    );
  }
  writeFileSync(path.join(ws, "notes.txt"), "alpha\nbeta\ngamma\ndelta\nepsilon\n");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: ws, stdio: "ignore" });
  git("init", "-q");
  git("add", ".");
  git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init");
  const portFile = path.join(root, "port");
  const mock = spawn(
    process.execPath,
    [path.join(TOOLS, "mock.mjs"), "--port", "0", "--port-file", portFile, "--out", out, "--ws", ws],
    { stdio: "ignore" },
  );
  try {
    const port = await waitForPort(portFile, mock);
    const base = `http://127.0.0.1:${port}/ours${options.wire === "messages" ? "" : "/v1"}`;
    const config = [
      'mode = "full-access"',
      'model_provider = "mock"',
      "[model_providers.mock]",
      `base_url = "${base}"`,
      'env_key = "MOCK_KEY"',
      `wire_api = "${options.wire}"`,
      "",
    ].join("\n");
    writeFileSync(path.join(home, "config.toml"), config);
    // --yolo: full access, as the originals were run, so no call is refused for want of an editor.
    const result = await runCli(
      ["exec", "--yolo", "--harness", options.harness, "-m", options.model, "Please run the checks"],
      {
        home,
        cwd: ws,
        env: { MOCK_KEY: "sk-mock" },
      },
    );
    if (result.code !== 0) throw new Error(`exec failed (${result.code}): ${result.stderr}`);
  } finally {
    mock.kill();
  }
  const file = path.join(root, "summary.json");
  execFileSync(
    process.execPath,
    [path.join(TOOLS, "reduce.mjs"), path.join(out, "ours"), file, "--ws", ws, "--home", home],
    {
      stdio: "ignore",
    },
  );
  return JSON.parse(readFileSync(file, "utf8")) as Summary;
}

async function waitForPort(file: string, child: ChildProcess): Promise<number> {
  for (let i = 0; i < 100; i++) {
    if (existsSync(file)) {
      const port = Number(readFileSync(file, "utf8").trim());
      if (port > 0) return port;
    }
    if (child.exitCode !== null) throw new Error("the recording mock exited");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the recording mock did not start");
}

/** What a summary says, facet by facet, with prose (lengths and hashes) and run-to-run values left out. */
export interface Facets {
  /** Names in order, with kind: `function` or `custom`. */
  tools: string[];
  /** Each tool's parameter schema without its descriptions. */
  schemas: Record<string, unknown>;
  /** Top-level request fields but the model id. */
  knobs: Record<string, unknown>;
  /** The first main request's messages: roles, block types, injected tags, markers. */
  layout: unknown[];
  /** Headings of the system prompt(s) of the first main request. */
  outline: string[];
  /** Each scripted call's result as the model saw it, run-to-run values masked. */
  results: Record<string, string>;
}

export function facets(summary: Summary): Facets {
  const main = (summary.requests as Summary[]).filter((r) => r.kind === "main");
  const first = main[0] ?? {};
  const set = summary.tool_sets?.[first.tools?.ref]?.tools ?? [];
  // Chat nests a tool under `function`; Responses and Messages do not.
  const flat = set.map((t: Summary) => (t.function ? { ...t.function, type: "function" } : t));
  const tools = flat.map((t: Summary) => `${t.name}:${t.type ?? "function"}`);
  const schemas = Object.fromEntries(
    flat.map((t: Summary) => [t.name, withoutProse(t.parameters ?? t.input_schema ?? t.format ?? null)]),
  );
  const { model: _model, ...knobs } = first.knobs ?? {};
  const outlineRefs = [
    ...((first.system ?? []) as Summary[]).map((b) => b.outline_ref),
    ...Array.from(JSON.stringify(first.layout ?? []).matchAll(/"outline_ref":"([0-9a-f]{8})"/g), (m) => m[1]),
  ].filter(Boolean);
  const outline = [...new Set(outlineRefs)].flatMap((ref) =>
    ((summary.texts?.[ref]?.outline ?? []) as Summary[]).flatMap((o) => (o.h ? [o.h] : [])),
  );
  const results = Object.fromEntries(
    ((summary.scripted_calls ?? []) as Summary[]).map((c) => [c.call, masked(resultText(c.result))]),
  );
  return { tools, schemas, knobs, layout: withoutProse(first.layout ?? []) as unknown[], outline, results };
}

/** Descriptions, lengths and hashes out: what is left is structure. */
function withoutProse(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutProse);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (["description", "chars", "sha256_8", "outline_ref", "id", "text", "lines"].includes(key)) continue;
    out[key] = withoutProse(inner);
  }
  return out;
}

function resultText(result: Summary | undefined): string {
  const content = result?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part: Summary) => part.text ?? `[${part.type}]`).join("");
  return JSON.stringify(content ?? null);
}

/** What varies from run to run in the originals' own results (the README's list), and injected prose, masked. */
function masked(text: string): string {
  return (
    text
      .replace(/\[injected: \d+ chars, sha256-8 [0-9a-f]+\]/g, "[injected prose]")
      .replace(/Chunk ID: [0-9a-f]+/g, "Chunk ID: <id>")
      .replace(/Wall time: [0-9.]+ seconds/g, "Wall time: <t> seconds")
      .replace(/Process Group PGID: \d+/g, "Process Group PGID: <pgid>")
      // Kimi Code's task ids are random; the mock numbers call ids by the requests before them.
      .replace(/\bbash-[0-9a-z]{8}\b/g, "bash-<task>")
      .replace(/tool_call_id: call_\d+/g, "tool_call_id: call_<n>")
      .replace(/<HOME>\/[^\s"]+/g, "<saved file>")
      .replace(/\/tmp\/[^\s"]+/g, "<saved file>")
  );
}
