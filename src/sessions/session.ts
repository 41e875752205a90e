import type { Mode } from "../config/types.js";
import type { Skill } from "../context/skills/parse-skill.js";
import { chooseHarness, findHarness, harnessProblem } from "../harnesses/harness-list.js";
import type { Harness, HarnessContext, HarnessSession } from "../harnesses/types.js";
import { imagesFor } from "../providers/without-images.js";
import type { ContentBlock, HistoryEvent, StopReason } from "../store/events.js";
import type { SessionRecord } from "../store/types.js";
import type { SubagentPort } from "../tools/agents/types.js";
import { BackgroundProcesses } from "../tools/exec/background-processes.js";
import { sandboxSummary } from "../tools/sandbox/sandbox-summary.js";
import type { Tool } from "../tools/types.js";
import { type Compactor, sessionCompactor } from "./auto-compact.js";
import { BackgroundNotices } from "./background-notices.js";
import { harnessContext } from "./harness-context.js";
import { liveMode, modeChanged, planPort } from "./plan-mode.js";
import { TrustPrompt } from "./project-trust.js";
import { runTurn } from "./run-turn.js";
import type { SessionDeps } from "./session-deps.js";
import type { SessionMcp } from "./session-mcp.js";
import { sessionOptions } from "./session-options.js";
import { sessionSubagents } from "./session-subagents.js";
import { sideModel } from "./side-model.js";
import { Steering } from "./steering.js";
import { syncAfterAnswer } from "./sync-after-answer.js";
import { fallbackEvents, textFallback } from "./text-fallback.js";
import { setTitle, titleOnce } from "./title.js";
import { abortedBefore, TurnQueue } from "./turn-queue.js";
import { turnTools } from "./turn-tools.js";
import type { ClientPort, SessionOptions, SessionOutput } from "./types.js";
import { TurnError } from "./types.js";
import { type WindowFitGate, windowFitGate } from "./window-fit-gate.js";

/**
 * One conversation. Turns run one at a time: a prompt that arrives during a turn waits for
 * it, and `cancel()` stops the running turn and everything queued behind it.
 */
export class Session {
  private client: ClientPort | undefined;
  /** The harness opened for this session and its model; dropped when either changes. */
  private opened: { harness: string; model: string; session: HarnessSession } | undefined;
  private readonly queue = new TurnQueue();
  private controller: AbortController | undefined;
  private runningTurn: string | undefined;
  private readonly steering = new Steering();
  /** Calls of the running turn that have a result: late progress for them is dropped. */
  private readonly finishedCalls = new Set<string>();
  private readonly startedAt: Date;
  private readonly fit: WindowFitGate;
  /** Whether to use the project's own config: asked at the first prompt, or answered by `/trust`. */
  readonly trust: TrustPrompt;
  /** Aborts when the session closes: what background commands live for. */
  private readonly lifetime = new AbortController();
  private readonly notices = new BackgroundNotices({
    commit: (events) => this.commit(events),
    busy: () => this.runningTurn !== undefined,
  });
  /** Commands that run on between tool calls; each lives for its turn or for the session. */
  readonly background = new BackgroundProcesses({ onEnd: (process) => this.notices.ended(process) });
  /** Child sessions started by this session's subagent tool calls. */
  private readonly subagents: SubagentPort;

  constructor(
    public record: SessionRecord,
    private readonly deps: SessionDeps,
    /** The stored history; given when the caller has read it already (a load replays it meanwhile). */
    private history: HistoryEvent[] = deps.store.history(record.id),
  ) {
    this.startedAt = deps.clock.now();
    this.fit = windowFitGate({
      harnesses: deps.harnesses.list,
      endpoint: deps.endpoint,
      notice: (text) => this.notice("warning", text),
    });
    this.trust = new TrustPrompt({ store: deps.store, root: deps.workspace.projectRoot, session: this });
    this.subagents = sessionSubagents({
      host: deps.agents,
      store: deps.store,
      parent: () => ({ record: this.record, harness: this.harnessChoice().harness.id, client: this.client }),
    });
  }

