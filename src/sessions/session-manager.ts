import { randomUUID } from "node:crypto";
import path from "node:path";
import { setImmediate } from "node:timers/promises";
import { gitCeilings } from "../config/git-ceilings.js";
import type { Logger } from "../config/logger.js";
import { setupMessage, setupProblem } from "../config/setup-problem.js";
import type { Config } from "../config/types.js";
import { gitSnapshot } from "../context/git-snapshot.js";
import { findProjectRoot, holdsRepository } from "../context/project-root.js";
import type { SkillCatalog } from "../context/skills/load-skills.js";
import { findHarness, unknownHarnessMessage } from "../harnesses/harness-list.js";
import type { HarnessEntry } from "../harnesses/types.js";
import { preloadWire } from "../providers/create-provider.js";
import type { ModelEndpoint, Provider } from "../providers/types.js";
import type { HistoryEvent } from "../store/events.js";
import type { ListSessionsOptions, SessionPage, SessionRecord, Store } from "../store/types.js";
import type { SandboxStatus } from "../tools/sandbox/probe-sandbox.js";
import { sandboxSummary } from "../tools/sandbox/sandbox-summary.js";
import type { SandboxedExec } from "../tools/sandbox/sandboxed-exec.js";
import type { FsPort } from "../tools/types.js";
import { forkedHistory, forkTitle } from "./fork.js";
import { localTimeZone } from "./local-time-zone.js";
import { ModelEndpoints } from "./model-endpoints.js";
import { turnEconomy } from "./output-economy.js";
import { applyProjectConfig, type ProjectTrust, projectTrust, untrustedNotice } from "./project-trust.js";
import { recordInstructions, recordMcp, recordSkills } from "./record-sources.js";
import { replayOutputs, turnGroups } from "./replay.js";
import { Session } from "./session.js";
import { configuredEndpoint, type SessionDeps } from "./session-deps.js";
import type { SessionMcp } from "./session-mcp.js";
import type { SubagentHost } from "./session-subagents.js";
import { sessionWeb } from "./session-web.js";
import { setTitle } from "./title.js";
import type { SessionOutput } from "./types.js";

export interface SessionManagerDeps {
  config: Config;
  store: Store;
  logger: Logger;
  harnesses: HarnessEntry[];
  createProvider(endpoint: ModelEndpoint): Provider;
  /** Runs commands, confined by bubblewrap in the sandboxed modes. */
  sandbox: SandboxedExec;
  fs: FsPort;
  /** The user's home folder (for `~/.agents/skills` and friends). */
  userHome: string;
  /** The daemon's environment; MCP servers get only an allowlist of it plus their own env. */
  env: Record<string, string | undefined>;
  version: string;
  now?: () => Date;
  newId?: () => string;
}

export interface OpenOptions {
  cwd: string;
  additionalDirectories?: string[];
  mcpServers?: unknown[];
}

/** Events read and parsed between two sends of a load's replay (whole turns; ~100 KB of updates). */
const REPLAY_GROUP = 256;

export interface LoadOptions extends OpenOptions {
  /** Shows a part of the replay; the next part is read once it resolves. */
  show(outputs: SessionOutput[]): Promise<void>;
}

/** Thrown for a session id the store does not know. */
export class SessionNotFoundError extends Error {
  readonly code = "session_not_found";
  constructor(readonly sessionId: string) {
    super(`Session ${sessionId} not found`);
  }
}

/**
 * Owns the open sessions of one daemon process and the resources they share (store,
 * providers per model, the model list discovered from the endpoint).
 */
export class SessionManager {
  private readonly open = new Map<string, Session>();
  /** The endpoint's providers, model list and windows, shared by every session. */
  readonly endpoints: ModelEndpoints;
  /** Where walks up for the repository stop (git's `GIT_CEILING_DIRECTORIES`). */
  private readonly ceilings: string[];

  /** Where every session's subagents start; `running` counts them across the daemon. */
  private readonly agents: SubagentHost;

