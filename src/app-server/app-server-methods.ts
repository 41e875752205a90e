import path from "node:path";
import { connectLocalClient, type LocalClient } from "../acp/local-client.js";
import { catalogMethods, modelEntries, type ThreadDefaults } from "./catalog-methods.js";
import { RpcError } from "./json-rpc-lines.js";
import { current, sessionSettings, threadView, type ViewContext } from "./thread-view.js";
import { openThread, startTurn, type Thread, type ThreadDeps } from "./threads.js";
import { travelMethods } from "./travel-methods.js";

export interface AppServerOptions extends Omit<ThreadDeps, "peer"> {
  /** The configured model and provider id (what a thread starts with). */
  model: string;
  provider: string;
  home: string;
}

type Params = Record<string, unknown>;
export type Method = (params: Params) => Promise<unknown>;

/**
 * The Codex app-server methods we answer, each a pure mapping onto the in-process ACP agent
 * (the same sessions, store, harnesses and permission rules as `interpreter acp`).
 */
export function appServerMethods(options: AppServerOptions, deps: ThreadDeps): Record<string, Method> {
  const threads = new Map<string, Thread>();
  const defaults: ThreadDefaults = {};
  const view = (): ViewContext => ({
    version: options.version,
    provider: options.provider,
    model: options.model,
  });
  let index: Promise<LocalClient> | undefined;
  const lister = () => {
    index ??= connectLocalClient({
      manager: options.manager,
      logger: options.logger,
      version: options.version,
      name: "app-server-index",
      onUpdate() {},
      onPermission: async () => "cancelled",
    });
    return index;
  };
  const loaded = (params: Params): Thread => {
    const thread = threads.get(String(params.threadId));
    if (!thread) throw new RpcError(-32600, `thread not loaded: ${String(params.threadId)}`);
    return thread;
  };
  const loadedView = (thread: Thread, withTurns = true) =>
    threadView(view(), { ...thread, turns: withTurns ? thread.turns : [], loaded: true });
  const stored = async (id: string) =>
    (await (await lister()).listSessions(undefined, "include")).find((s) => s.sessionId === id);
  // codex-acp opens an ephemeral thread to have a title written; our sessions title
  // themselves, so such a thread is answered but never becomes a stored session.
  const ephemeral = new Set<string>();
  const ephemeralThread = (params: Params) => {
    const id = `ephemeral-${ephemeral.size}-${options.now().toString(36)}`;
    ephemeral.add(id);
    const cwd = absolute(params.cwd ?? process.cwd());
    const createdAt = Math.floor(options.now() / 1000);
    const thread = {
      ...threadView(view(), { id, cwd, createdAt, turns: [], loaded: true }),
      ephemeral: true,
    };
    return { thread, ...sessionSettings(view(), { cwd, options: [] }) };
  };
  const openStored = async (id: string, cwd: string) => {
    const thread = await openThread(deps, { cwd, resume: id });
    threads.set(id, thread);
    return { thread: loadedView(thread), ...sessionSettings(view(), thread) };
  };
  const absolute = (cwd: unknown): string => {
    if (typeof cwd !== "string" || !path.isAbsolute(cwd))
      throw new RpcError(-32602, "cwd must be an absolute path");
    return cwd;
  };

  return {
    async initialize() {
      return {
        userAgent: `openinterpreter/${options.version}`,
        codexHome: options.home,
        platformFamily: process.platform === "win32" ? "windows" : "unix",
        platformOs: process.platform === "darwin" ? "macos" : process.platform,
      };
    },
    async "config/read"() {
      return {
        config: {
          model: options.model,
          model_provider: options.provider,
          mcp_servers: {},
          model_providers: {},
        },
        origins: {},
        layers: null,
      };
    },
    // An API-key / custom-provider account: never asks the client to sign in to OpenAI.
    async "account/read"() {
      return { account: { type: "apiKey" }, requiresOpenaiAuth: false };
    },
    async "permissionProfile/list"() {
      return {
        data: [":read-only", ":workspace", ":danger-full-access"].map((id) => ({
          id,
          description: null,
          allowed: true,
        })),
        nextCursor: null,
      };
    },
    async "skills/list"() {
      return { data: [] };
    },
    async "model/list"() {
      const ids = [...new Set([options.model, ...options.manager.endpoints.models()].filter(Boolean))];
      return { data: modelEntries(ids, options.model), nextCursor: null };
    },
    async "thread/start"(params) {
      if (params.ephemeral === true) return ephemeralThread(params);
      const thread = await openThread(deps, { cwd: absolute(params.cwd ?? process.cwd()) });
      threads.set(thread.id, thread);
      const model = typeof params.model === "string" ? params.model : defaults.model;
      if (model) await setOption(thread, "model", model);
      if (defaults.harness) await setOption(thread, "harness", defaults.harness);
      const answer = { thread: loadedView(thread), ...sessionSettings(view(), thread) };
      queueMicrotask(() => deps.peer.notify("thread/started", { thread: answer.thread }));
      return answer;
    },
    async "thread/resume"(params) {
      const id = String(params.threadId);
      const open = threads.get(id);
      if (open) return { thread: loadedView(open), ...sessionSettings(view(), open) };
      const record = await stored(id);
      if (!record) throw new RpcError(-32600, `no thread ${id}`);
      return openStored(id, record.cwd);
    },
    async "thread/read"(params) {
      const id = String(params.threadId);
      const open = threads.get(id);
      if (open) return { thread: loadedView(open, params.includeTurns === true) };
      const record = await stored(id);
      if (!record) throw new RpcError(-32600, `no thread ${id}`);
      return { thread: threadView(view(), listed(record)) };
    },
    async "thread/list"(params) {
      const cwd = typeof params.cwd === "string" ? params.cwd : undefined;
      const sessions = await (await lister()).listSessions(
        cwd,
        params.archived === true ? "only" : undefined,
      );
      const limit = typeof params.limit === "number" ? params.limit : sessions.length;
      return {
        data: sessions.slice(0, limit).map((s) => threadView(view(), listed(s))),
        nextCursor: null,
        backwardsCursor: null,
      };
    },
    async "thread/turns/list"(params) {
      const turns = loaded(params).turns.map((turn) =>
        params.itemsView === "notLoaded" ? { ...turn, items: [], itemsView: "notLoaded" } : turn,
      );
      return page(params.sortDirection === "desc" ? turns.reverse() : turns, params.limit);
    },
    async "thread/items/list"(params) {
      const entries = loaded(params)
        .turns.filter((turn) => !params.turnId || turn.id === params.turnId)
        .flatMap((turn) => turn.items.map((item) => ({ item, turnId: turn.id, completedAtMs: null })));
      return page(params.sortDirection === "desc" ? entries.reverse() : entries, params.limit);
    },
    async "thread/backgroundTerminals/list"() {
      return { data: [], nextCursor: null };
    },
    async "thread/delete"(params) {
      const id = String(params.threadId);
      const open = threads.get(id);
      if (open?.running) throw new RpcError(-32600, "the thread is running a turn: interrupt it first");
      threads.delete(id);
      try {
        await (open?.client ?? (await lister())).deleteSession(id);
      } catch {
        throw new RpcError(-32600, `no thread ${id}`);
      } finally {
        open?.client.close();
      }
      queueMicrotask(() => deps.peer.notify("thread/deleted", { threadId: id }));
      return {};
    },
    async "thread/loaded/list"() {
      return { data: [...threads.keys()], nextCursor: null };
    },
    async "thread/unsubscribe"(params) {
      const thread = threads.get(String(params.threadId));
      if (thread && !thread.running) {
        thread.client.close();
        threads.delete(thread.id);
      }
      return { status: "unsubscribed" };
    },
    async "turn/start"(params) {
      if (ephemeral.has(String(params.threadId)))
        throw new RpcError(-32600, "ephemeral threads do not run turns here: sessions title themselves");
      const thread = loaded(params);
      const text = ((params.input as Array<{ type?: string; text?: string }>) ?? [])
        .flatMap((part) => (part.type === "text" && typeof part.text === "string" ? [part.text] : []))
        .join("\n");
      if (typeof params.model === "string" && params.model !== current(thread.options, "model"))
        await setOption(thread, "model", params.model);
      const mode = modeOf(params);
      if (mode && mode !== current(thread.options, "mode")) await setOption(thread, "mode", mode);
      try {
        return { turn: { ...startTurn(deps, thread, text), items: [] } };
      } catch (error) {
        throw new RpcError(-32600, error instanceof Error ? error.message : String(error));
      }
    },
    async "turn/interrupt"(params) {
      const thread = loaded(params);
      await thread.client.cancel();
      return {};
    },
    ...catalogMethods({
      loaded,
      setOption,
      config: options.manager.config,
      harnesses: options.manager.harnesses,
      models: () => options.manager.endpoints.models(),
      defaults,
    }),
    ...travelMethods({
      loaded,
      index: lister,
      stored,
      openStored,
      notify: (method, params) => deps.peer.notify(method, params),
      threadOf: (id) => {
        const thread = threads.get(id);
        return thread ? { thread: loadedView(thread) } : undefined;
      },
    }),
  };
}

