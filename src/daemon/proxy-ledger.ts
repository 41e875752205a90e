/**
 * What the proxy remembers of its editor's conversation with the daemon, to survive the
 * daemon's death: the `initialize` request, the requests not answered yet, and the sessions
 * this window has open. It reads lines, never changes one, and keeps no history.
 */

type Json = Record<string, unknown>;
interface Pending {
  id: unknown;
  method: string;
  params: Json | undefined;
}
interface OpenSession {
  cwd: string;
  additionalDirectories?: unknown;
}

/** Lines above this are not parsed (a huge prompt); their id and method are read from the head. */
const PARSE_LIMIT = 1 << 20;
const NOTIFICATION = Buffer.from('{"jsonrpc":"2.0","method"');
const RESPONSE_HEAD = /^\{"jsonrpc":"2\.0","id":(-?\d+|"(?:[^"\\]|\\.)*"|null),"(result|error)"/;
const REQUEST_HEAD = /^\{"jsonrpc":"2\.0","id":(-?\d+|"(?:[^"\\]|\\.)*"),"method":"([^"]+)"/;
/** Our own requests to a restarted daemon; their answers are not the editor's. */
const OWN_ID = "openinterpreter/proxy-";
/** Methods whose success opens a session in this window. */
const OPENS = new Set(["session/new", "session/fork", "session/load", "session/resume"]);

export class ProxyLedger {
  private initialize: Json | undefined;
  private readonly pending = new Map<string, Pending>();
  private readonly sessions = new Map<string, OpenSession>();
  private readonly own = new Set<string>();
  private nextOwn = 1;
  /** The restarted daemon's `initialize`; the resumes wait for its answer (the SDK refuses them before). */
  private initId: string | undefined;
  private outbox: string[] = [];
  /** The editor was told of a daemon's death and the window is not yet restored in a new one. */
  private notified = false;

  /** A line the editor sent. */
  fromEditor(line: Buffer): void {
    const message = readMessage(line, REQUEST_HEAD);
    if (!message || typeof message.method !== "string" || message.id === undefined) return;
    const params = isObject(message.params) ? message.params : undefined;
    if (message.method === "initialize") this.initialize = params;
    if (message.method === "session/close" || message.method === "session/delete") {
      if (typeof params?.sessionId === "string") this.sessions.delete(params.sessionId);
    }
    this.pending.set(key(message.id), { id: message.id, method: message.method, params });
  }

  /** A line the daemon sent; false when it answers one of our own requests (not for the editor). */
  fromDaemon(line: Buffer): boolean {
    if (line.subarray(0, NOTIFICATION.length).equals(NOTIFICATION)) return true;
    const head = RESPONSE_HEAD.exec(line.subarray(0, 300).toString("utf8"));
    let idKey: string;
    if (head) idKey = head[1] as string;
    else {
      const message = readMessage(line);
      if (!message || message.method !== undefined || message.id === undefined) return true;
      idKey = key(message.id);
    }
    if (this.own.delete(idKey)) {
      if (idKey === this.initId) {
        this.initId = undefined;
        this.outbox = this.resumes();
      }
      if (this.own.size === 0) this.notified = false;
      return false;
    }
    const request = this.pending.get(idKey);
    if (!request) return true;
    this.pending.delete(idKey);
    if (!OPENS.has(request.method) || head?.[2] === "error") return true;
    const result = readMessage(line)?.result;
    const sessionId =
      isObject(result) && typeof result.sessionId === "string" ? result.sessionId : request.params?.sessionId;
    const cwd = request.params?.cwd;
    if (typeof sessionId === "string" && typeof cwd === "string") {
      this.sessions.set(sessionId, { cwd, additionalDirectories: request.params?.additionalDirectories });
    }
    return true;
  }

  /** Whether answers to our own requests are still awaited. */
  restoring(): boolean {
    return this.own.size > 0;
  }

  /**
   * The daemon died: an error answer for every request it had not answered, and a notice in
   * every session this window has open. The editor sees both at once; nothing is retried,
   * since a prompt may have run partly (what it did is in the store).
   */
  lost(restarting: boolean): string[] {
    // A restore the dead daemon never answered (it died again, or was dying as we connected):
    // its answers will not come, and the next daemon gets a restore of its own.
    this.own.clear();
    this.initId = undefined;
    this.outbox = [];
    const again = restarting ? "It was restarted" : "It could not be restarted";
    const lines: string[] = [];
    for (const { id, method } of this.pending.values()) {
      const message =
        method === "session/prompt"
          ? `The openinterpreter daemon stopped during this turn. ${again}; what the turn did until then is kept in the session (load it to see).`
          : `The openinterpreter daemon stopped before answering ${method}. ${again}; send it again.`;
      lines.push(line({ jsonrpc: "2.0", id, error: { code: -32603, message } }));
    }
    this.pending.clear();
    // A daemon that dies again before this window was restored in it: the editor knows already.
    if (this.notified) return lines;
    this.notified = true;
    for (const sessionId of this.sessions.keys()) {
      const text = `\nThe openinterpreter daemon stopped. ${again}${restarting ? " and this session reopened from its stored history" : ""}.\n`;
      lines.push(
        line({
          jsonrpc: "2.0",
          method: "session/update",
          params: {
            sessionId,
            update: {
              sessionUpdate: "agent_message_chunk",
              content: { type: "text", text },
              _meta: { "openinterpreter/notice": { severity: "error" } },
            },
          },
        }),
      );
    }
    return lines;
  }

  /**
   * For a restarted daemon: this window's `initialize`; once it is answered, `takeOutbox` has
   * a resume of each of the window's sessions. The editor's own lines wait meanwhile.
   */
  restore(): string[] {
    if (!this.initialize) return [];
    const init = this.request("initialize", this.initialize);
    this.initId = init.id;
    return [init.line];
  }

  /** Lines for the daemon that answers to our own requests made necessary. */
  takeOutbox(): string[] {
    const lines = this.outbox;
    this.outbox = [];
    return lines;
  }

  private resumes(): string[] {
    return [...this.sessions].map(([sessionId, open]) => {
      const params: Json = { sessionId, cwd: open.cwd };
      if (open.additionalDirectories !== undefined) params.additionalDirectories = open.additionalDirectories;
      return this.request("session/resume", params).line;
    });
  }

  private request(method: string, params: unknown): { id: string; line: string } {
    const id = `${OWN_ID}${this.nextOwn++}`;
    const idKey = JSON.stringify(id);
    this.own.add(idKey);
    return { id: idKey, line: line({ jsonrpc: "2.0", id, method, params }) };
  }
}

function readMessage(line: Buffer, head?: RegExp): Json | undefined {
  if (line.length > PARSE_LIMIT) {
    const match = head?.exec(line.subarray(0, 300).toString("utf8"));
    return match ? { id: JSON.parse(match[1] as string), method: match[2] } : undefined;
  }
  try {
    const value: unknown = JSON.parse(line.toString("utf8"));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Ids compared as the JSON they were written as (`1` and `"1"` differ). */
function key(id: unknown): string {
  return JSON.stringify(id);
}

function line(message: Json): string {
  return `${JSON.stringify(message)}\n`;
}
