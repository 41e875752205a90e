import { boundImages } from "../image/bound-image.js";
import { DEFAULT_MAX_OUTPUT_CHARS, type McpCallOutput, mapCallResult } from "./call-result.js";
import type { CallOutcome, McpConnection, McpTool } from "./mcp-connection.js";
import type { McpServerSpec } from "./mcp-server-spec.js";
import { resolveTransport } from "./resolve-transport.js";
import { modelToolNames } from "./tool-names.js";
import type { McpLogger, McpManager, McpServerState, McpToolInfo } from "./types.js";

export type { McpCallOptions, McpLogger, McpManager, McpServerStatus, McpToolInfo } from "./types.js";

export interface McpManagerOptions {
  /**
   * The daemon's environment. Stdio servers get only `buildChildEnv`'s allowlist from it, plus
   * their configured `env` and `env_vars`; HTTP servers read `bearer_token_env_var` and
   * `env_http_headers` from it. Never passed on whole.
   */
  env: Record<string, string | undefined>;
  logger: McpLogger;
  /** Where stdio servers run unless configured otherwise (the session cwd); default process.cwd(). */
  cwd?: string;
  /** `clientInfo.version` in `initialize`. */
  clientVersion?: string;
  /** Cap on what one call gives the model. Default 64 KiB of text. */
  maxOutputChars?: number;
  /** Wait after `notifications/tools/list_changed` for more of them before re-listing. Default 100 ms. */
  listChangedDebounceMs?: number;
  stdio?: { closeGraceMs?: number; killGraceMs?: number };
}

interface Entry {
  spec: McpServerSpec;
  state: McpServerState;
  error?: string;
  kind: "stdio" | "http" | "sse";
  /** What the model may see: enabled, not disabled, callable without the tasks API. */
  tools: McpTool[];
  connection?: McpConnection;
}

/**
 * The MCP client side of one session (see `McpManager`). The MCP SDK is imported on the first
 * `start()` with at least one server, so a daemon without MCP servers never loads it.
 */
