/**
 * Model endpoint faults, end to end through an ACP session: the real runtime in-process, the
 * official SDK client as the editor, the scripted fake model as the endpoint. Every row starts
 * a turn whose first model answer runs a shell command with a visible side effect (a line
 * appended to a file), then the endpoint misbehaves on the request that follows. Each row
 * checks what a user notices: how often we hit the endpoint, what the editor is told, that
 * the command never ran twice, and that the next prompt in the same session works.
 */
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type ChatBody, type FakeModel, type FakeStep, startFakeModel } from "../support/fake-model.js";
import { type InProcessAgent, startInProcess } from "../support/in-process.js";
import { countLines, promptOutcome } from "./support/fault-kit.js";

const LOG = "side-effect.log";
const KEY = "sk-test-key";
const append = (line: string) => ({ cmd: `echo ${line} >> ${LOG}` });
const toolStep: FakeStep = { toolCalls: [{ id: "w1", name: "exec_command", arguments: append("first") }] };
const sse = (delta: object, finish: string | null = null) =>
  JSON.stringify({
    id: "chatcmpl-raw",
    object: "chat.completion.chunk",
    created: 1,
    model: "mock-model",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
const HTML_502 =
  "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr><center>nginx</center></body></html>";
const toolMessages = (body: ChatBody) =>
  (body.messages as Array<{ role: string; tool_call_id?: string; content: string }>).filter(
    (m) => m.role === "tool",
  );

interface FaultRow {
  name: string;
  /** Extra keys for `[model_providers.openai]`. */
  provider?: string;
  /** `request_max_retries` (default 2). */
  maxRetries?: number;
  /** What the endpoint does with the requests after the first tool result, in order. */
  fault: FakeStep[];
  /** POSTs the fake model sees for the whole faulty prompt, the first (tool-calling) one included. */
  posts: number;
  /** Retry notices the editor is shown. */
  retries: number;
  /** Absent: the turn recovers and ends `end_turn`. Present: the error the prompt answers with. */
  gaveUp?: RegExp;
  /** Side-effect lines after the prompt, beyond the one `first` line. */
  lines?: Record<string, number>;
  /** The endpoint stops listening after the first answer (connection refused), and comes back later. */
  refuse?: boolean;
}

const rows: FaultRow[] = [
  {
    name: "429 with Retry-After: waits as asked, then succeeds",
    fault: [{ status: 429, headers: { "retry-after": "1" } }, { text: "done after waiting" }],
    posts: 3,
    retries: 1,
  },
  {
    name: "429 with Retry-After beyond the cap (quota): gives up at once, says how long it asked",
    fault: [
      {
        status: 429,
        headers: { "retry-after": "3600" },
        body: { error: { message: "You exceeded your current quota" } },
      },
    ],
    posts: 2,
    retries: 0,
    gaveUp: /HTTP 429: rate limited.*3600 s.*exceeded your current quota/,
  },
  {
    name: "429 without Retry-After: backs off, gives up after the configured retries",
    fault: [{ status: 429 }, { status: 429 }, { status: 429 }],
    posts: 4,
    retries: 2,
    gaveUp: /HTTP 429: rate limited.*gave up after 2 retries/,
  },
  {
    name: "500 whose body echoes the API key: gives up, the key never reaches the editor",
    fault: Array.from({ length: 3 }, () => ({
      status: 500,
      body: { error: { message: `upstream failed for key ${KEY}` } },
    })),
    posts: 4,
    retries: 2,
    gaveUp: /HTTP 500: the server failed.*upstream failed for key \[redacted\].*gave up after 2 retries/,
  },
  {
    name: "502 (JSON): gives up after the retries",
    fault: [{ status: 502 }, { status: 502 }, { status: 502 }],
    posts: 4,
    retries: 2,
    gaveUp: /HTTP 502: the server failed.*gave up after 2 retries/,
  },
  {
    name: "503 twice, then an answer: recovers on the last allowed retry",
    fault: [{ status: 503 }, { status: 503 }, { text: "recovered" }],
    posts: 4,
    retries: 2,
  },
  {
    name: "502 HTML error page: the page's title, not the markup",
    fault: [
      { status: 502, body: HTML_502 },
      { status: 502, body: HTML_502 },
      { status: 502, body: HTML_502 },
    ],
    posts: 4,
    retries: 2,
    gaveUp: /HTTP 502: the server failed\. Server said: 502 Bad Gateway \(HTML page\)/,
  },
  {
    name: "200 with an HTML page (a portal or a wrong base URL): not a stream, not retried",
    fault: [
      {
        handle: (_req, res) => {
          res.writeHead(200, { "content-type": "text/html" });
          res.end("<html><head><title>Sign in</title></head><body>Sign in to continue</body></html>");
        },
      },
    ],
    posts: 2,
    retries: 0,
    gaveUp: /not a chat-completions stream.*text\/html/,
  },
  {
    name: "connection refused: retries, names the endpoint, works once the server is back",
    refuse: true,
    fault: [],
    posts: 1,
    retries: 2,
    gaveUp: /Cannot reach .*connection refused \(ECONNREFUSED\).*gave up after 2 retries/,
  },
  {
    name: "connection reset before any output: retried once, answer streamed once",
    fault: [{ text: "never seen", cutAfterChunks: 1, reset: true }, { text: "recovered" }],
    posts: 3,
    retries: 1,
  },
  {
    name: "connection reset after text was shown: not repeated, the turn ends with the error",
    fault: [{ text: "a partial answer that is cut", chunkSize: 4, cutAfterChunks: 3, reset: true }],
    posts: 2,
    retries: 0,
    gaveUp: /connection (lost|reset)/,
  },
  {
    name: "stream cut inside tool-call arguments: the half call never runs; the retry's call runs once",
    fault: [
      {
        toolCalls: [{ id: "w2", name: "exec_command", arguments: append("second") }],
        chunkSize: 8,
        cutAfterChunks: 4,
      },
      { toolCalls: [{ id: "w2", name: "exec_command", arguments: append("second") }] },
      { text: "done" },
    ],
    posts: 4,
    retries: 1,
    lines: { second: 1 },
  },
  {
    name: "stream cut inside tool-call arguments after text: nothing runs, the turn ends with the error",
    fault: [
      {
        text: "Running it again.",
        toolCalls: [{ id: "w2", name: "exec_command", arguments: append("second") }],
        chunkSize: 8,
        cutAfterChunks: 6,
      },
    ],
    posts: 2,
    retries: 0,
    gaveUp: /connection lost mid-response|server closed the connection|terminated/,
    lines: { second: 0 },
  },
  {
    name: "invalid JSON in tool-call arguments: a tool error the model fixes",
    fault: [
      {
        toolCalls: [{ id: "bad", name: "exec_command", arguments: '{"cmd": "echo bad >> side-effect.log"' }],
      },
      {
        expect: (body) => {
          const bad = toolMessages(body).find((m) => m.tool_call_id === "bad");
          expect(bad?.content).toMatch(/failed to parse function arguments for exec_command/);
        },
        toolCalls: [{ id: "fixed", name: "exec_command", arguments: append("fixed") }],
      },
      { text: "fixed it" },
    ],
    posts: 4,
    retries: 0,
    lines: { bad: 0, fixed: 1 },
  },
  {
    name: "endless stream with no data: idle timeout, retried, then gives up",
    provider: "stream_idle_timeout_ms = 400",
    fault: [{ hang: true }, { hang: true }, { hang: true }],
    posts: 4,
    retries: 2,
    gaveUp: /no data for 400 ms \(stream idle timeout\).*gave up after 2 retries/,
  },
  {
    name: "a server that accepts the connection but never answers: idle timeout, bounded",
    provider: "stream_idle_timeout_ms = 400",
    maxRetries: 1,
    fault: [{ handle: () => {} }, { handle: () => {} }],
    posts: 3,
    retries: 1,
    gaveUp: /no data for 400 ms \(stream idle timeout\).*gave up after 1 retry\b/,
  },
  {
    name: "silence after text was shown: idle timeout, not repeated",
    provider: "stream_idle_timeout_ms = 400",
    fault: [{ text: "thinking about it", hangAfterText: true }],
    posts: 2,
    retries: 0,
    gaveUp: /no data for 400 ms \(stream idle timeout\)/,
  },
  {
    name: "a stream that never sends finish_reason, then closes: its complete tool call runs once",
    fault: [
      {
        raw: [
          sse({ role: "assistant", content: "" }),
          sse({
            tool_calls: [
              {
                index: 0,
                id: "w2",
                type: "function",
                function: { name: "exec_command", arguments: JSON.stringify(append("second")) },
              },
            ],
          }),
        ],
      },
      { raw: [sse({ role: "assistant", content: "" }), sse({ content: "all done" })] },
    ],
    posts: 3,
    retries: 0,
    lines: { second: 1 },
  },
  {
    name: "finish_reason sent, then the stream is left open: the answer counts, no error",
    provider: "stream_idle_timeout_ms = 400",
    fault: [
      {
        handle: (_req, res) => {
          res.writeHead(200, { "content-type": "text/event-stream" });
          res.write(`data: ${sse({ role: "assistant", content: "complete answer" })}\n\n`);
          res.write(`data: ${sse({}, "stop")}\n\n`);
        },
      },
    ],
    posts: 2,
    retries: 0,
  },
  {
    name: "no usage chunk: the answer still counts",
    fault: [{ text: "no usage here", usage: false }],
    posts: 2,
    retries: 0,
  },
];

let model: FakeModel | undefined;
let oi: InProcessAgent | undefined;
afterEach(async () => {
  await oi?.close();
  await model?.close();
  oi = undefined;
  model = undefined;
});

describe("model endpoint faults, end to end", () => {
  for (const row of rows) {
    it(row.name, async () => {
      model = await startFakeModel();
      const first = model;
      const provider = [
        "[model_providers.openai]",
        `request_max_retries = ${row.maxRetries ?? 2}`,
        row.provider ?? "",
      ];
      oi = await startInProcess({ model, configToml: `${provider.join("\n")}\n` });
      const { sessionId, cwd } = await oi.newSession();
      const log = path.join(cwd, LOG);
      if (row.refuse) {
        // The endpoint goes away while the command runs: the next request finds a closed port.
        oi.editor.setPermission(async () => {
          await first.close();
          return "allow_once";
        });
      }
      first.reply(toolStep, ...row.fault);

      const outcome = await promptOutcome(oi.agent, sessionId, "append a line");
      const shown = oi.editor.text(sessionId);
      if (row.gaveUp) {
        expect(outcome.error?.code).toBe(-32603);
        const message = outcome.error?.message ?? "";
        expect(message).toMatch(row.gaveUp);
        // Names the endpoint and the model, so the user knows which server failed.
        expect(message).toContain(`openai at ${first.url} (model 'mock-model')`);
        expect(shown).toContain(`**Error:** ${message}`);
      } else {
        expect(outcome).toEqual({ stopReason: "end_turn" });
      }
      expect(first.requests).toHaveLength(row.posts);
      expect(shown.match(/retrying in/g) ?? []).toHaveLength(row.retries);
      expect(JSON.stringify(oi.editor.notifications)).not.toContain(KEY);
      expect(outcome.error?.message ?? "").not.toContain(KEY);
      expect(countLines(log, "first")).toBe(1);
      for (const [line, count] of Object.entries(row.lines ?? {})) expect(countLines(log, line)).toBe(count);
      first.assertDone();

      // The same session takes the next prompt; the history it sends answers every call once.
      const next = row.refuse ? await startFakeModel({ port: Number(new URL(first.url).port) }) : first;
      model = next;
      next.reply({
        text: "still here",
        expect: (body) => {
          const ids = toolMessages(body).map((m) => m.tool_call_id);
          expect(ids).toContain("w1");
          expect(new Set(ids).size).toBe(ids.length);
        },
      });
      expect(await promptOutcome(oi.agent, sessionId, "are you there?")).toEqual({ stopReason: "end_turn" });
      expect(oi.editor.text(sessionId)).toContain("still here");
      expect(countLines(log, "first")).toBe(1);
      next.assertDone();
    });
  }
});