  constructor(private readonly deps: SessionManagerDeps) {
    this.ceilings = gitCeilings(deps.env);
    this.endpoints = new ModelEndpoints(deps);
    this.agents = {
      limits: deps.config.agents,
      running: { count: 0 },
      spawn: (options) => this.spawn(options),
      now: () => (deps.now ?? (() => new Date()))().getTime(),
    };
  }

  get config(): Config {
    return this.deps.config;
  }

  /** The harnesses sessions may run. */
  get harnesses(): readonly HarnessEntry[] {
    return this.deps.harnesses;
  }

  /** A readable name of the endpoint for `/status` and errors. */
  get endpoint(): string {
    const { provider } = this.deps.config;
    return `${provider.baseUrl} (provider ${provider.id})`;
  }

  create(options: OpenOptions): Session {
    const { config } = this.deps;
    const trust = projectTrust(this.deps.store, findProjectRoot(options.cwd, { ceilings: this.ceilings }));
    const project = trust.decision === "allow" ? trust.config : undefined;
    const { harnesses } = this.deps;
    const badHarness =
      project?.harness && !findHarness(harnesses, project.harness) ? project.harness : undefined;
    const record = this.deps.store.createSession({
      id: this.newId(),
      cwd: options.cwd,
      additionalDirectories: options.additionalDirectories ?? [],
      mcpServers: options.mcpServers ?? [],
      mode: project?.mode ?? config.mode,
      model: project?.model ?? config.model ?? null,
      harness: (!badHarness && project?.harness) || null,
    });
    const catalog = recordSkills(this.sources(record));
    const session = this.remember(record, catalog);
    // Skill problems, project config and a missing sandbox are told once, when the session starts.
    // After the session/new response, like every other post-creation message.
    const tell = (text: string, topic?: "sandbox"): void =>
      void setTimeout(() => {
        if (this.open.get(session.id) === session) session.notice("warning", text, topic ? { topic } : {});
      }, 0);
    if (trust.error) tell(trust.error);
    if (badHarness && project)
      tell(unknownHarnessMessage({ id: badHarness, source: `${project.file}: harness`, harnesses }));
    if (trust.config && trust.decision === undefined) {
      tell(untrustedNotice(trust));
      session.trust.ask({ trust, apply: () => this.applyProject(session, trust) });
    }
    void catalog.then(({ notices }) =>
      notices.forEach((text) => {
        tell(text);
      }),
    );
    this.warmUp((status) => {
      if (!status.available) tell(sandboxSummary(status), "sandbox");
    });
    return session;
  }

  /**
   * A new session holding a copy of `id`'s history so far (`forkedHistory`), with its harness,
   * model and mode; `id` itself is untouched. Roots and servers are the source's unless given.
   */
  fork(id: string, options: OpenOptions): Session {
    const source = this.deps.store.getSession(id);
    if (!source) throw new SessionNotFoundError(id);
    const open = this.open.get(id)?.committed;
    const history = forkedHistory(open?.history ?? this.deps.store.history(id), open?.runningTurn);
    const record = this.deps.store.createSession(
      {
        id: this.newId(),
        cwd: options.cwd,
        additionalDirectories: options.additionalDirectories ?? source.additionalDirectories,
        mcpServers: options.mcpServers ?? source.mcpServers,
        mode: source.mode,
        model: source.model,
        harness: source.harness,
        title: forkTitle(source.title),
      },
      history,
    );
    return this.remember(record, recordSkills(this.sources(record)), history);
  }

  /** Sets a title the user chose on a session, open or stored; returns why not. */
  rename(id: string, title: string): string | undefined {
    const session = this.open.get(id);
    if (session) return session.rename(title);
    const record = this.deps.store.getSession(id);
    if (!record) throw new SessionNotFoundError(id);
    return setTitle({ session: { record, send: () => {} }, title, store: this.deps.store });
  }

  /** Archives or unarchives a stored session; an open one stays open. */
  archive(id: string, archived: boolean): void {
    if (!this.deps.store.getSession(id)) throw new SessionNotFoundError(id);
    const record = this.deps.store.archiveSession(id, archived);
    const session = this.open.get(id);
    if (session) session.record = record;
  }