export function createMcpManager(options: McpManagerOptions): McpManager {
  const { logger } = options;
  const entries = new Map<string, Entry>();
  const listeners = new Set<() => void>();
  const closing = new AbortController();
  const starting = new Set<Promise<void>>();
  let closed: Promise<void> | undefined;
  let infos: McpToolInfo[] = [];
  let byModelName = new Map<string, { entry: Entry; tool: McpTool }>();
  /** Every model name ever handed out → its server, to explain calls to tools that are gone. */
  const serverOfName = new Map<string, string>();

  const rebuild = (): void => {
    const pairs = [...entries.values()]
      .filter((entry) => entry.state === "ready")
      .flatMap((entry) => entry.tools.map((tool) => ({ entry, tool })));
    const names = modelToolNames(
      pairs.map(({ entry, tool }) => ({ server: entry.spec.name, tool: tool.name })),
    );
    infos = pairs.map(({ entry, tool }, index) => ({
      modelName: names[index]!,
      server: entry.spec.name,
      name: tool.name,
      title: tool.title ?? tool.annotations?.title,
      description: tool.description ?? "",
      inputSchema: tool.inputSchema,
      readOnly: tool.annotations?.readOnlyHint === true,
    }));
    byModelName = new Map(pairs.map((pair, index) => [names[index]!, pair]));
    for (const info of infos) serverOfName.set(info.modelName, info.server);
  };

  const changed = (): void => {
    rebuild();
    for (const listener of [...listeners]) {
      try {
        listener();
      } catch (error) {
        logger.error({ err: messageOf(error) }, "mcp onChange listener failed");
      }
    }
  };

  const fail = (entry: Entry, error: string): void => {
    entry.state = "failed";
    entry.error = error;
    entry.tools = [];
    entry.connection = undefined;
    logger.warn({ mcpServer: entry.spec.name, err: error }, "mcp server failed");
  };

  const startOne = async (entry: Entry): Promise<void> => {
    const { spec } = entry;
    let ready = false;
    let lostEarly: string | undefined;
    let connection: McpConnection;
    try {
      const transport = resolveTransport(spec, options);
      const { connectServer } = await import("./mcp-connection.js");
      connection = await connectServer({
        name: spec.name,
        transport,
        clientInfo: { name: "openinterpreter", version: options.clientVersion ?? "0.0.0" },
        startupTimeoutMs: spec.startupTimeoutMs,
        signal: closing.signal,
        logger,
        listChangedDebounceMs: options.listChangedDebounceMs ?? 100,
        stdio: options.stdio,
        onToolsChanged: (tools) => {
          if (!ready || entry.connection !== connection) return;
          const next = exposed(spec, tools, logger);
          // Servers announce changes the model never sees (e.g. a task-only tool): stay quiet.
          if (JSON.stringify(next) === JSON.stringify(entry.tools)) return;
          entry.tools = next;
          logger.info({ mcpServer: spec.name, tools: entry.tools.length }, "mcp server tools changed");
          changed();
        },
        onLost: (reason) => {
          if (!ready) lostEarly = reason;
          if (!ready || entry.connection !== connection) return;
          fail(entry, reason);
          void connection.close();
          changed();
        },
      });
    } catch (error) {
      if (closing.signal.aborted) entry.state = "closed";
      else fail(entry, messageOf(error));
      changed();
      return;
    }
    if (closing.signal.aborted || lostEarly !== undefined) {
      await connection.close();
      if (lostEarly !== undefined) fail(entry, lostEarly);
      else entry.state = "closed";
      changed();
      return;
    }
    ready = true;
    entry.state = "ready";
    entry.kind = connection.kind;
    entry.connection = connection;
    entry.tools = exposed(spec, connection.tools, logger);
    logger.info(
      { mcpServer: spec.name, transport: connection.kind, tools: entry.tools.length },
      "mcp server ready",
    );
    changed();
  };

  const call = async (
    modelName: string,
    args: Record<string, unknown>,
    callOptions: Parameters<McpManager["call"]>[2],
  ): Promise<McpCallOutput> => {
    const target = byModelName.get(modelName);
    const connection = target?.entry.connection;
    if (!target || !connection) {
      const server = serverOfName.get(modelName);
      const entry = server === undefined ? undefined : entries.get(server);
      const why = entry?.error ? `: ${entry.error}` : "";
      return errorOutput(
        entry
          ? `MCP server "${entry.spec.name}" is not available (${entry.state}${why})`
          : `${modelName} is not an MCP tool`,
      );
    }
    const { entry, tool } = target;
    const outcome: CallOutcome = await connection.call(tool.name, args, {
      signal: callOptions.signal,
      timeoutMs: entry.spec.toolTimeoutMs,
      onProgress: callOptions.onProgress,
    });
    if (outcome.type === "result") {
      const mapped = mapCallResult(outcome.result, options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS);
      return mapped.parts ? { ...mapped, parts: await boundImages(mapped.parts) } : mapped;
    }
    const label = `${entry.spec.name}/${tool.name}`;
    switch (outcome.kind) {
      case "cancelled":
        return errorOutput(`MCP tool ${label} was cancelled`);
      case "timeout":
        return errorOutput(`MCP tool ${label} ${outcome.message}`);
      case "lost":
        return errorOutput(`MCP server "${entry.spec.name}" is gone: ${outcome.message}`);
      default:
        return errorOutput(`MCP tool ${label} failed: ${outcome.message}`);
    }
  };

  return {
    async start(servers) {
      if (closing.signal.aborted) return;
      const fresh: Entry[] = [];
      for (const spec of servers) {
        if (entries.has(spec.name)) {
          logger.warn({ mcpServer: spec.name }, "mcp server already started; ignoring the second one");
          continue;
        }
        const entry: Entry = { spec, state: "starting", kind: spec.transport.type, tools: [] };
        entries.set(spec.name, entry);
        fresh.push(entry);
      }
      if (fresh.length === 0) return;
      changed();
      const runs = fresh.map((entry) => startOne(entry));
      for (const run of runs) {
        starting.add(run);
        void run.finally(() => starting.delete(run));
      }
      await Promise.all(runs);
    },
    tools: () => [...infos],
    call,
    status: () =>
      [...entries.values()].map((entry) => ({
        name: entry.spec.name,
        state: entry.state,
        ...(entry.error === undefined ? {} : { error: entry.error }),
        tools: entry.state === "ready" ? entry.tools.length : 0,
        source: entry.spec.source,
        transport: entry.kind,
      })),
    instructions: () =>
      [...entries.values()].flatMap((entry) => {
        const text = entry.state === "ready" ? entry.connection?.instructions?.trim() : undefined;
        return text ? [{ server: entry.spec.name, text }] : [];
      }),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closed ??= (async () => {
        closing.abort();
        await Promise.allSettled([...starting]);
        const connections = [...entries.values()].map((entry) => {
          const connection = entry.connection;
          if (entry.state !== "failed") entry.state = "closed";
          entry.connection = undefined;
          entry.tools = [];
          return connection?.close();
        });
        await Promise.allSettled(connections);
        listeners.clear();
        rebuild();
      })();
      return closed;
    },
  };
}

function exposed(spec: McpServerSpec, tools: McpTool[], logger: McpLogger): McpTool[] {
  const enabled = spec.enabledTools === undefined ? undefined : new Set(spec.enabledTools);
  const disabled = new Set(spec.disabledTools);
  return tools.filter((tool) => {
    if (enabled && !enabled.has(tool.name)) return false;
    if (disabled.has(tool.name)) return false;
    // `tools/call` without the experimental tasks API is refused for these.
    if (tool.execution?.taskSupport === "required") {
      logger.debug({ mcpServer: spec.name, tool: tool.name }, "mcp tool needs the tasks API; not exposed");
      return false;
    }
    return true;
  });
}

function errorOutput(text: string): McpCallOutput {
  return { output: text, display: [{ type: "text", text }], isError: true };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