  /** The session's MCP servers. */
  get mcp(): SessionMcp {
    return this.deps.mcp;
  }

  get id(): string {
    return this.record.id;
  }

  attach(client: ClientPort): void {
    this.client = client;
  }

  get mode(): Mode {
    return this.record.mode as Mode;
  }

  get model(): string {
    return this.record.model ?? "";
  }

  harnessChoice() {
    return chooseHarness({
      harnesses: this.deps.harnesses.list,
      explicit: this.record.harness ?? this.deps.harnesses.explicit,
      model: this.model,
      wire: this.deps.endpoint.wire,
    });
  }

  options(): SessionOptions {
    const { mode, model, deps } = this;
    return sessionOptions({ mode, model, harness: this.harnessChoice().harness.id, deps });
  }

  /** What is committed so far, and the turn still running (replays, forks and usage read it). */
  get committed(): { history: readonly HistoryEvent[]; runningTurn?: string } {
    return { history: this.history, ...(this.runningTurn ? { runningTurn: this.runningTurn } : {}) };
  }

  /** The session's skills (for slash commands). */
  skills(): Promise<Skill[]> {
    return this.deps.context.skills;
  }

  /** Runs one prompt after any running turn; `signal` (`$/cancel_request`) withdraws just this one. */
  prompt(content: ContentBlock[], options: { signal?: AbortSignal } = {}): Promise<StopReason> {
    return this.queue.run(() => this.turn(content, options.signal), "cancelled" as const, options.signal);
  }

  /** A title the user chose; returns why not. */
  rename(title: string): string | undefined {
    return setTitle({ session: this, title, store: this.deps.store });
  }

  /** Puts `content` into the running turn at its next model request; false when no turn can take it. */
  steer(content: ContentBlock[]): boolean {
    return this.steering.offer(content);
  }

  /** `/compact`: summarizes the conversation so far; later requests carry the summary instead. */
  compact(): Promise<string> {
    return this.queue.run(async () => {
      const controller = new AbortController();
      this.controller = controller;
      try {
        const harness = await this.harnessChoice().harness.load();
        const ctx = await this.harnessContext();
        const opened = this.open(harness, ctx);
        const compactor = await this.compactor(harness, opened, opened.tools, ctx);
        return await compactor.manual(controller.signal);
      } finally {
        this.controller = undefined;
      }
    }, "Cancelled.");
  }

  cancel(): void {
    this.queue.cancel();
    this.controller?.abort();
  }

  /** Cancels any running work and stops the session's MCP servers and background commands (with their process trees). */
  async close(): Promise<void> {
    this.cancel();
    this.lifetime.abort();
    await Promise.all([this.deps.mcp.close(), this.background.killAll()]);
    this.deps.workspace.sandbox.release(this.id);
  }

  /** One paragraph on whether commands are confined, for `/status`. */
  async sandboxSummary(): Promise<string> {
    if (this.mode === "full-access") return "Commands run unconfined (full-access mode).";
    return sandboxSummary(await this.deps.workspace.sandbox.status());
  }

  setMode(mode: Mode): void {
    if (mode === this.mode) return;
    this.commit([modeChanged(mode, this.mode)]);
    this.record = this.deps.store.updateSession(this.id, { mode });
    this.send({ type: "options", options: this.options() });
  }

  setModel(model: string): void {
    if (model === this.model) return;
    this.record = this.deps.store.updateSession(this.id, { model });
    this.commit([{ type: "model_changed", model }]);
    this.send({ type: "options", options: this.options() });
  }