  /** A session's title as stored (undefined for an unknown id). */
  title(id: string): string | null | undefined {
    return (this.open.get(id)?.record ?? this.deps.store.getSession(id))?.title;
  }

  /** Opens a stored session (for resume), reusing it when this process has it open. */
  reopen(id: string, options: OpenOptions): Session {
    const existing = this.open.get(id);
    if (existing) return existing;
    const record = this.reopened(id, options);
    return this.remember(record, recordSkills(this.sources(record)));
  }

  /**
   * Opens a stored session for `session/load`, replaying its history through `show` while it
   * is read, a few turns at a time: a long session's first updates reach the editor before the
   * rest is parsed. A session this process has open replays from memory.
   */
  async load(id: string, options: LoadOptions): Promise<Session> {
    const { show } = options;
    const existing = this.open.get(id);
    if (existing) {
      const { history, runningTurn } = existing.committed;
      await show(replayOutputs(history, runningTurn));
      return existing;
    }
    const record = this.reopened(id, options);
    const catalog = recordSkills(this.sources(record));
    const history: HistoryEvent[] = [];
    for (const group of turnGroups(this.deps.store.historyEvents(id), REPLAY_GROUP)) {
      history.push(...group);
      await show(replayOutputs(group));
      await setImmediate();
    }
    // Opened by another load or a resume meanwhile: that one is the session.
    return this.open.get(id) ?? this.remember(record, catalog, history);
  }

  /** The stored session `id` with the paths and servers it is opened with now. */
  private reopened(id: string, options: OpenOptions): SessionRecord {
    const record = this.deps.store.getSession(id);
    if (!record) throw new SessionNotFoundError(id);
    const { model } = this.deps.config;
    return this.deps.store.updateSession(id, {
      additionalDirectories: options.additionalDirectories ?? record.additionalDirectories,
      mcpServers: options.mcpServers ?? record.mcpServers,
      // A session started before any model was configured takes the one configured now.
      ...(record.model === null && model ? { model } : {}),
    });
  }

  /**
   * After the response, what the first prompt would otherwise wait for: the sandbox probe
   * (spawns bwrap; the answer is kept). `create` does it itself; a reopened session's caller
   * does it once the session is shown (after a load's replay, not during it).
   */
  warmUp(onSandbox?: (status: SandboxStatus) => void): void {
    setTimeout(() => void this.deps.sandbox.status().then(onSandbox), 0);
    // The model SDK's import, off the first prompt's path.
    setTimeout(() => void preloadWire(this.deps.config.provider.wireApi), 0);
  }

  get(id: string): Session | undefined {
    return this.open.get(id);
  }

  /** The sessions open now (not their subagents' sessions). */
  openSessions(): Session[] {
    return [...this.open.values()];
  }

  /** Whether the database has this session, open in this process or not (for clear errors). */
  stored(id: string): boolean {
    return this.open.has(id) || this.deps.store.getSession(id) !== undefined;
  }

  /** Sessions the editor opened; their subagents' sessions are listed by `children`. */
  list(options: ListSessionsOptions): SessionPage {
    return this.deps.store.listSessions(options);
  }

  /** The sessions `id`'s subagent calls started, oldest first. */
  children(id: string): SessionRecord[] {
    return this.deps.store.childSessions(id);
  }

  /** Cancels any running work, stops its MCP servers and forgets the session; false when it was not open. */
  close(id: string): boolean {
    const session = this.open.get(id);
    if (!session) return false;
    this.open.delete(id);
    void session.close();
    return true;
  }

  delete(id: string): boolean {
    this.close(id);
    return this.deps.store.deleteSession(id);
  }

  /** Re-announces every open session's options (e.g. after the model list arrived). */
  refreshOptions(): void {
    if (!this.endpoints.discoveredAny) return;
    for (const session of this.open.values()) session.send({ type: "options", options: session.options() });
  }

  /** Closes every session; resolves once their MCP servers are gone. */
  async closeAll(): Promise<void> {
    this.endpoints.close();
    const sessions = [...this.open.values()];
    this.open.clear();
    await Promise.all(sessions.map((session) => session.close()));
  }

