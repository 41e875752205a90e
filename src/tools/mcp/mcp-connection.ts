import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type CompatibilityCallToolResult,
  CompatibilityCallToolResultSchema,
  ErrorCode,
  McpError,
  type Tool as McpTool,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import {
  messageOf,
  type OpenedClient,
  openClient,
  type ResolvedTransport,
  ServerStartError,
} from "./open-client.js";
import type { McpLogger } from "./types.js";

export type { McpTool };

export interface ConnectOptions {
  name: string;
  transport: ResolvedTransport;
  clientInfo: { name: string; version: string };
  startupTimeoutMs: number;
  /** Aborts a start in progress (the manager is closing). */
  signal: AbortSignal;
  logger: McpLogger;
  listChangedDebounceMs: number;
  /** The full tool list, re-listed after `notifications/tools/list_changed`. */
  onToolsChanged(tools: McpTool[]): void;
  /** Once, when the server goes away without `close()`: it exited, or the network failed. */
  onLost(reason: string): void;
  stdio?: { closeGraceMs?: number; killGraceMs?: number };
}

export type CallOutcome =
  | { type: "result"; result: CompatibilityCallToolResult }
  | { type: "error"; kind: "timeout" | "cancelled" | "lost" | "error"; message: string };

/** A ready server: `initialize` done and its tools listed. */
export interface McpConnection {
  readonly kind: OpenedClient["kind"];
  readonly tools: McpTool[];
  readonly instructions: string | undefined;
  call(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallOutcome>;
  close(): Promise<void>;
}

export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  onProgress?: (text: string) => void;
}

/** Progress notifications keep a call alive past its timeout, up to this much in total. */
const MAX_TOTAL_MS = 10 * 60_000;
const MAX_PAGES = 100;

/**
 * Starts one server (this module, and with it the MCP SDK, is imported on first use only).
 * Rejects with a readable message when the server cannot start within `startupTimeoutMs`;
 * nothing is left running then.
 */
export async function connectServer(options: ConnectOptions): Promise<McpConnection> {
  const { name, logger } = options;
  const deadline = AbortSignal.any([options.signal, AbortSignal.timeout(options.startupTimeoutMs)]);
  const request: RequestOptions = { signal: deadline, timeout: options.startupTimeoutMs };
  let opened: OpenedClient | undefined;
  try {
    opened = await openClient({ ...options, request });
    const tools = await listAllTools(opened.client, request);
    opened.sample();
    return new Connection(opened, tools, options);
  } catch (error) {
    await opened?.client.close().catch(() => {});
    if (options.signal.aborted) throw new Error("closed while starting");
    const start = error instanceof ServerStartError ? error : undefined;
    if (deadline.aborted) {
      const stderr = start?.stderr ? `; stderr: ${start.stderr}` : "";
      throw new Error(`did not start within ${options.startupTimeoutMs / 1000} s${stderr}`);
    }
    const exit = start ? start.exit : opened?.describeExit();
    if (exit !== undefined) throw new Error(`server ${exit}`);
    logger.debug({ mcpServer: name, err: messageOf(error) }, "mcp server start failed");
    throw error;
  }
}

class Connection implements McpConnection {
  readonly kind: OpenedClient["kind"];
  readonly instructions: string | undefined;
  tools: McpTool[];
  readonly #opened: OpenedClient;
  readonly #options: ConnectOptions;
  /** Closed by us, or reported lost: either way `onLost` must not fire (again). */
  #ended = false;
  #closed = false;
  #refresh: NodeJS.Timeout | undefined;
  #refreshing: Promise<void> = Promise.resolve();