async function setOption(thread: Thread, id: string, value: string): Promise<void> {
  thread.options = await thread.client.setConfigOption(id, value);
}

/**
 * The per-turn policy a Codex client sends (codex-acp's mode menu) as our mode: a read-only
 * sandbox is read-only, no sandbox and no approvals is full access, a workspace sandbox is
 * workspace-write. Anything else leaves the session's mode alone.
 */
export function modeOf(params: Params): string | undefined {
  const sandbox = (params.sandboxPolicy as { type?: unknown } | undefined)?.type;
  if (sandbox === "readOnly") return "read-only";
  if (sandbox === "dangerFullAccess" && params.approvalPolicy === "never") return "full-access";
  if (sandbox === "workspaceWrite") return "workspace-write";
  return undefined;
}

function page<T>(data: T[], limit: unknown) {
  const n = typeof limit === "number" && limit > 0 ? limit : data.length;
  return { data: data.slice(0, n), nextCursor: null, backwardsCursor: null };
}

function listed(s: { sessionId: string; cwd: string; title?: string | null; updatedAt?: string | null }) {
  const updated = s.updatedAt ? Math.floor(Date.parse(s.updatedAt) / 1000) : 0;
  return {
    id: s.sessionId,
    cwd: s.cwd,
    createdAt: updated,
    updatedAt: updated,
    name: s.title ?? null,
    turns: [],
    loaded: false,
  };
}
