import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Harness, HarnessContext } from "../../src/harnesses/types.js";
import { type ChatMessage, chatBody, chatTool } from "../../src/providers/chat-wire.js";
import type { ModelRequest } from "../../src/providers/model-request.js";
import type { HistoryEvent } from "../../src/store/events.js";
import { BackgroundProcesses } from "../../src/tools/exec/background-processes.js";
import { createLocalExec } from "../../src/tools/exec/run-command.js";
import { createLocalFs } from "../../src/tools/local-fs.js";
import type { ExecResult, Tool, ToolContext, ToolResult } from "../../src/tools/types.js";

/** A fresh, empty folder under the OS temp dir; never cleaned up (the OS does that). */
export const tempDir = (prefix: string): string => mkdtempSync(path.join(os.tmpdir(), prefix));

/**
 * A complete `HarnessContext` with stable values (fixed date, linux, bash, sandboxed,
 * workspace-write), so rendered prompts are byte-stable. `roots` follows `cwd` unless given.
 */
export function harnessContext(overrides: Partial<HarnessContext> = {}): HarnessContext {
  const cwd = overrides.cwd ?? "/work/project";
  return {
    sessionId: "s1",
    cwd,
    roots: [cwd],
    model: "mock-model",
    wire: "chat",
    images: true,
    mode: "workspace-write",
    shell: "bash",
    instructions: "",
    currentDate: "2026-03-01",
    timezone: "UTC",
    scratchDir: "/tmp/scratch",
    platform: "linux",
    isGitRepo: true,
    sandboxed: true,
    skills: [],
    ...overrides,
  };
}

/** A `ToolContext` rooted at `cwd` with the real local fs and child processes, and a signal nobody aborts. */
export function toolContext(cwd: string, overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    sessionId: "s1",
    cwd,
    roots: [cwd],
    signal: new AbortController().signal,
    sessionSignal: new AbortController().signal,
    fs: createLocalFs(),
    exec: createLocalExec(),
    background: new BackgroundProcesses(),
    onProgress: () => {},
    ...overrides,
  };
}

/** Calls a tool by name, its arguments parsed by the tool's own schema as the session does. */
export type ToolRunner = (name: string, args: unknown) => Promise<ToolResult>;

/**
 * A `ToolRunner` over `tools`. Pass a function to build the tools on the first call, after the
 * test has had a chance to adjust the harness context. Throws (synchronously) for an unknown
 * tool or arguments its schema rejects.
 */
export function toolRunner(tools: Tool[] | (() => Tool[]), ctx: ToolContext): ToolRunner {
  let built = typeof tools === "function" ? undefined : tools;
  return (name, args) => {
    built ??= (tools as () => Tool[])();
    const tool = built.find((t) => t.name === name) as Tool<unknown> | undefined;
    if (!tool) throw new Error(`no tool named ${name}`);
    return tool.execute(tool.schema.parse(args), ctx);
  };
}

/**
 * Writes `content` to `rel` under `root`, creating parent folders, and returns the absolute
 * path. With `ageSeconds` the file's mtime is set that many seconds in the past.
 */
export function writeFileAt(
  root: string,
  rel: string,
  content: string | Buffer,
  ageSeconds?: number,
): string {
  const p = path.join(root, rel);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, content);
  if (ageSeconds !== undefined) {
    const when = new Date(Date.now() - ageSeconds * 1000);
    utimesSync(p, when, when);
  }
  return p;
}

/**
 * A temp workspace for one harness: a context rooted at a fresh `cwd` with its own scratch
 * folder, the harness's tools (built on first use), a runner and a file writer.
 */
export function harnessWorkspace(
  harness: Harness,
  options: { prefix: string; context?: Partial<HarnessContext> },
) {
  const cwd = tempDir(options.prefix);
  const ctx = harnessContext({ cwd, scratchDir: tempDir(`${options.prefix}scratch-`), ...options.context });
  let built: Tool[] | undefined;
  const tools = () => {
    built ??= harness.open(ctx).tools;
    return built;
  };
  const run = toolRunner(tools, toolContext(cwd));
  const file = (rel: string, content: string) => writeFileAt(cwd, rel, content);
  return { cwd, ctx, tools, run, file };
}

/** What `exec.run` answers for a command that exited 0 after 5 ms with no output; override the rest. */
export function execResult(overrides: Partial<ExecResult> = {}): ExecResult {
  return {
    exitCode: 0,
    signal: null,
    timedOut: false,
    aborted: false,
    durationMs: 5,
    output: "",
    droppedBytes: 0,
    totalBytes: 0,
    totalLines: 0,
    ...overrides,
  };
}

/** The request a freshly opened harness renders for `history`, with its own tools. */
export function firstRequest(harness: Harness, ctx: HarnessContext, history: HistoryEvent[]) {
  const opened = harness.open(ctx);
  return chatView(opened.render({ history, tools: opened.tools, ctx }));
}

/**
 * A rendered request as the Chat Completions wire sends it: messages, tools, and as `knobs`
 * the other body fields (none: no `knobs`).
 */
export function chatView(request: ModelRequest) {
  const { model: _model, messages, tools: _tools, ...knobs } = chatBody(request, { model: "m" });
  return {
    messages: messages as ChatMessage[],
    tools: request.tools.map(chatTool),
    ...(Object.keys(knobs).length > 0 ? { knobs } : {}),
  };
}
