import type { Session } from "../sessions/session.js";
import type { ClientPort } from "../sessions/types.js";

/** One connection's view of the sessions it shares with other connections. */
export interface SessionWindow {
  /**
   * This connection shows `session` from now on, through `port` (attached to the session by the
   * window registry, with the read-only viewers beside it); the connection that showed it is told.
   */
  claim(session: Session, port: ClientPort): void;
  /** Whether this connection shows `sessionId` (false once another one loaded it). */
  shows(sessionId: string): boolean;
  /**
   * This connection follows `sessionId` read-only through `port`: its updates, never its
   * questions. Call before the replay is read; `start` once it is sent, `stop` if it failed.
   * A load that takes the session over calls it too, then `claim`s with the same port, which
   * passes on what was held during its replay.
   */
  view(sessionId: string, port: ClientPort): SessionViewer;
}

/** A read-only window's following of one session (`SessionWindow.view`). */
export interface SessionViewer {
  /** The replay was sent: pass on what the session sent meanwhile, then follow it live. */
  start(): void;
  /** The load failed: follow nothing. */
  stop(): void;
}
