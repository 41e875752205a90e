import type { LocalClient } from "../acp/local-client.js";
import { RpcError } from "./json-rpc-lines.js";
import type { Thread } from "./threads.js";

type Params = Record<string, unknown>;

/**
 * Threads that travel: `thread/fork`, `thread/name/set`, `thread/archive` / `unarchive` and
 * `turn/steer`, each onto the ACP agent's fork, title, archive and steering (the same session
 * layer editors reach).
 */
export function travelMethods(deps: {
  loaded(params: Params): Thread;
  /** The connection for requests that name a session rather than a loaded thread. */
  index(): Promise<LocalClient>;
  stored(id: string): Promise<{ cwd: string } | undefined>;
  /** Loads a thread of a stored session and answers as `thread/start` does. */
  openStored(id: string, cwd: string): Promise<{ thread: { id: string } }>;
  notify(method: string, params: Params): void;
  /** A loaded thread's view, when it is loaded. */
  threadOf(id: string): { thread: { id: string } } | undefined;
}) {
  const threadId = (params: Params): string => {
    if (typeof params.threadId !== "string") throw new RpcError(-32602, "threadId must be a string");
    return params.threadId;
  };
  const archive = async (params: Params, archived: boolean) => {
    const id = threadId(params);
    const stored = await deps.stored(id);
    if (!stored) throw new RpcError(-32600, `no thread ${id}`);
    await (await deps.index()).archive(id, archived);
    return { id, cwd: stored.cwd };
  };
  return {
    async "thread/fork"(params: Params) {
      const id = threadId(params);
      const source = await deps.stored(id);
      if (!source) throw new RpcError(-32600, `no thread ${id}`);
      // Our turn ids are not Codex's: only a fork of everything so far can be promised.
      if (typeof params.lastTurnId === "string")
        throw new RpcError(
          -32600,
          "forking up to an earlier turn (lastTurnId) is not supported: fork the whole thread",
        );
      const cwd = typeof params.cwd === "string" ? params.cwd : source.cwd;
      const forkId = await (await deps.index()).forkSession(id, cwd);
      const answer = await deps.openStored(forkId, cwd);
      queueMicrotask(() => deps.notify("thread/started", { thread: answer.thread }));
      return answer;
    },
    async "thread/name/set"(params: Params) {
      const id = threadId(params);
      if (typeof params.name !== "string") throw new RpcError(-32602, "name must be a string");
      let name: string;
      try {
        name = await (await deps.index()).setTitle(id, params.name);
      } catch (error) {
        throw new RpcError(-32600, error instanceof Error ? error.message : String(error));
      }
      queueMicrotask(() => deps.notify("thread/name/updated", { threadId: id, threadName: name }));
      return {};
    },
    async "thread/archive"(params: Params) {
      const { id } = await archive(params, true);
      queueMicrotask(() => deps.notify("thread/archived", { threadId: id }));
      return {};
    },
    async "thread/unarchive"(params: Params) {
      const { id, cwd } = await archive(params, false);
      const { thread } = deps.threadOf(id) ?? (await deps.openStored(id, cwd));
      queueMicrotask(() => deps.notify("thread/unarchived", { threadId: id }));
      return { thread };
    },
    async "turn/steer"(params: Params) {
      const thread = deps.loaded(params);
      const running = thread.running?.turn.id;
      if (!running)
        throw new RpcError(-32600, "no turn is running on this thread: start one with turn/start");
      if (params.expectedTurnId !== running)
        throw new RpcError(
          -32600,
          `expectedTurnId ${String(params.expectedTurnId)} is not the running turn ${running}`,
        );
      const text = ((params.input as Array<{ type?: string; text?: string }>) ?? [])
        .flatMap((part) => (part.type === "text" && typeof part.text === "string" ? [part.text] : []))
        .join("\n");
      if (!text) throw new RpcError(-32602, "input needs a text part");
      if (!(await thread.client.steer(text)))
        throw new RpcError(-32600, "the turn ended before the input could join it: start a new turn");
      return { turnId: running };
    },
  };
}
