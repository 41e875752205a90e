import { describe, expect, it } from "vitest";
import { messageStream } from "../src/acp/message-stream.js";

const notification = (n: number, text = "") => ({
  jsonrpc: "2.0",
  method: "session/update",
  params: { n, text },
});

/** An output that records each write and finishes it only when `release` is called. */
function heldOutput() {
  const writes: string[] = [];
  const waiting: Array<() => void> = [];
  let failWith: unknown;
  const output = new WritableStream<Uint8Array>({
    write(chunk) {
      writes.push(new TextDecoder().decode(chunk));
      if (failWith !== undefined) return Promise.reject(failWith);
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
  });
  return {
    output,
    writes,
    release: () => {
      for (const resolve of waiting.splice(0)) resolve();
    },
    failNext: (error: unknown) => {
      failWith = error;
    },
  };
}

const idle = () => new Promise((resolve) => setImmediate(resolve));
const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await idle();
  await idle();
  return done;
};

describe("messageStream output", () => {
  it("writes the lines of one event-loop turn as one write, in order", async () => {
    const out = heldOutput();
    const stream = messageStream({ input: new ReadableStream(), output: out.output });
    const writer = stream.writable.getWriter();
    for (let n = 0; n < 500; n++) await writer.write(notification(n) as never);
    await idle();
    expect(out.writes).toHaveLength(1);
    const lines = out.writes[0]!.trimEnd().split("\n");
    expect(lines.map((line) => JSON.parse(line).params.n)).toEqual([...Array(500).keys()]);
    out.release();
    await writer.write(notification(500) as never);
    await idle();
    expect(out.writes).toHaveLength(2);
  });

  it("says when everything sent so far has been written", async () => {
    const out = heldOutput();
    const stream = messageStream({ input: new ReadableStream(), output: out.output });
    const writer = stream.writable.getWriter();
    await writer.write(notification(1) as never);
    const first = stream.drained();
    expect(await settled(first)).toBe(false);
    await writer.write(notification(2) as never);
    const second = stream.drained();
    out.release();
    expect(await settled(first)).toBe(true);
    expect(await settled(second)).toBe(false);
    out.release();
    expect(await settled(second)).toBe(true);
    expect(out.writes.join("")).toBe(
      `${JSON.stringify(notification(1))}\n${JSON.stringify(notification(2))}\n`,
    );
  });

  it("holds the sender back while a megabyte waits for an editor that does not read", async () => {
    const out = heldOutput();
    const stream = messageStream({ input: new ReadableStream(), output: out.output });
    const writer = stream.writable.getWriter();
    const big = "x".repeat(64 * 1024);
    let accepted = 0;
    let blocked: Promise<void> | undefined;
    for (; accepted < 100; accepted++) {
      const sent = writer.write(notification(accepted, big) as never);
      if (!(await settled(sent))) {
        blocked = sent;
        break;
      }
    }
    // About 16 messages of 64 KiB, then the next one waits: not all 100.
    expect(accepted).toBeGreaterThan(10);
    expect(accepted).toBeLessThan(20);
    // The editor reads: the sender goes on, and everything arrives.
    for (let i = 0; i < 40 && !(await settled(blocked!)); i++) out.release();
    expect(await settled(blocked!)).toBe(true);
    const lines = out.writes.join("").trimEnd().split("\n");
    expect(lines.map((line) => JSON.parse(line).params.n)).toEqual([...Array(accepted + 1).keys()]);
  });

  it("ends the connection when a write fails, even with nothing more to send", async () => {
    const out = heldOutput();
    const stream = messageStream({ input: new ReadableStream(), output: out.output });
    const epipe = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
    out.failNext(epipe);
    const reading = stream.readable.getReader().read();
    await stream.writable.getWriter().write(notification(1) as never);
    await expect(reading).rejects.toBe(epipe);
  });

  it("writes what is pending when closed, then closes the output once and cleanly", async () => {
    const writes: string[] = [];
    let closes = 0;
    const output = new WritableStream<Uint8Array>({
      write: (chunk) => {
        writes.push(new TextDecoder().decode(chunk));
      },
      close: () => {
        closes++;
      },
    });
    const problems: string[] = [];
    const stream = messageStream({ input: new ReadableStream(), output, onProblem: (p) => problems.push(p) });
    const reading = stream.readable.getReader().read();
    const writer = stream.writable.getWriter();
    await writer.write(notification(1) as never);
    await writer.close();
    await idle();
    expect(writes.map((w) => JSON.parse(w).params.n)).toEqual([1]);
    expect(closes).toBe(1);
    expect(problems).toEqual([]);
    // No late write to the closed output, so no error ends the input side.
    expect(await settled(reading)).toBe(false);
  });
});
