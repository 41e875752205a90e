import path from "node:path";
import {
  type AgentApp,
  type AgentContext,
  agent,
  methods,
  PROTOCOL_VERSION,
  RequestError,
} from "@agentclientprotocol/sdk/unstable";
import { z } from "zod";
import type { Logger } from "../config/logger.js";
import { MODES, type Mode } from "../config/types.js";
import type { Session } from "../sessions/session.js";
import { type SessionManager, SessionNotFoundError } from "../sessions/session-manager.js";
import { availableCommands, handleSlashCommand, SLASH_COMMANDS } from "../sessions/slash-commands.js";
import { type SessionOutput, TurnError } from "../sessions/types.js";
import { usageTotals } from "../sessions/usage-totals.js";
import { createClientPort } from "./client-port.js";
import { toConfigOptions, toModeState } from "./config-options.js";
import { createInflight, type Inflight } from "./inflight.js";
import { type ClientFeatures, toSessionUpdates } from "./map-output.js";
import { withSessionTravel } from "./session-travel.js";
import type { SessionWindow } from "./session-window.js";

export type { SessionViewer, SessionWindow } from "./session-window.js";

export interface AgentAppOptions {
  manager: SessionManager;
  logger: Logger;
  version: string;
  /** Where prompt turns are tracked for shutdown (`serveStdio`'s caller waits on it). */
  inflight?: Inflight;
  /**
   * Resolves once what was sent to the editor so far is written (`MessageStream.drained`).
   * Work meant for after a response waits for it: after a long replay the response is still
   * queued behind the updates, and starting the sandbox probe or the model list then would
   * take the CPU from the editor reading them. Default: resolved.
   */
  drained?: () => Promise<void>;
  /**
   * Set when several connections share the sessions (the shared daemon, docs/daemon.md): who
   * shows which session. Then a prompt's turn is not tied to the connection: only
   * `$/cancel_request` or `session/cancel` stops it, not the connection closing.
   */
  windows?: SessionWindow;
}

/**
 * `session/load` `_meta` flag, shared daemon only: replay the history without taking the session
 * over (docs/daemon.md). The window follows it live from then on but may not prompt it.
 */
export const READ_ONLY = "openinterpreter/readOnly";

/** Set by our own unattended clients (`interpreter exec`, the MCP server): no person answers questions. */
export const UNATTENDED = "openinterpreter/unattended";

