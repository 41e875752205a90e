/**
 * A per-conversation router on top of the scripted fake model, for tests where many sessions
 * (or daemons that get killed mid-request) talk to one model at once, so a single ordered
 * step queue cannot work. Each request is answered from its own conversation state:
 *
 *   - the task marker is `[task:<marker>]` in the newest user message that carries one;
 *   - the step is the number of assistant messages after that message (0 = the first request).
 *
 * `script(marker, step)` returns the reply; an unknown marker or a step past the script is
 * recorded in `errors` and answered 500, so a test that asserts `errors` is empty fails on it.
 */
import type { ServerResponse } from "node:http";
import {
  type ChatBody,
  type FakeModel,
  type HandleStep,
  type ReplyStep,
  replyChunks,
  startFakeModel,
} from "../../support/fake-model.js";

export interface RoutedModel {
  url: string;
  /** Unroutable requests and fake-model errors, readable. */
  errors: string[];
  /** Requests answered, per marker. */
  served: Map<string, number>;
  close(): Promise<void>;
}

export type TaskScript = (marker: string, step: number) => ReplyStep | undefined;

const MARKER = /\[task:([A-Za-z0-9_-]+)\]/;

export async function startRoutedModel(options: {
  script: TaskScript;
  /** Pause between SSE chunks (kills then land mid-stream too). */
  delayMs?: number;
  /**
   * Up to this many ms (uniformly random) before each reply's first chunk, as a real endpoint's
   * time to first token varies: sessions started together do not stay in lockstep.
   */
  jitterMs?: number;
}): Promise<RoutedModel> {
  const model: FakeModel = await startFakeModel();
  const errors: string[] = [];
  const served = new Map<string, number>();
  const router: HandleStep = {
    async handle(_req, res, body) {
      // Re-arm first, synchronously: the fake model shifts one step per request.
      model.reply(router);
      const route = routeOf(body);
      const step = route && options.script(route.marker, route.step);
      if (!route || !step) {
        errors.push(`unroutable request: ${route ? `${route.marker} step ${route.step}` : "no marker"}`);
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "routed model: no reply for this request" } }));
        return;
      }
      served.set(route.marker, (served.get(route.marker) ?? 0) + 1);
      const jitter = Math.random() * (options.jitterMs ?? 0);
      if (jitter > 0) await new Promise((resolve) => setTimeout(resolve, jitter));
      await stream(
        res,
        replyChunks(step, body, () => `${route.marker}-anon`),
        options.delayMs ?? 0,
      );
    },
  };
  model.reply(router);
  return {
    url: model.url,
    get errors() {
      return [...errors, ...model.errors];
    },
    served,
    close: () => model.close(),
  };
}

function routeOf(body: ChatBody): { marker: string; step: number } | undefined {
  const messages = Array.isArray(body.messages) ? (body.messages as ChatBody[]) : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "user") continue;
    const match = MARKER.exec(JSON.stringify(message.content));
    if (!match) continue;
    const step = messages.slice(i + 1).filter((m) => m.role === "assistant").length;
    return { marker: match[1]!, step };
  }
  return undefined;
}

async function stream(res: ServerResponse, chunks: string[], delayMs: number): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.flushHeaders();
  for (const [index, chunk] of chunks.entries()) {
    // A killed daemon closes the connection; stop writing into it.
    if (res.destroyed || res.writableEnded) return;
    if (delayMs > 0 && index > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    res.write(`data: ${chunk}\n\n`);
  }
  res.end();
}
