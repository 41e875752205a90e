import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { StdioProcessTransport } from "./stdio-process-transport.js";
import type { McpLogger } from "./types.js";

/** A server's transport with every value resolved: the final env, absolute cwd, header values. */
export type ResolvedTransport =
  | { type: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd: string }
  | { type: "http"; url: string; headers: Record<string, string> };

export interface OpenClientOptions {
  name: string;
  transport: ResolvedTransport;
  clientInfo: { name: string; version: string };
  /** For `initialize`: the startup deadline. */
  request: RequestOptions;
  logger: McpLogger;
  stdio?: { closeGraceMs?: number; killGraceMs?: number };
}

export interface OpenedClient {
  client: Client;
  kind: "stdio" | "http" | "sse";
  /** How a stdio server ended by itself (exit code, stderr tail); undefined otherwise. */
  describeExit(): string | undefined;
  /** Ends an HTTP session politely (DELETE); a no-op elsewhere. */
  terminate(): Promise<void>;
  /** Remembers a stdio server's current descendants (see `StdioProcessTransport.sample`). */
  sample(): void;
}

/** A stdio server that could not be initialised, with what it said on its way out. */
export class ServerStartError extends Error {
  constructor(
    message: string,
    /** `StdioProcessTransport.describeExit()`: set when the server exited by itself. */
    readonly exit: string | undefined,
    readonly stderr: string,
  ) {
    super(message);
  }
}

const NOT_STDIO = { describeExit: () => undefined, sample: () => {} };

/** The spec's back-compat rule: only these answers to the first POST mean "try SSE". */
const SSE_FALLBACK_STATUS = new Set([400, 404, 405]);

/**
 * Connects a client (runs `initialize`). Streamable HTTP first; the deprecated SSE transport
 * only when the first POST is answered with 400, 404 or 405 (never on 401/403: those are
 * credentials, and SSE would fail the same way). On failure everything started is closed
 * (a stdio server's process tree included) and the error is thrown.
 */
export async function openClient(options: OpenClientOptions): Promise<OpenedClient> {
  const { transport, name, logger } = options;
  if (transport.type === "stdio") {
    const stdio = new StdioProcessTransport({
      ...transport,
      ...options.stdio,
      onStderr: (line) => logger.debug({ mcpServer: name, stderr: line }, "mcp server stderr"),
    });
    let client: Client;
    try {
      client = await connect(options, stdio);
    } catch (error) {
      throw new ServerStartError(messageOf(error), stdio.describeExit(), stdio.stderrTail());
    }
    return {
      client,
      kind: "stdio",
      describeExit: () => stdio.describeExit(),
      terminate: async () => {},
      sample: () => stdio.sample(),
    };
  }
  const url = new URL(transport.url);
  const requestInit = { headers: transport.headers };
  const http = new StreamableHTTPClientTransport(url, { requestInit });
  try {
    const client = await connect(options, http);
    return { client, kind: "http", terminate: () => http.terminateSession(), ...NOT_STDIO };
  } catch (error) {
    if (!(error instanceof StreamableHTTPError)) throw error;
    if (!SSE_FALLBACK_STATUS.has(error.code ?? 0)) throw new Error(describeHttpError(error));
    logger.info({ mcpServer: name, status: error.code }, "mcp server refused Streamable HTTP; trying SSE");
    try {
      const client = await connect(options, new SSEClientTransport(url, { requestInit }));
      return { client, kind: "sse", terminate: async () => {}, ...NOT_STDIO };
    } catch (sseError) {
      throw new Error(`Streamable HTTP answered ${error.code}, and SSE failed too: ${messageOf(sseError)}`);
    }
  }
}

async function connect(options: OpenClientOptions, transport: Transport): Promise<Client> {
  const client = new Client(options.clientInfo, { capabilities: {} });
  client.onerror = (error) =>
    options.logger.warn({ mcpServer: options.name, err: error.message }, "mcp transport error");
  try {
    await client.connect(transport, options.request);
    return client;
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
}

function describeHttpError(error: InstanceType<typeof StreamableHTTPError>): string {
  const detail = error.message.replace(/^Streamable HTTP error: /, "");
  const hint =
    error.code === 401 || error.code === 403
      ? " (OAuth is not supported: set bearer_token_env_var or headers)"
      : "";
  return `HTTP ${error.code}${hint}: ${detail}`;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
