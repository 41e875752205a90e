import type { SessionViewer, SessionWindow } from "../acp/session-window.js";
import type { Logger } from "../config/logger.js";
import type { SessionManager } from "../sessions/session-manager.js";
import type { ClientPort, SessionOutput } from "../sessions/types.js";

/** A connection's handle: what `createAgentApp` sees, plus its end. */
export interface WindowHandle extends SessionWindow {
  /** The connection closed: its sessions are left to `onClientGone`, its views end. */
  gone(): void;
}

/**
 * Which window (connection) shows which open session in the shared daemon. The rule is
 * "the last window to open a session has it": a load, resume, fork or new session claims
 * it, and the window that showed it before is told and stops receiving its updates (its
 * requests for that session are refused until it loads it again). Refusing the second window
 * instead would leave a session locked to a window that hangs without closing its connection.
 *
 * Windows that loaded a session read-only follow it too: the session's port is the owner's
 * with every viewer's `send` beside it, so viewers get the same updates (live, and later turns
 * whoever owns the session then) and never a question, which only the owner can answer.
 *
 * A window that goes away leaves its sessions unowned: running turns finish (or are cancelled,
 * `on_client_gone = "cancel"`), and a session with no window and no turn is closed, so its MCP
 * servers and background commands do not outlive every window.
 */
export class SessionWindows {
  private readonly owners = new Map<string, { window: symbol; port: ClientPort }>();
  /** Per session id: the read-only windows following it, each with its own port. */
  private readonly viewers = new Map<string, Map<symbol, Follower>>();

  constructor(
    private readonly deps: {
      manager: SessionManager;
      logger: Logger;
      onClientGone: "finish" | "cancel";
    },
  ) {}

  open(): WindowHandle {
    const me = Symbol("window");
    const mine = () => [...this.owners].filter(([, owner]) => owner.window === me).map(([id]) => id);
    return {
      claim: (session, port) => {
        const before = this.owners.get(session.id);
        if (before !== undefined && before.window !== me) {
          // Live only, not recorded, and to that window alone: viewers still follow the session.
          before.port.send({
            type: "event",
            event: {
              type: "notice",
              severity: "warning",
              text: "This session was opened in another window; this window no longer follows it. Load it again here to take it back.",
            },
          });
        }
        // What this window's load held while its replay was sent comes first, then the session's own.
        this.viewers.get(session.id)?.get(me)?.flush();
        this.unview(session.id, me);
        this.owners.set(session.id, { window: me, port });
        session.attach(this.withViewers(session.id, port));
      },
      shows: (sessionId) => this.owners.get(sessionId)?.window === me,
      view: (sessionId, port) => this.view(sessionId, me, port),
      gone: () => {
        const left = mine();
        for (const id of left) this.owners.delete(id);
        for (const id of [...this.viewers.keys()]) this.unview(id, me);
        if (this.deps.onClientGone === "cancel") for (const id of left) this.deps.manager.get(id)?.cancel();
        if (left.length > 0) this.deps.logger.info({ sessions: left }, "window gone");
        this.sweep();
      },
    };
  }

  /** Closes the open sessions no window shows that run no turn (call when a turn may have ended). */
  sweep(): void {
    for (const session of this.deps.manager.openSessions()) {
      // A turn still running keeps its session open after its window left.
      if (this.owners.has(session.id) || session.committed.runningTurn !== undefined) continue;
      this.deps.manager.close(session.id);
    }
  }

  /**
   * Registers `window` as a viewer of `sessionId` before the replay is read, so nothing the
   * session sends meanwhile is missed: it is held until `start` (or the window's `claim`, for
   * a load that takes the session over), then passed on after the replay. The owner's own
   * read-only load adds nothing (it gets the updates already).
   */
  private view(sessionId: string, window: symbol, port: ClientPort): SessionViewer {
    if (this.owners.get(sessionId)?.window === window) return { start: () => this.sweep(), stop: () => {} };
    let held: SessionOutput[] | undefined = [];
    const flush = () => {
      const outputs = held ?? [];
      held = undefined;
      for (const output of outputs) port.send(output);
    };
    const follower: Follower = {
      send: (output) => {
        if (held) held.push(output);
        else port.send(output);
      },
      flush,
    };
    const followers = this.viewers.get(sessionId) ?? new Map<symbol, Follower>();
    followers.set(window, follower);
    this.viewers.set(sessionId, followers);
    return {
      start: () => {
        flush();
        // A session no window had open is closed again; its viewers follow it when one opens it.
        this.sweep();
      },
      stop: () => {
        if (this.viewers.get(sessionId)?.get(window) === follower) this.unview(sessionId, window);
      },
    };
  }

  private unview(sessionId: string, window: symbol): void {
    const followers = this.viewers.get(sessionId);
    followers?.delete(window);
    if (followers?.size === 0) this.viewers.delete(sessionId);
  }

  /** `owner`'s port, with what the session sends also going to its viewers of the moment. */
  private withViewers(sessionId: string, owner: ClientPort): ClientPort {
    const send = (output: SessionOutput) => {
      owner.send(output);
      for (const follower of this.viewers.get(sessionId)?.values() ?? []) follower.send(output);
    };
    // Questions, forms and subagent sessions stay the owner's: a viewer can answer nothing.
    return { ...owner, send };
  }
}

/** A read-only window's hold on a session's updates: held while its replay is sent, then passed on. */
interface Follower {
  send(output: SessionOutput): void;
  flush(): void;
}
