import { describe, expect, it } from "vitest";
import { LineSplitter } from "../src/daemon/line-splitter.js";
import { ProxyLedger } from "../src/daemon/proxy-ledger.js";

const b = (text: string) => Buffer.from(text);
const json = (value: unknown) => b(JSON.stringify(value));
interface Line {
  id?: unknown;
  method?: string;
  error?: { code: number; message: string };
}
const parse = (line: string) => JSON.parse(line) as Line;

describe("the proxy's line splitter", () => {
  it("passes whole lines on and holds a partial one until its end arrives", () => {
    const split = new LineSplitter(100);
    expect(split.push(b('{"a":1}\n{"b"'))).toEqual({ forward: b('{"a":1}\n'), lines: [b('{"a":1}')] });
    expect(split.push(b(":2}"))).toEqual({ forward: undefined, lines: [] });
    const next = split.push(b("\n\n{}\n"));
    expect(next.forward?.toString()).toBe('{"b":2}\n\n{}\n');
    expect(next.lines.map(String)).toEqual(['{"b":2}', "{}"]);
    expect(split.reset()).toBe(false);
  });

  it("passes a line past its limit on as it comes, unread, and says so on reset", () => {
    const split = new LineSplitter(4);
    expect(split.push(b("abcdef")).forward?.toString()).toBe("abcdef");
    expect(split.push(b("gh")).forward?.toString()).toBe("gh");
    expect(split.reset()).toBe(true);
    split.push(b("abcdef"));
    const end = split.push(b("g\n{}\n"));
    expect(end.forward?.toString()).toBe("g\n{}\n");
    expect(end.lines.map(String)).toEqual(["{}"]);
  });
});

describe("the proxy's ledger", () => {
  const editorSession = (ledger: ProxyLedger) => {
    ledger.fromEditor(json({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1 } }));
    ledger.fromDaemon(json({ jsonrpc: "2.0", id: 0, result: { protocolVersion: 1 } }));
    ledger.fromEditor(
      json({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/w", mcpServers: [] } }),
    );
    ledger.fromDaemon(json({ jsonrpc: "2.0", id: 1, result: { sessionId: "s1" } }));
  };

  it("answers the requests a dead daemon owed, once, and tells each open session once", () => {
    const ledger = new ProxyLedger();
    editorSession(ledger);
    ledger.fromEditor(json({ jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "s1" } }));
    ledger.fromEditor(json({ jsonrpc: "2.0", id: "x", method: "session/list", params: {} }));
    ledger.fromDaemon(json({ jsonrpc: "2.0", id: "x", result: { sessions: [] } }));
    const lost = ledger.lost(true).map(parse);
    expect(lost).toHaveLength(2);
    expect(lost[0]).toMatchObject({ id: 2, error: { code: -32603 } });
    expect(lost[0]?.error?.message).toMatch(/stopped during this turn/);
    expect(lost[1]).toMatchObject({ method: "session/update", params: { sessionId: "s1" } });
    // Dying again before the window was restored: nothing new to answer, nothing to repeat.
    expect(ledger.lost(true)).toEqual([]);
  });

  it("restores a window in a new daemon: initialize first, the resumes after its answer, their answers kept from the editor", () => {
    const ledger = new ProxyLedger();
    editorSession(ledger);
    ledger.lost(true);
    const [init] = ledger.restore().map(parse);
    expect(init).toMatchObject({ method: "initialize", params: { protocolVersion: 1 } });
    expect(ledger.restoring()).toBe(true);
    expect(ledger.takeOutbox()).toEqual([]);
    expect(ledger.fromDaemon(json({ jsonrpc: "2.0", id: init?.id, result: {} }))).toBe(false);
    const [resume] = ledger.takeOutbox().map(parse);
    expect(resume).toMatchObject({ method: "session/resume", params: { sessionId: "s1", cwd: "/w" } });
    expect(ledger.restoring()).toBe(true);
    expect(ledger.fromDaemon(json({ jsonrpc: "2.0", id: resume?.id, result: {} }))).toBe(false);
    expect(ledger.restoring()).toBe(false);
    // Restored: a later death is news again.
    expect(ledger.lost(true).map(parse)).toHaveLength(1);
  });

  it("a daemon dying during the restore: its restore is dropped, the next daemon gets a new one", () => {
    const ledger = new ProxyLedger();
    editorSession(ledger);
    ledger.lost(true);
    const [first] = ledger.restore().map(parse);
    expect(ledger.restoring()).toBe(true);
    ledger.lost(true);
    expect(ledger.restoring()).toBe(false);
    const [second] = ledger.restore().map(parse);
    expect(second?.id).not.toEqual(first?.id);
    expect(ledger.fromDaemon(json({ jsonrpc: "2.0", id: second?.id, result: {} }))).toBe(false);
    expect(ledger.takeOutbox()).toHaveLength(1);
  });

  it("forgets closed sessions and passes notifications and unknown answers through", () => {
    const ledger = new ProxyLedger();
    editorSession(ledger);
    ledger.fromEditor(json({ jsonrpc: "2.0", id: 5, method: "session/close", params: { sessionId: "s1" } }));
    expect(ledger.fromDaemon(json({ jsonrpc: "2.0", method: "session/update", params: {} }))).toBe(true);
    expect(ledger.fromDaemon(json({ jsonrpc: "2.0", id: 99, result: {} }))).toBe(true);
    expect(ledger.lost(true).map(parse)).toEqual([expect.objectContaining({ id: 5 })]);
  });
});
