import type { Logger } from "../../config/logger.js";
import type { McpCallOutput } from "./call-result.js";
import type { McpServerSpec } from "./mcp-server-spec.js";

export type { McpCallOutput } from "./call-result.js";

export type McpLogger = Pick<Logger, "debug" | "info" | "warn" | "error">;

/** One MCP tool as the model sees it. */
export interface McpToolInfo {
  /** `mcp__<server>__<tool>`, sanitised to `^[a-zA-Z0-9_-]{1,64}$`; unique within a manager. */
  modelName: string;
  /** The server's name as configured (or as the editor sent it). */
  server: string;
  /** The tool's raw MCP name, as the server expects it in `tools/call`. */
  name: string;
  title?: string;
  description: string;
  /** The server's JSON schema for the arguments, verbatim. */
  inputSchema: Record<string, unknown>;
  /** The server's `annotations.readOnlyHint`: a claim by the server, not something we verified. */
  readOnly: boolean;
}

export type McpServerState = "starting" | "ready" | "failed" | "closed";

export interface McpServerStatus {
  name: string;
  state: McpServerState;
  /** Why the server failed: could not start, timed out, or died. */
  error?: string;
  /** Tools the model can see from this server (0 unless ready). */
  tools: number;
  source: McpServerSpec["source"];
  /** How it is connected; `sse` only after the Streamable HTTP fallback. */
  transport: "stdio" | "http" | "sse";
}

export interface McpCallOptions {
  /** The turn's signal. Aborting sends `notifications/cancelled` to the server. */
  signal: AbortSignal;
  /** Progress notifications from the server, one line each (`3/5 indexing`). */
  onProgress?: (text: string) => void;
}

/**
 * The MCP servers of one session. Nothing here throws: servers that cannot start, die, or
 * answer with errors are states and error results, and the session goes on without them.
 */
export interface McpManager {
  /**
   * Connects the servers in parallel, each bounded by its startup timeout, and resolves when
   * every one is ready or failed. Servers whose name is already known are skipped.
   */
  start(servers: McpServerSpec[]): Promise<void>;
  /** The tools of every ready server, in server then listing order. A fresh array each call. */
  tools(): McpToolInfo[];
  /**
   * Calls a tool by its model-visible name. Never rejects: unknown tools, servers that are
   * gone, protocol errors, timeouts (the server's `tool_timeout_sec`) and cancellation all
   * come back as `isError` results the model can read.
   */
  call(modelName: string, args: Record<string, unknown>, options: McpCallOptions): Promise<McpCallOutput>;
  status(): McpServerStatus[];
  /** Text servers ask to be put in the prompt (`initialize` instructions), per ready server. */
  instructions(): Array<{ server: string; text: string }>;
  /**
   * Fires whenever `tools()` or `status()` changed: a server became ready or failed, died
   * (its tools are gone), or refreshed its tools after `notifications/tools/list_changed`.
   * Listeners run synchronously; rebuild the model's tool list before the next request, never
   * in the middle of one. Returns the unsubscribe function.
   */
  onChange(listener: () => void): () => void;
  /**
   * Closes every client and kills every stdio server with its whole process tree; also stops
   * servers still starting. Resolves when they are gone. Idempotent; the manager is unusable after.
   */
  close(): Promise<void>;
}