  private remember(record: SessionRecord, catalog: Promise<SkillCatalog>, history?: HistoryEvent[]): Session {
    const deps = this.sessionDeps(record, catalog, recordMcp(this.sources(record)));
    const session = new Session(record, deps, history);
    this.open.set(record.id, session);
    // The server's window is learnt after the response, in time for the first prompt.
    setTimeout(() => void this.endpoints.window(session.model), 0);
    return session;
  }

  /**
   * A subagent's session: a child of `parent` in the store with its mode, roots, model and the
   * harness it runs, sharing its MCP servers. It is not among the open sessions: the parent's
   * tool call owns it and closes it when the subagent answers. A resume names one of the
   * parent's children (the port checked it) and reopens it with its history.
   */
  private spawn(o: { parent: SessionRecord; harness: string; type: string; title: string; resume?: string }) {
    const { parent, harness, title } = o;
    const { cwd, additionalDirectories, mcpServers, mode, model } = parent;
    const record = o.resume
      ? this.deps.store.getSession(o.resume)
      : this.deps.store.createSession({
          ...{ id: this.newId(), cwd, additionalDirectories, mcpServers, mode, model },
          ...{ harness, title, parentId: parent.id, agentType: o.type },
        });
    if (record?.parentId !== parent.id)
      throw new Error(`Session ${o.resume} is not a subagent of ${parent.id}`);
    const mcp =
      this.open.get(parent.id)?.mcp.shared() ?? recordMcp(this.sources({ ...record, mcpServers: [] }));
    const deps = this.sessionDeps(record, recordSkills(this.sources(record)), mcp);
    return new Session(record, deps, o.resume ? this.deps.store.history(record.id) : []);
  }

  private sessionDeps(record: SessionRecord, catalog: Promise<SkillCatalog>, mcp: SessionMcp): SessionDeps {
    const { config, store, harnesses, sandbox, fs } = this.deps;
    const scratchDir = path.join(config.home, "sessions", record.id);
    const projectRoot = findProjectRoot(record.cwd, { ceilings: this.ceilings });
    return {
      store,
      clock: { now: this.deps.now ?? (() => new Date()), newId: () => this.newId() },
      harnesses: { list: harnesses, ...(config.harness ? { explicit: config.harness } : {}) },
      endpoint: {
        provider: (model) => this.endpoints.provider(model),
        models: () => this.endpoints.models(),
        window: (model) => this.endpoints.window(model),
        setupProblem: (model) => {
          const problem = setupProblem(config, model);
          return problem && setupMessage(problem);
        },
        ...configuredEndpoint(config),
      },
      workspace: { sandbox, fs, projectRoot, scratchDir },
      context: {
        instructions: recordInstructions(this.sources(record)),
        git: holdsRepository(projectRoot) ? gitSnapshot(record.cwd) : undefined,
        skills: catalog.then((c) => c.skills),
        shell: path.basename(process.env.SHELL ?? "bash"),
        timezone: localTimeZone({ env: this.deps.env }),
      },
      mcp,
      economy: (options) =>
        turnEconomy({ ...options, scratchDir, provider: config.provider.id, prices: config.modelPrices }),
      web: sessionWeb(config),
      agents: this.agents,
      // A subagent's session opens its harness as its type, when spawned and when loaded later.
      ...(record.agentType ? { subagent: { type: record.agentType } } : {}),
    };
  }

  private applyProject(session: Session, trust: ProjectTrust): void {
    if (!trust.config) return;
    const problems = applyProjectConfig(session, trust.config);
    for (const problem of problems.mcp) this.deps.logger.warn({ sessionId: session.id }, `mcp: ${problem}`);
    if (problems.harness) session.notice("warning", problems.harness);
  }

  /** MCP servers from config (and a trusted project) and from the editor, started in the background. */
  /** What a record's MCP servers, skills and AGENTS.md are found with (record-sources.ts). */
  private sources = (record: SessionRecord) => ({ deps: this.deps, ceilings: this.ceilings, record });

  private newId(): string {
    return (this.deps.newId ?? randomUUID)();
  }
}
