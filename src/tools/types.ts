import type { z } from "zod";
import type {
  Capability,
  DisplayContent,
  Location,
  PlanEntry,
  ResultPart,
  ToolKind,
} from "../store/events.js";
import type { SubagentPort } from "./agents/types.js";
import type { PlanPort, UserPort } from "./ask/types.js";
import type { BackgroundProcesses } from "./exec/background-processes.js";
import type { WebAccess } from "./web/types.js";

/**
 * Access to the content of workspace files: every tool reads and writes them through this port.
 * The local implementation uses node:fs; an editor-backed one may answer reads and writes with
 * ACP `fs/read_text_file` and `fs/write_text_file` (the editor's buffer, unsaved edits included).
 * Listing, globbing and grepping walk the disk directly: ACP has no methods for them.
 */
export interface FsPort {
  /** Strict UTF-8. Rejects with an error whose `code` is `ENOENT` when the file does not exist. */
  readText(path: string): Promise<string>;
  /**
   * The content as bytes, for checks that must see them before any decoding (a NUL byte near the
   * start means binary, whatever the encoding). Rejects like `readText` for a missing file.
   */
  readBytes(path: string): Promise<Uint8Array>;
  /** Creates missing parent directories. */
  writeText(path: string, content: string): Promise<void>;
  remove(path: string): Promise<void>;
  /** Follows symbolic links; undefined when nothing is at `path`. */
  stat(path: string): Promise<FileStat | undefined>;
}

export interface FileStat {
  /** A regular file: not a directory, FIFO, socket or device. */
  isFile: boolean;
  isDirectory: boolean;
  /** In bytes. */
  size: number;
  mtimeMs: number;
}

export interface ExecRequest {
  /** A script for `bash -lc`-style execution (`/bin/bash -c` by default). */
  command: string;
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Live output as it arrives (decoded UTF-8, may split lines). */
  onOutput?: (chunk: string) => void;
  /** Called once the command is running, with the id of the process group it leads. */
  onStart?: (processGroup: number) => void;
}

export interface ExecResult {
  exitCode: number | null;
  /** Set when the process died from a signal (including our own kill on timeout/abort). */
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  /** Combined stdout+stderr, bounded: head and tail kept, the middle dropped. */
  output: string;
  /** Bytes dropped from the middle of `output` (0 when complete). */
  droppedBytes: number;
  totalBytes: number;
  totalLines: number;
  /** The id of the process group the command led (the launcher's under a sandbox); absent if it never started. */
  processGroup?: number;
  /**
   * Each stream alone, bounded like `output`, for harnesses whose original shows stderr apart
   * from stdout. Absent when the runner did not start the command.
   */
  streams?: { stdout: string; stderr: string };
}

/** Runs commands. Implementations kill the whole process tree on timeout and on abort. */
export interface ExecPort {
  run(request: ExecRequest): Promise<ExecResult>;
  /**
   * How to start `command` in `cwd` confined exactly as `run` confines its commands, for a
   * process something else starts (a terminal multiplexer's pane). `refused` where `run` would
   * refuse to run anything.
   */
  launch?(request: { command: string[]; cwd: string }): Promise<Launch | { refused: string }>;
}

/** A confined start: the argv (the sandbox's launcher in front, or the command alone), its environment, an fd 3. */
export interface Launch {
  argv: string[];
  env: Record<string, string>;
  /** A file the starter opens as fd 3 (the sandbox's seccomp program). */
  fd3File?: string;
  /**
   * Runs the starter itself (a terminal multiplexer) unconfined, through the daemon's spawn
   * helper, so that even a daemon killed outright leaves nothing of it behind.
   */
  host: ExecPort;
}

export interface ToolContext {
  sessionId: string;
  cwd: string;
  /** Workspace roots: cwd first, then additional directories. */
  roots: string[];
  /** The turn's signal: it aborts when the turn is cancelled and when the turn ends. */
  signal: AbortSignal;
  /** The session's signal: it aborts when the session closes (what a background command lives for). */
  sessionSignal: AbortSignal;
  /** The id of the call this context runs, as the model sent it. */
  callId?: string;
  fs: FsPort;
  exec: ExecPort;
  /** The session's commands that run on between calls; killed when the session closes. */
  background: BackgroundProcesses;
  /** Live progress for the editor (e.g. command output so far). */
  onProgress(text: string): void;
  /** The web tools' HTTP, under the SSRF rules and `[web]` settings; absent outside a session. */
  web?: WebAccess;
  /** A question to a model beside the turn (a fetch tool asking about a page); absent outside a session. */
  model?: ModelPort;
  /** The person behind the editor (questions, plan approval); absent when nobody can answer. */
  user?: UserPort;
  /** The session's plan mode; absent outside a session. */
  plan?: PlanPort;
  /** Starts subagents as child sessions; absent outside a session. */
  subagents?: SubagentPort;
}

/**
 * One request beside the turn, as the originals send them to their small model: one system
 * text, one user text, no tools. The session sends it on its own endpoint and counts it in the
 * token ledger.
 */
export interface SideRequest {
  system: string;
  prompt: string;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
}

/** The model's text, or why there is none (the endpoint's readable error). */
export type SideAnswer = { text: string } | { error: string };

export interface ModelPort {
  /** Never rejects; an aborted signal answers with an error. */
  ask(request: SideRequest, signal: AbortSignal): Promise<SideAnswer>;
}

/** What a call is about to do, for the permission gate. */
export type ToolAccess =
  | { type: "none" }
  | { type: "read"; paths: string[] }
  | { type: "write"; paths: string[] }
  | {
      type: "exec";
      command: string;
      cwd: string;
      /** The model asked to run it outside the sandbox (always asks; runs unconfined if allowed). */
      escalated?: { justification?: string };
    }
  /** Anything else with side effects the sandbox cannot confine (e.g. an MCP tool). */
  | { type: "tool"; key: string; label: string }
  /**
   * GET requests to these hosts (lower case). `listed`: every one of them is in `[web]
   * allowed_hosts`, which the user set so they are fetched without asking.
   */
  | { type: "fetch"; hosts: string[]; listed: boolean };

export interface ToolResult {
  /**
   * What the model sees, already formatted and truncated by the harness policy. With `parts`,
   * the text of the result alone (what logs, transcripts and text-only renderings show).
   */
  output: string;
  /**
   * Set when the model sees more than text (an image): the whole result in order, shown in
   * each wire's shape. The editor is shown its images too.
   */
  parts?: ResultPart[];
  display?: DisplayContent[];
  isError?: boolean;
  /** Set by plan tools; the session turns it into an ACP `plan` update. */
  plan?: PlanEntry[];
}

/** Shown in the editor before the call runs (and in the permission request). */
export interface ToolPreview {
  title: string;
  locations?: Location[];
  display?: DisplayContent[];
}

/**
 * A tool as one harness exposes it to the model. Built per session by the harness; the
 * implementation behind it lives in `src/tools` and is shared by every harness.
 */
export interface Tool<Args = unknown> {
  name: string;
  description: string;
  kind: ToolKind;
  capability: Capability;
  /** JSON schema sent to the model. */
  parameters: Record<string, unknown>;
  /** Validates the parsed arguments; failures go back to the model as a tool error. */
  schema: z.ZodType<Args>;
  preview(args: Args, ctx: ToolContext): Promise<ToolPreview>;
  access(args: Args, ctx: ToolContext): ToolAccess;
  execute(args: Args, ctx: ToolContext): Promise<ToolResult>;
}