/** The ACP agent: protocol in, session calls out. The only place that knows ACP method names. */
export function createAgentApp(options: AgentAppOptions): AgentApp {
  const { manager, logger, windows, drained = () => Promise.resolve() } = options;
  const inflight = options.inflight ?? createInflight();
  /** Runs `task` after the response being sent now: the SDK queues it once the handler returns. */
  const afterResponse = (task: () => void) => setImmediate(() => void drained().then(task));
  // Set by `initialize`; one app serves one connection (stdio, or the in-process client).
  const features: ClientFeatures = {};

  const portFor = (sessionId: string, client: AgentContext) =>
    createClientPort({ client, sessionId, logger, features });
  const attach = (session: Session, client: AgentContext, port = portFor(session.id, client)) => {
    if (windows) windows.claim(session, port);
    else session.attach(port);
    // Editors stall when commands arrive before the session/new response: send them after it.
    afterResponse(() => session.send({ type: "commands", commands: SLASH_COMMANDS }));
    // The endpoint's model list joins the picker once known. Fetched after the first session's
    // response, never at start-up: `initialize` stays free of network and of the HTTP client.
    afterResponse(() => void manager.endpoints.discoverModels().then(() => manager.refreshOptions()));
    // Skills join the list once discovered (never before the response above).
    void session.skills().then((skills) => {
      if (skills.length > 0)
        afterResponse(() => session.send({ type: "commands", commands: availableCommands(skills) }));
    });
  };
  const setupResponse = (session: Session) => ({
    configOptions: toConfigOptions(session.options()),
    modes: toModeState(session.options()),
  });
  // -32002 with data.sessionId as ACP asks, and a message that says which session and why.
  const notFound = (sessionId: string) =>
    new RequestError(
      -32002,
      manager.stored(sessionId)
        ? `Resource not found: session ${sessionId} is not open (closed, or not loaded in this process); load or resume it first`
        : `Resource not found: no session ${sessionId}`,
      { sessionId },
    );
  const open = (sessionId: string): Session => {
    const session = manager.get(sessionId);
    if (!session) throw notFound(sessionId);
    if (options.windows && !options.windows.shows(sessionId))
      throw new RequestError(
        -32002,
        `Resource not found: session ${sessionId} is open in another window; load it here to take it over`,
        { sessionId },
      );
    return session;
  };
  /** A stored session opened by `how` (load or resume): bad paths refused, an unknown id -32002. */
  const reopen = async (
    params: { sessionId: string; cwd: string; additionalDirectories?: string[] },
    how: () => Session | Promise<Session>,
  ): Promise<Session> => {
    checkPaths(params.cwd, params.additionalDirectories);
    try {
      return await how();
    } catch (error) {
      if (error instanceof SessionNotFoundError) throw notFound(params.sessionId);
      throw error;
    }
  };

  const app = agent({ name: "openinterpreter" })
    .onRequest(methods.agent.initialize, ({ params }) => {
      features.compaction = params.clientCapabilities?.session?.compaction != null;
      features.forms = params.clientCapabilities?.elicitation?.form != null;
      features.unattended = params.clientCapabilities?._meta?.[UNATTENDED] === true;
      features.subagents = params.clientCapabilities?.subagents != null;
      return {
        protocolVersion: Math.min(params.protocolVersion, PROTOCOL_VERSION),
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: false },
          sessionCapabilities: {
            ...{ list: {}, resume: {}, close: {}, delete: {}, additionalDirectories: {} },
            ...{ fork: {}, title: {}, archive: {} },
          },
        },
        agentInfo: { name: "openinterpreter", title: "Open Interpreter", version: options.version },
        authMethods: [],
        _meta: { steering: { supported: true } },
      };
    })
    .onRequest(methods.agent.authenticate, () => ({}))
    .onRequest(methods.agent.session.new, ({ params, client }) => {
      checkPaths(params.cwd, params.additionalDirectories ?? undefined);
      const session = manager.create({
        cwd: params.cwd,
        additionalDirectories: params.additionalDirectories ?? [],
        mcpServers: params.mcpServers,
      });
      attach(session, client);
      return { sessionId: session.id, ...setupResponse(session) };
    })
    .onRequest(methods.agent.session.load, async ({ params, client }) => {
      const { sessionId } = params;
      const show = async (outputs: SessionOutput[]) => {
        for (const output of outputs) {
          for (const update of toSessionUpdates(output, features)) {
            await client.notify(methods.client.session.update, { sessionId, update });
          }
        }
      };
      const options = { ...params, additionalDirectories: params.additionalDirectories ?? undefined };
      if (windows && params._meta?.[READ_ONLY] === true) {
        // A look that leaves the session to its window and its stored settings. Following
        // starts before the replay is read: what a running turn adds meanwhile comes after it.
        const viewer = windows.view(sessionId, portFor(sessionId, client));
        try {
          const session = await reopen(options, () => manager.load(sessionId, { cwd: params.cwd, show }));
          viewer.start();
          return setupResponse(session);
        } catch (error) {
          viewer.stop();
          throw error;
        }
      }
      // Shared: held from before the replay is read, so a running turn's updates meanwhile follow it.
      const port = portFor(sessionId, client);
      const held = windows?.view(sessionId, port);
      let session: Session;
      try {
        session = await reopen(options, () => manager.load(sessionId, { ...options, show }));
      } catch (error) {
        held?.stop();
        throw error;
      }
      attach(session, client, port);
      afterResponse(() => manager.warmUp());
      return setupResponse(session);
    })
    .onRequest(methods.agent.session.resume, async ({ params, client }) => {
      const options = {
        ...params,
        additionalDirectories: params.additionalDirectories ?? undefined,
        mcpServers: params.mcpServers ?? undefined,
      };
      const session = await reopen(options, () => manager.reopen(params.sessionId, options));
      attach(session, client);
      afterResponse(() => manager.warmUp());
      return setupResponse(session);
    })
    .onRequest(methods.agent.session.list, ({ params }) => {
      try {
        const page = manager.list({
          cwd: params.cwd ?? undefined,
          cursor: params.cursor ?? undefined,
          archived: archiveFilter(params.archived),
        });
        return {
          sessions: page.sessions.map((s) => {
            // Subagents' sessions are listed under the session that started them, not beside it.
            const children = manager.children(s.id);
            return {
              sessionId: s.id,
              cwd: s.cwd,
              additionalDirectories: s.additionalDirectories,
              title: s.title,
              updatedAt: s.updatedAt,
              archived: s.archivedAt !== null,
              ...(children.length > 0
                ? {
                    _meta: {
                      [SUBAGENT_SESSIONS]: children.map((c) => ({
                        sessionId: c.id,
                        title: c.title,
                        updatedAt: c.updatedAt,
                      })),
                    },
                  }
                : {}),
            };
          }),
          ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        };
      } catch (error) {
        if ((error as { code?: string }).code === "invalid_cursor") {
          throw RequestError.invalidParams({ cursor: params.cursor }, "unknown or malformed cursor");
        }
        throw error;
      }
    })
    .onRequest(methods.agent.session.close, ({ params }) => {
      if (!manager.close(params.sessionId)) throw notFound(params.sessionId);
      return {};
    })
    .onRequest(methods.agent.session.delete, ({ params }) => {
      if (!manager.delete(params.sessionId)) throw notFound(params.sessionId);
      return {};
    })
    .onRequest(methods.agent.session.setMode, ({ params }) => {
      open(params.sessionId).setMode(parseMode(params.modeId));
      return {};
    })
    .onRequest(methods.agent.session.setConfigOption, ({ params }) => {
      const session = open(params.sessionId);
      const value = "value" in params ? params.value : undefined;
      if (typeof value !== "string")
        throw RequestError.invalidParams({ configId: params.configId }, "expected a string value");
      if (params.configId === "mode") session.setMode(parseMode(value));
      else if (params.configId === "model") session.setModel(value);
      else if (params.configId === "harness") {
        const problem = session.setHarness(value, "harness option");
        if (problem) {
          const { harnesses } = session.options();
          throw RequestError.invalidParams({ value, known: harnesses.map((h) => h.id) }, problem);
        }
      } else
        throw RequestError.invalidParams(
          { configId: params.configId },
          `unknown config option '${params.configId}'`,
        );
      return { configOptions: toConfigOptions(session.options()) };
    })
    .onRequest("session/set_model", SetModelParams, ({ params }) => {
      open(params.sessionId).setModel(params.modelId);
      return {};
    })
    .onRequest(methods.agent.session.prompt, async ({ params, signal }) => {
      const session = open(params.sessionId);
      const outcome = await inflight.track(
        handleSlashCommand({ session, content: params.prompt, endpoint: manager.endpoint }),
      );
      if (outcome.handled) return { stopReason: "end_turn" };
      try {
        // `signal` aborts on `$/cancel_request` for this prompt: answered `cancelled`, not -32800.
        const before = usageTotals(session.committed.history);
        const turnSignal = options.windows ? cancelRequestsOnly(signal) : signal;
        const stopReason = await inflight.track(session.prompt(outcome.prompt, { signal: turnSignal }));
        return { stopReason, usage: turnUsage(before, usageTotals(session.committed.history)) };
      } catch (error) {
        if (error instanceof TurnError) throw new RequestError(-32603, error.message, { code: error.code });
        throw error;
      }
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      if (options.windows && !options.windows.shows(params.sessionId)) return;
      manager.get(params.sessionId)?.cancel();
    });
  return withSessionTravel(app, {
    manager,
    open,
    notFound,
    checkPaths,
    attach,
    setupResponse,
    track: (work) => inflight.track(work),
  });
}