  /** Returns why not when no harness has that id or it does not run on the endpoint's wire; `source` opens the message. */
  setHarness(id: string, source: string): string | undefined {
    const { list } = this.deps.harnesses;
    const problem = harnessProblem({ id, source, harnesses: list, wire: this.deps.endpoint.wire });
    const harness = findHarness(list, id);
    if (problem || !harness) return problem;
    if (harness.id !== this.harnessChoice().harness.id || this.record.harness !== harness.id) {
      this.record = this.deps.store.updateSession(this.id, { harness: harness.id });
      this.commit([{ type: "harness_changed", harness: harness.id, reason: "chosen explicitly" }]);
    }
    this.send({ type: "options", options: this.options() });
    return undefined;
  }

  /** Records a notice in the history and shows it. */
  notice(severity: "info" | "warning" | "error", text: string, options: { topic?: "sandbox" } = {}): void {
    this.commit([{ type: "notice", severity, text, ...(options.topic ? { topic: options.topic } : {}) }]);
  }

  private async turn(content: ContentBlock[], withdrawn?: AbortSignal): Promise<StopReason> {
    const controller = new AbortController();
    withdrawn?.addEventListener("abort", () => controller.abort(), { once: true });
    this.controller = controller;
    const turnId = this.deps.clock.newId();
    this.runningTurn = turnId;
    this.commit([
      { type: "turn_started", turnId, pid: process.pid },
      { type: "user_message", turnId, content },
    ]);
    this.steering.open(turnId);
    try {
      await this.trust.settle({
        client: this.client,
        callId: `trust-${turnId}`,
        signal: controller.signal,
        send: (output) => this.send(output),
      });
      const problem = this.deps.endpoint.setupProblem(this.model);
      if (problem) throw new TurnError(problem, "not_configured");
      const stopReason = await this.runWithFallback(turnId, controller.signal);
      this.commit([...this.steering.close(), { type: "turn_ended", turnId, stopReason }]);
      titleOnce({ session: this, content, store: this.deps.store });
      return stopReason;
    } catch (error) {
      if (controller.signal.aborted) {
        this.commit([...this.steering.close(), { type: "turn_ended", turnId, stopReason: "cancelled" }]);
        return "cancelled";
      }
      const message = error instanceof Error ? error.message : String(error);
      this.commit([
        ...this.steering.close(),
        { type: "notice", severity: "error", text: message },
        { type: "turn_ended", turnId, stopReason: null, error: message },
      ]);
      throw error instanceof TurnError ? error : new TurnError(message, "internal");
    } finally {
      // The turn's signal ends with the turn, however it ended: what the turn left running (a
      // command Codex keeps between calls) stops now, and the turn answers once it is gone.
      controller.abort();
      await this.background.settled();
      // What ended during the turn and is still untold; nothing may await between here and the
      // turn's end, or an end could slip between the two and wait a turn.
      this.notices.flush();
      syncAfterAnswer(this.deps.store, (text) => this.notice("warning", text));
      this.runningTurn = undefined;
      this.controller = undefined;
      this.finishedCalls.clear();
    }
  }

  /**
   * Runs the turn with the active harness. An endpoint that rejects the `tools` field gets
   * the text-protocol harness instead of a failed turn, once, with a notice.
   */
  private async runWithFallback(turnId: string, signal: AbortSignal): Promise<StopReason> {
    for (let attempt = 0; ; attempt++) {
      const harness = await this.harnessChoice().harness.load();
      try {
        return await this.runHarness(harness, turnId, signal);
      } catch (error) {
        const fallback = textFallback({ error, harness, attempt, harnesses: this.deps.harnesses.list });
        if (!fallback) throw error;
        this.record = this.deps.store.updateSession(this.id, { harness: fallback.id });
        this.commit(fallbackEvents(fallback.id, this.model));
        this.send({ type: "options", options: this.options() });
      }
    }
  }

