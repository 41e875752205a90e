import type { SessionWindow } from "../acp/agent-app.js";
import type { Logger } from "../config/logger.js";
import type { Session } from "../sessions/session.js";
import type { SessionManager } from "../sessions/session-manager.js";

/** A connection's handle: what `createAgentApp` sees, plus its end. */
export interface WindowHandle extends SessionWindow {
  /** The connection closed: its sessions are left to `onClientGone`. */
  gone(): void;
}

/**
 * Which window (connection) shows which open session in the shared daemon. The rule is
 * "the last window to open a session has it": a load, resume, fork or new session claims
 * it, and the window that showed it before is told and stops receiving its updates (its
 * requests for that session are refused until it loads it again). Refusing the second window
 * instead would leave a session locked to a window that hangs without closing its connection.
 *
 * A window that goes away leaves its sessions unowned: running turns finish (or are cancelled,
 * `on_client_gone = "cancel"`), and a session with no window and no turn is closed, so its MCP
 * servers and background commands do not outlive every window.
 */
export class SessionWindows {
  private readonly owners = new Map<string, symbol>();

  constructor(
    private readonly deps: {
      manager: SessionManager;
      logger: Logger;
      onClientGone: "finish" | "cancel";
    },
  ) {}

  open(): WindowHandle {
    const me = Symbol("window");
    const mine = () => [...this.owners].filter(([, owner]) => owner === me).map(([id]) => id);
    return {
      claim: (session: Session) => {
        const before = this.owners.get(session.id);
        if (before !== undefined && before !== me) {
          // Sent through the port still attached, the old window's: live only, not recorded.
          session.send({
            type: "event",
            event: {
              type: "notice",
              severity: "warning",
              text: "This session was opened in another window; this window no longer follows it. Load it again here to take it back.",
            },
          });
        }
        this.owners.set(session.id, me);
      },
      shows: (sessionId) => this.owners.get(sessionId) === me,
      viewed: () => this.sweep(),
      gone: () => {
        const left = mine();
        for (const id of left) this.owners.delete(id);
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
}
