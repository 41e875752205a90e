import { statSync } from "node:fs";
import path from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ResumeError, runOnce } from "../acp/run-once.js";
import type { Logger } from "../config/logger.js";
import type { Mode } from "../config/types.js";
import type { SessionManager } from "../sessions/session-manager.js";
import type { Store } from "../store/types.js";
import { createAnswer, progressLine } from "./progress.js";
import { parseReply, parseStart, REPLY_TOOL, START_TOOL, ToolInputError } from "./tools.js";

/** What the server needs of the CLI's runtime. */
export interface McpRuntime {
  manager: SessionManager;
  logger: Logger;
  store: Store;
}

interface Turn {
  prompt: string;
  cwd: string;
  resume?: string;
  model?: string;
  harness?: string;
  mode?: Mode;
  ask: boolean;
}

/**
 * `interpreter mcp-server`: the two tools on stdio. Each call runs one turn through the same
 * in-process ACP agent as `exec`; permission requests become elicitations when the client can
 * answer them. Resolves when the client closes the connection.
 */
export async function serveMcp(runtime: McpRuntime, version: string): Promise<void> {
  // Loaded here, not at the top: every command's module is evaluated while the start-up snapshot
  // is built, and the SDK is required from node_modules at run time only (scripts/lazy-require.mjs).
  const [{ Server }, { StdioServerTransport }, { CallToolRequestSchema, ListToolsRequestSchema }] =
    await Promise.all([
      import("@modelcontextprotocol/sdk/server/index.js"),
      import("@modelcontextprotocol/sdk/server/stdio.js"),
      import("@modelcontextprotocol/sdk/types.js"),
    ]);
  const server = new Server(
    { name: "interpreter-mcp-server", title: "Open Interpreter", version },
    { capabilities: { tools: {}, logging: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [START_TOOL, REPLY_TOOL] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    let turn: Turn;
    try {
      if (request.params.name === START_TOOL.name) {
        const input = parseStart(request.params.arguments);
        const cwd = path.resolve(input.cwd ?? process.cwd());
        if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory())
          throw new ToolInputError(`cwd ${cwd}: not a directory`);
        turn = { ...input, cwd };
      } else if (request.params.name === REPLY_TOOL.name) {
        const input = parseReply(request.params.arguments);
        turn = {
          prompt: input.prompt,
          cwd: storedCwd(runtime, input.threadId),
          resume: input.threadId,
          ask: true,
        };
      } else return failure(`unknown tool: ${request.params.name}`);
    } catch (error) {
      if (error instanceof ToolInputError) return failure(error.message);
      throw error;
    }
    const token = request.params._meta?.progressToken;
    let progress = 0;
    const answer = createAnswer();
    const canElicit = server.getClientCapabilities()?.elicitation !== undefined;
    let sessionId = turn.resume ?? "";
    try {
      const result = await runOnce({
        manager: runtime.manager,
        logger: runtime.logger,
        version,
        cwd: turn.cwd,
        prompt: [turn.prompt],
        ...(turn.resume ? { resume: turn.resume } : {}),
        ...(turn.mode ? { mode: turn.mode } : {}),
        ...(turn.model ? { model: turn.model } : {}),
        ...(turn.harness ? { harness: turn.harness } : {}),
        signal: extra.signal,
        onSession(id) {
          sessionId = id;
        },
        onEvent(event) {
          answer.onEvent(event);
          const line = progressLine(event);
          if (line === undefined) return;
          if (token !== undefined)
            void extra.sendNotification({
              method: "notifications/progress",
              params: { progressToken: token, progress: ++progress, message: line },
            });
          void server
            .sendLoggingMessage({ level: "info", logger: "interpreter", data: line })
            .catch(() => {});
        },
        ...(canElicit && turn.ask
          ? {
              async askPermission({ title }: { title: string }) {
                const reply = await server.elicitInput(
                  {
                    message: `Allow: ${title}?`,
                    requestedSchema: { type: "object", properties: {} },
                  },
                  { signal: extra.signal },
                );
                return reply.action === "accept";
              },
            }
          : {}),
      });
      const refused = answer.refused();
      const note =
        refused.length > 0 && !canElicit
          ? `\n\n(refused without asking — this MCP client cannot answer approvals (no elicitation): ${refused.join(", ")})`
          : "";
      const content = answer.final() + note;
      const stopped = result.stopReason === "cancelled" ? "\n\n(turn cancelled)" : "";
      return {
        content: [{ type: "text", text: content + stopped }],
        structuredContent: { threadId: result.sessionId, content: content + stopped },
        ...(result.stopReason === "end_turn" || result.stopReason === "cancelled" ? {} : { isError: true }),
      };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return failure(error instanceof ResumeError ? message : `session ${sessionId}: ${message}`);
    }
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  await server.connect(transport);
  await closed;
}

/** A stored session's folder, so a reply works wherever the server was started. */
function storedCwd(runtime: McpRuntime, id: string): string {
  const found = runtime.store.getSession(id)?.cwd;
  if (found === undefined) throw new ToolInputError(`unknown session id: ${id}`);
  return found;
}

function failure(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