/**
 * A request's signal that follows `$/cancel_request` (the SDK aborts with -32800) but not the
 * connection closing, which aborts every request's signal with another reason: in the shared
 * daemon a window that goes away leaves its turns to `on_client_gone`.
 */
function cancelRequestsOnly(signal: AbortSignal): AbortSignal {
  const controller = new AbortController();
  const follow = () => {
    if ((signal.reason as { code?: unknown } | undefined)?.code === -32800) controller.abort(signal.reason);
  };
  if (signal.aborted) follow();
  else signal.addEventListener("abort", follow, { once: true });
  return controller.signal;
}

/**
 * ACP's draft `PromptResponse.usage`: tokens recorded while this prompt was pending (exactly
 * this turn's unless other prompts were queued on the session at the same time).
 */
function turnUsage(before: UsageTotals, after: UsageTotals) {
  const inputTokens = after.inputTokens - before.inputTokens;
  const outputTokens = after.outputTokens - before.outputTokens;
  return {
    totalTokens: inputTokens + outputTokens,
    inputTokens,
    outputTokens,
    cachedReadTokens: after.cachedInputTokens - before.cachedInputTokens,
    cachedWriteTokens: after.cacheWriteTokens - before.cacheWriteTokens,
    thoughtTokens: after.reasoningTokens - before.reasoningTokens,
  };
}
type UsageTotals = ReturnType<typeof usageTotals>;

/**
 * The `_meta` key of a `session/list` entry that lists the sessions its subagent calls started
 * (each loadable with `session/load`); they are not listed at the top level.
 */
export const SUBAGENT_SESSIONS = "openinterpreter/subagentSessions";

const SetModelParams = z.object({ sessionId: z.string(), modelId: z.string().min(1) });

function archiveFilter(value: string | null | undefined): "exclude" | "include" | "only" {
  if (value === undefined || value === null || value === "exclude") return "exclude";
  if (value === "include" || value === "only") return value;
  throw RequestError.invalidParams({ archived: value }, "archived must be exclude, include or only");
}

function parseMode(value: string): Mode {
  if ((MODES as readonly string[]).includes(value)) return value as Mode;
  throw RequestError.invalidParams(
    { modeId: value },
    `unknown mode '${value}' (expected one of ${MODES.join(", ")})`,
  );
}

/** ACP requires absolute paths; the SDK does not check them. */
function checkPaths(cwd: string, additional: string[] | undefined): void {
  for (const p of [cwd, ...(additional ?? [])]) {
    if (!path.isAbsolute(p)) throw RequestError.invalidParams({ path: p }, `path must be absolute: ${p}`);
  }
}
