import type { Logger } from "../config/logger.js";
import { createMcpManager, type McpManager } from "../tools/mcp/mcp-manager.js";
import { type McpServerSpec, parseMcpServers } from "../tools/mcp/mcp-server-spec.js";
import { mcpTool } from "../tools/mcp/mcp-tool.js";
import type { Tool } from "../tools/types.js";

/**
 * A session's MCP servers: started in the background when the session opens (from config, a
 * trusted project and the editor), more when a project is trusted later; a turn waits for
 * `ready` before its first request. Closing stops every server with its process tree.
 */
export class SessionMcp {
  private pending: Promise<void>;

  constructor(
    private readonly manager: McpManager,
    servers: McpServerSpec[],
    /** Config or editor entries that could not be used, for `/mcp`. */
    readonly problems: string[],
    /** False for a subagent's view of its parent's servers. */
    private readonly owner = true,
  ) {
    this.pending = servers.length > 0 ? manager.start(servers) : Promise.resolve();
  }

  /** Settles when every server started so far is up or has failed; never rejects. */
  get ready(): Promise<void> {
    return this.pending;
  }

  /** Starts more servers (a project config trusted mid-session); the next turn waits for them. */
  add(servers: McpServerSpec[]): void {
    if (servers.length === 0) return;
    this.pending = Promise.all([this.pending, this.manager.start(servers)]).then(() => undefined);
  }

  /** The servers' tools as they are now, ready for a request. */
  tools(): Tool[] {
    return this.manager.tools().map((info) => mcpTool(info, this.manager));
  }

  /** The servers and their states, for `/mcp` and `/status`. */
  status() {
    return { servers: this.manager.status(), problems: this.problems };
  }

  /** The same servers for a subagent's session; closing it leaves them running for this one. */
  shared(): SessionMcp {
    const view = new SessionMcp(this.manager, [], this.problems, false);
    view.pending = this.pending;
    return view;
  }

  close(): Promise<void> {
    return this.owner ? this.manager.close() : Promise.resolve();
  }
}

/** The MCP servers a session gets: config and project entries (`[mcp_servers]`) plus the editor's. */
export function sessionMcp(options: {
  config: Record<string, unknown>;
  acp: unknown[];
  env: Record<string, string | undefined>;
  logger: Logger;
  cwd: string;
  clientVersion: string;
}): SessionMcp {
  const { logger } = options;
  const manager = createMcpManager({
    env: options.env,
    logger,
    cwd: options.cwd,
    clientVersion: options.clientVersion,
  });
  const { servers, problems } = parseMcpServers({ config: options.config, acp: options.acp });
  for (const problem of problems) logger.warn(`mcp: ${problem}`);
  return new SessionMcp(manager, servers, problems);
}
