// The floor for the ten-call task: the bare agent (bench/bare-agent.mjs) with the smallest turn
// loop that runs the same task. It sends the conversation to the model over Chat Completions
// (the official SDK, streamed, one `exec_command` tool), runs each requested command as the
// daemon does, `/bin/bash -c` in the session's cwd, unsandboxed, appends its output as the tool
// message and asks again until the model answers without a call. It stores nothing and sends
// only the updates an editor needs to show the calls (a tool_call and its tool_call_update) and
// the closing text.
import { execFile } from "node:child_process";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { methods } from "@agentclientprotocol/sdk";
import OpenAI from "openai";
import { bareApp, serve } from "./bare-agent.mjs";

const run = promisify(execFile);

const TOOLS = [
  {
    type: "function",
    function: {
      name: "exec_command",
      description: "Runs a shell command in the workspace and returns its output.",
      parameters: { type: "object", properties: { cmd: { type: "string" } }, required: ["cmd"] },
    },
  },
];

/** Output and exit status of `command`, as the tool message the model reads. */
async function shell(command, cwd, signal) {
  try {
    const { stdout, stderr } = await run("/bin/bash", ["-c", command], { cwd, signal, maxBuffer: 1 << 20 });
    return `${stdout}${stderr}exit code: 0`;
  } catch (error) {
    return `${error.stdout ?? ""}${error.stderr ?? ""}exit code: ${error.code ?? "unknown"}`;
  }
}

/** The bare agent answering session/prompt; the model comes from OPENAI_BASE_URL, as for the daemon. */
export function bareToolApp({ model = process.env.BARE_MODEL ?? "mock-model", openai = new OpenAI() } = {}) {
  const sessions = new Map();
  const onSession = (sessionId, { cwd }) => {
    sessions.set(sessionId, { cwd, messages: [] });
    // As the daemon does after session/new: node loads its fetch and the connection opens while
    // the user types, off the first prompt's clock.
    void openai.models.list().catch(() => {});
  };
  return bareApp({ onSession }).onRequest(
    methods.agent.session.prompt,
    async ({ params, client, signal }) => {
      const session = sessions.get(params.sessionId);
      if (!session) throw new Error(`no session ${params.sessionId}`);
      const update = (u) =>
        void client
          .notify(methods.client.session.update, { sessionId: params.sessionId, update: u })
          .catch(() => {});
      const text = params.prompt.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
      session.messages.push({ role: "user", content: text });
      for (;;) {
        const answer = await openai.chat.completions
          .stream({ model, messages: session.messages, tools: TOOLS }, { signal })
          .finalMessage();
        const calls = (answer.tool_calls ?? []).filter((call) => call.type === "function");
        if (calls.length === 0) {
          session.messages.push({ role: "assistant", content: answer.content ?? "" });
          if (answer.content)
            update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: answer.content } });
          return { stopReason: "end_turn" };
        }
        session.messages.push({
          role: "assistant",
          content: answer.content ?? null,
          tool_calls: calls.map(asParam),
        });
        for (const call of calls) session.messages.push(await runCall(call, session.cwd, update, signal));
      }
    },
  );
}

/** A streamed call as the request's history takes it (the SDK's message carries more fields). */
const asParam = ({ id, function: f }) => ({
  id,
  type: "function",
  function: { name: f.name, arguments: f.arguments },
});

/** Runs one `exec_command` call, shown to the client as a tool call; returns its tool message. */
async function runCall({ id, function: f }, cwd, update, signal) {
  const { cmd } = JSON.parse(f.arguments);
  update({ sessionUpdate: "tool_call", toolCallId: id, title: cmd, kind: "execute", status: "in_progress" });
  const output = await shell(cmd, cwd, signal);
  update({
    sessionUpdate: "tool_call_update",
    toolCallId: id,
    status: "completed",
    content: [{ type: "content", content: { type: "text", text: output } }],
  });
  return { role: "tool", tool_call_id: id, content: output };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) void serve(bareToolApp());
