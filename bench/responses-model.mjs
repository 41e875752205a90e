// A scripted model on loopback that speaks the OpenAI Responses API (streamed), for peers that no
// longer speak chat completions (codex ≥ 0.5x refuses `wire_api = "chat"`). It serves the same
// task as `taskStep` in daemon.mjs, answering from the request itself: while the input holds
// fewer than `calls` tool outputs it asks for the next command through the agent's own shell
// tool (found in the request's `tools`), then it closes with a text. Any other request (a title,
// a summary) gets a short text, so it never eats a step of the task.
import { createServer } from "node:http";

/**
 * The shell tools a Responses-API agent may offer, and how each takes one command line.
 * Ordered by preference: a tool taking a plain string runs the command as the other agents do.
 */
const SHELL_TOOLS = [
  { name: "shell_command", args: (command) => ({ command }) },
  { name: "exec_command", args: (command) => ({ cmd: command }) },
  { name: "shell", args: (command) => ({ command: ["bash", "-lc", command] }) },
];

/** Starts the responder; `task` is `{ calls, command(i) }` or undefined between runs. */
export async function startResponsesModel() {
  const state = { task: undefined, requests: [], errors: [], toolNames: undefined };
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      try {
        serve(state, req, res, raw);
      } catch (error) {
        state.errors.push(String(error));
        if (!res.headersSent) res.writeHead(500).end();
      }
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const sockets = new Set();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    state,
    /** Scripts the next prompt: `calls` shell calls, command `command(i)`, then a text. */
    task(task) {
      state.task = task;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

function serve(state, req, res, raw) {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  if (req.method === "GET" && url.pathname.endsWith("/models")) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ object: "list", data: [], models: [] }));
    return;
  }
  if (req.method !== "POST" || !url.pathname.endsWith("/responses")) {
    state.errors.push(`unexpected call: ${req.method} ${req.url}`);
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: `no route ${req.method} ${url.pathname}` } }));
    return;
  }
  const body = JSON.parse(raw);
  state.requests.push(body);
  state.toolNames ??= (body.tools ?? []).map((t) => t.name ?? t.type);
  const id = `resp_${state.requests.length}`;
  const item = nextItem(state.task, body, state.requests.length);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const events = [
    { type: "response.created", response: { id } },
    { type: "response.output_item.added", item },
    { type: "response.output_item.done", item },
    {
      type: "response.completed",
      response: {
        id,
        usage: {
          input_tokens: 0,
          input_tokens_details: null,
          output_tokens: 0,
          output_tokens_details: null,
          total_tokens: 0,
        },
      },
    },
  ];
  for (const event of events) res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  res.end();
}

function nextItem(task, body, n) {
  const input = Array.isArray(body.input) ? body.input : [];
  const done = input.filter((i) => i.type === "function_call_output").length;
  const shell = SHELL_TOOLS.find((t) => (body.tools ?? []).some((tool) => tool.name === t.name));
  if (task && shell && done < task.calls) {
    return {
      type: "function_call",
      id: `fc_${n}`,
      call_id: `call_${n}`,
      name: shell.name,
      arguments: JSON.stringify(shell.args(task.command(done))),
    };
  }
  const text = task && shell ? "All commands ran." : "ok";
  return {
    type: "message",
    role: "assistant",
    id: `msg_${n}`,
    content: [{ type: "output_text", text, annotations: [] }],
  };
}