  constructor(opened: OpenedClient, tools: McpTool[], options: ConnectOptions) {
    this.#opened = opened;
    this.#options = options;
    this.kind = opened.kind;
    this.tools = tools;
    this.instructions = opened.client.getInstructions();
    const { client } = opened;
    client.onclose = () => this.#lost(this.#endReason());
    // Our own handler instead of the SDK's autoRefresh, which re-lists only the first page.
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      clearTimeout(this.#refresh);
      this.#refresh = setTimeout(() => {
        this.#refreshing = this.#refreshing.then(() => this.#relist());
      }, options.listChangedDebounceMs);
    });
  }

  async call(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallOutcome> {
    if (options.signal.aborted) return { type: "error", kind: "cancelled", message: "cancelled" };
    // A signal of our own, so that a turn aborted after this call finished sends no stray
    // `notifications/cancelled` for it (the SDK never removes its abort listener).
    const local = new AbortController();
    const forward = () => local.abort(options.signal.reason);
    options.signal.addEventListener("abort", forward, { once: true });
    const onProgress = options.onProgress;
    try {
      const result = await this.#opened.client.callTool(
        { name, arguments: args },
        CompatibilityCallToolResultSchema,
        {
          signal: local.signal,
          timeout: options.timeoutMs,
          resetTimeoutOnProgress: true,
          maxTotalTimeout: Math.max(MAX_TOTAL_MS, options.timeoutMs),
          onprogress: onProgress
            ? ({ progress, total, message }) =>
                onProgress(`${total ? `${progress}/${total}` : progress}${message ? ` ${message}` : ""}\n`)
            : undefined,
        },
      );
      return { type: "result", result };
    } catch (error) {
      return this.#classify(error, options);
    } finally {
      options.signal.removeEventListener("abort", forward);
      this.#opened.sample();
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#ended = true;
    clearTimeout(this.#refresh);
    await withTimeout(
      this.#opened.terminate().catch(() => {}),
      1000,
    );
    await this.#opened.client.close().catch(() => {});
  }

  #classify(error: unknown, options: CallOptions): CallOutcome {
    if (options.signal.aborted) return { type: "error", kind: "cancelled", message: "cancelled" };
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      const maxTotal =
        typeof error.data === "object" && error.data !== null && "maxTotalTimeout" in error.data;
      const ms = maxTotal ? Math.max(MAX_TOTAL_MS, options.timeoutMs) : options.timeoutMs;
      return { type: "error", kind: "timeout", message: `timed out after ${ms / 1000} s` };
    }
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return { type: "error", kind: "lost", message: this.#endReason() };
    }
    // fetch() failing outright (connection refused, reset) means the HTTP server is gone.
    if (error instanceof TypeError && this.kind !== "stdio") {
      const message = `${error.message}${error.cause ? ` (${messageOf(error.cause)})` : ""}`;
      this.#lost(message);
      void this.close();
      return { type: "error", kind: "lost", message };
    }
    return { type: "error", kind: "error", message: messageOf(error) };
  }

  async #relist(): Promise<void> {
    if (this.#ended) return;
    const { name, logger, startupTimeoutMs } = this.#options;
    try {
      const tools = await listAllTools(this.#opened.client, { timeout: startupTimeoutMs });
      if (this.#ended) return;
      this.tools = tools;
      this.#options.onToolsChanged(tools);
    } catch (error) {
      logger.warn({ mcpServer: name, err: messageOf(error) }, "mcp tools/list after list_changed failed");
    }
  }

  #endReason(): string {
    const exit = this.#opened.describeExit();
    return exit === undefined ? "the connection closed" : `server ${exit}`;
  }

  #lost(reason: string): void {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#refresh);
    this.#options.onLost(reason);
  }
}

/** `tools/list` does not paginate by itself; servers without the tools capability have none. */
async function listAllTools(client: Client, options: RequestOptions): Promise<McpTool[]> {
  if (!client.getServerCapabilities()?.tools) return [];
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.listTools(cursor === undefined ? undefined : { cursor }, options);
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return tools;
}

function withTimeout(promise: Promise<unknown>, ms: number): Promise<unknown> {
  return Promise.race([promise, new Promise((resolve) => setTimeout(resolve, ms).unref())]);
}