  private async runHarness(harness: Harness, turnId: string, signal: AbortSignal): Promise<StopReason> {
    const ctx = liveMode(await this.harnessContext(), this);
    if (await abortedBefore(this.deps.mcp.ready, signal)) return "cancelled";
    const opened = this.open(harness, ctx);
    const own = opened.tools;
    const tools = [...own, ...this.deps.mcp.tools()];
    const window = await this.fit.check({ harness, opened, tools, ctx });
    const compactor = await this.compactor(harness, opened, tools, ctx, window.tokens);
    const history = () => this.history;
    const { ledger, economize } = this.deps.economy({ harness, own, model: this.model, history });
    const model = sideModel({
      provider: (id) => this.deps.endpoint.provider(id),
      model: this.deps.endpoint.smallModel ?? this.model,
      turnId,
      ledger: (id) => this.deps.economy({ harness, own, model: id, history }).ledger,
      contextSize: window.tokens,
      history,
      commit: (events) => this.commit(events),
    });
    return runTurn({
      turnId,
      signal,
      maxSteps: this.deps.endpoint.maxTurnSteps,
      newId: this.deps.clock.newId,
      model: {
        provider: this.deps.endpoint.provider(this.model),
        render: (events) =>
          imagesFor(opened.render({ history: compactor.view(events), tools, ctx }), ctx.images),
        ...(harness.parse ? { parse: harness.parse.bind(harness) } : {}),
        contextSize: compactor.window,
        compactor,
        ledger,
        beforeRequest: () => {
          this.notices.flush();
          this.commit(this.steering.take());
        },
        keepGoing: () => this.steering.keepGoing(),
      },
      tools: turnTools({
        tools,
        harness: {
          id: harness.id,
          ...(harness.toolError ? { toolError: harness.toolError.bind(harness) } : {}),
        },
        signal,
        sessionSignal: this.lifetime.signal,
        sessionId: this.id,
        where: () => ({ cwd: this.record.cwd, roots: this.roots(), mode: this.mode }),
        workspace: this.deps.workspace,
        background: this.background,
        store: this.deps.store,
        client: this.client,
        live: (callId) => this.runningTurn === turnId && !this.finishedCalls.has(callId),
        send: (output) => this.send(output),
        economize,
        web: this.deps.web,
        model,
        plan: planPort(this, history, this.deps.workspace.scratchDir),
        subagents: this.subagents,
      }),
      history: { read: history, commit: (events) => this.commit(events) },
    });
  }

  private async compactor(
    harness: Harness,
    opened: HarnessSession,
    tools: Tool[],
    ctx: HarnessContext,
    window?: number,
  ): Promise<Compactor> {
    return sessionCompactor({
      harness,
      model: this.model,
      window: window ?? (await this.deps.endpoint.window(this.model)).tokens,
      deps: this.deps,
      render: (history) => imagesFor(opened.render({ history, tools, ctx }), ctx.images),
      history: () => this.history,
      commit: (events) => this.commit(events),
      send: (output) => this.send(output),
    });
  }

  private roots(): string[] {
    return [this.record.cwd, ...this.record.additionalDirectories];
  }

  /** The harness opened for this session and model, opened again when either changed. */
  private open(harness: Harness, ctx: HarnessContext): HarnessSession {
    const { opened } = this;
    if (opened?.harness === harness.id && opened.model === this.model) return opened.session;
    const session = harness.open(ctx);
    this.opened = { harness: harness.id, model: this.model, session };
    return session;
  }

  private harnessContext(): Promise<HarnessContext> {
    return harnessContext({ record: this.record, deps: this.deps, startedAt: this.startedAt });
  }

  private commit(events: HistoryEvent[]): void {
    if (events.length === 0) return;
    this.deps.store.append(this.id, events);
    this.history.push(...events);
    for (const event of events) {
      if (event.type === "tool_result") this.finishedCalls.add(event.callId);
      this.send({ type: "event", event });
    }
  }

  /** Tells the attached editor something live (not recorded). */
  send(output: SessionOutput): void {
    this.client?.send(output);
  }
}
