import {
  type ClientConnection,
  type ContentBlock,
  client,
  methods,
  type RequestPermissionRequest,
  type SessionConfigOption,
  type SessionUpdate,
  type StopReason,
} from "@agentclientprotocol/sdk/unstable";
import { type AgentLink, agentTarget } from "./agent-link.js";
import { type RunUsage, turnUsage } from "./run-usage.js";
import { STEERING_METHOD } from "./session-travel.js";

// The terminal chat renders ACP's own view of a session, so it sees exactly what editors see.
export type {
  AvailableCommand,
  ContentBlock,
  PermissionOption,
  PlanEntry,
  RequestPermissionRequest,
  SessionConfigOption,
  SessionUpdate,
  StopReason,
  ToolCallContent,
  ToolCallStatus,
} from "@agentclientprotocol/sdk/unstable";

/** What the user chose for a permission request: one of the offered option ids, or nothing. */
export type PermissionChoice = { optionId: string } | "cancelled";

export type LocalClientOptions = AgentLink & ClientSpec;

export interface ClientSpec {
  version: string;
  /** Client name sent in `initialize` (shows in logs). */
  name: string;
  /** Every `session/update`, in the order the agent sent it (replayed history included). */
  onUpdate(update: SessionUpdate): void;
  /**
   * A tool call needs approval. `signal` aborts when the agent withdraws the question (the turn
   * was cancelled); the answer is then ignored.
   */
  onPermission(request: RequestPermissionRequest, signal: AbortSignal): Promise<PermissionChoice>;
}

export interface LocalSession {
  sessionId: string;
  configOptions: SessionConfigOption[];
}

export interface SessionSummary {
  sessionId: string;
  cwd: string;
  title?: string | null;
  updatedAt?: string | null;
  archived?: boolean;
}

/** One ACP connection to the agent (`AgentLink`), bound to at most one session at a time. */
export interface LocalClient {
  /** The agent takes image blocks in a prompt (its `promptCapabilities.image`). */
  readonly acceptsImages: boolean;
  newSession(cwd: string): Promise<LocalSession>;
  /** `session/load`: the stored history arrives through `onUpdate` before this resolves. */
  loadSession(sessionId: string, cwd: string): Promise<LocalSession>;
  /** Stored sessions, newest first, every page (optionally only those started in `cwd`; archived ones by `archived`). */
  listSessions(cwd?: string, archived?: "include" | "only"): Promise<SessionSummary[]>;
  /** `session/archive` or `session/unarchive`; rejects when there is no such session. */
  archive(sessionId: string, archived: boolean): Promise<void>;
  /** Runs one turn (text, or content blocks); rejects with the agent's error message when the turn failed. */
  prompt(prompt: string | ContentBlock[]): Promise<StopReason>;
  /** `prompt`, with the turn's tokens when the agent reported them. */
  promptTurn(prompt: string | ContentBlock[]): Promise<{ stopReason: StopReason; usage?: RunUsage }>;
  /** `session/cancel` for the running turn (no-op when idle). */
  cancel(): Promise<void>;
  setConfigOption(configId: string, value: string): Promise<SessionConfigOption[]>;
  /** `session/fork` of a stored session: the new session's id (open, not bound to this client). */
  forkSession(sessionId: string, cwd: string): Promise<string>;
  /** `session/set_title`: the title as stored; rejects when it is empty or there is no such session. */
  setTitle(sessionId: string, title: string): Promise<string>;
  /** Steers `text` into the bound session's running turn; false when no turn was running. */
  steer(text: string): Promise<boolean>;
  /** `session/delete`: the stored session and its history; rejects when there is none. */
  deleteSession(sessionId: string): Promise<void>;
  close(): void;
}

/**
 * The same ACP agent the editors use, in this process or the shared daemon's (`AgentLink`),
 * driven by the official SDK client, so the terminal chat never takes a second code path into
 * the sessions.
 */
export async function connectLocalClient(options: LocalClientOptions): Promise<LocalClient> {
  const editor = client({ name: options.name })
    .onNotification(methods.client.session.update, ({ params }) => options.onUpdate(params.update))
    .onRequest(methods.client.session.requestPermission, async ({ params, signal }) => {
      const choice = await options.onPermission(params, signal);
      if (choice === "cancelled" || signal.aborted) return { outcome: { outcome: "cancelled" } };
      return { outcome: { outcome: "selected", optionId: choice.optionId } };
    });
  const target = agentTarget(options, options.version);
  const connection: ClientConnection = "readable" in target ? editor.connect(target) : editor.connect(target);
  const agent = connection.agent;
  const initialized = await agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities: {},
    clientInfo: { name: options.name, version: options.version },
  });
  let sessionId: string | undefined;
  const current = (): string => {
    if (!sessionId) throw new Error("no session is open");
    return sessionId;
  };
  const promptTurn = async (prompt: string | ContentBlock[]) => {
    const response = await agent.request(methods.agent.session.prompt, {
      sessionId: current(),
      prompt: typeof prompt === "string" ? [{ type: "text", text: prompt }] : prompt,
    });
    const usage = turnUsage((response as { usage?: unknown }).usage);
    return { stopReason: response.stopReason, ...(usage ? { usage } : {}) };
  };
  return {
    acceptsImages: initialized.agentCapabilities?.promptCapabilities?.image === true,
    async newSession(cwd) {
      const response = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
      sessionId = response.sessionId;
      return { sessionId: response.sessionId, configOptions: response.configOptions ?? [] };
    },
    async loadSession(id, cwd) {
      sessionId = id;
      const response = await agent.request(methods.agent.session.load, {
        sessionId: id,
        cwd,
        mcpServers: [],
      });
      return { sessionId: id, configOptions: response.configOptions ?? [] };
    },
    async listSessions(cwd, archived) {
      const found: SessionSummary[] = [];
      for (let cursor: string | undefined; ; ) {
        const page = await agent.request(methods.agent.session.list, {
          ...(cwd ? { cwd } : {}),
          ...(archived ? { archived } : {}),
          ...(cursor ? { cursor } : {}),
        });
        for (const s of page.sessions)
          found.push({
            sessionId: s.sessionId,
            cwd: s.cwd,
            title: s.title,
            updatedAt: s.updatedAt,
            archived: s.archived === true,
          });
        if (!page.nextCursor) return found;
        cursor = page.nextCursor;
      }
    },
    async archive(id, archived) {
      await agent.request(archived ? methods.agent.session.archive : methods.agent.session.unarchive, {
        sessionId: id,
      });
    },
    async prompt(prompt) {
      return (await promptTurn(prompt)).stopReason;
    },
    promptTurn,
    async cancel() {
      if (sessionId) await agent.notify(methods.agent.session.cancel, { sessionId });
    },
    async setConfigOption(configId, value) {
      const response = await agent.request(methods.agent.session.setConfigOption, {
        sessionId: current(),
        configId,
        value,
      });
      return response.configOptions;
    },
    async forkSession(id, cwd) {
      return (await agent.request(methods.agent.session.fork, { sessionId: id, cwd, mcpServers: [] }))
        .sessionId;
    },
    async setTitle(id, title) {
      return (await agent.request(methods.agent.session.setTitle, { sessionId: id, title })).title;
    },
    async steer(text) {
      const answer = (await agent.request(STEERING_METHOD, {
        sessionId: current(),
        prompt: [{ type: "text", text }],
        _meta: { steering: { idleBehavior: "promptRequired" } },
      })) as { outcome?: string };
      return answer.outcome === "injected";
    },
    async deleteSession(id) {
      await agent.request(methods.agent.session.delete, { sessionId: id });
      if (sessionId === id) sessionId = undefined;
    },
    close() {
      connection.close();
    },
  };
}
