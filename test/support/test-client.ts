import {
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  client,
  methods,
  type RequestPermissionRequest,
  type SessionNotification,
  type SessionUpdate,
} from "@agentclientprotocol/sdk/unstable";

export type PermissionPolicy = (
  request: RequestPermissionRequest,
) => string | "cancelled" | Promise<string | "cancelled">;

/**
 * An editor for tests: the official SDK client that records every update it receives and
 * answers permission requests with a policy (default: allow once).
 */
export function testClient(options: { permission?: PermissionPolicy } = {}) {
  const notifications: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const elicitations: CreateElicitationRequest[] = [];
  let policy: PermissionPolicy = options.permission ?? (() => "allow_once");
  // Answers forms only for tests whose client advertises them; declines by default.
  let elicit: (request: CreateElicitationRequest) => CreateElicitationResponse = () => ({
    action: "decline",
  });
  const app = client({ name: "test-editor" })
    .onNotification(methods.client.session.update, ({ params }) => {
      notifications.push(params);
    })
    .onRequest(methods.client.session.requestPermission, async ({ params }) => {
      permissions.push(params);
      const answer = await policy(params);
      if (answer === "cancelled") return { outcome: { outcome: "cancelled" } };
      return { outcome: { outcome: "selected", optionId: answer } };
    })
    .onRequest(methods.client.elicitation.create, async ({ params }) => {
      elicitations.push(params);
      return elicit(params);
    });
  const allUpdates = (sessionId: string): SessionUpdate[] =>
    notifications.filter((n) => n.sessionId === sessionId).map((n) => n.update);
  /**
   * A session's updates without the notice about this machine's sandbox: where bubblewrap is
   * missing it would change every transcript; tests whose subject it is use `allUpdates`.
   */
  const updates = (sessionId: string): SessionUpdate[] => withoutSandboxNotice(allUpdates(sessionId));
  return {
    app,
    notifications,
    permissions,
    elicitations,
    updates,
    allUpdates,
    setPermission(next: PermissionPolicy) {
      policy = next;
    },
    setElicitation(next: (request: CreateElicitationRequest) => CreateElicitationResponse) {
      elicit = next;
    },
    /**
     * The agent's streamed text for a session, concatenated: the model's words and the agent's
     * notices, except the one about this machine's sandbox, which a test sees only through
     * `notices()` (where bubblewrap is missing it would change every transcript).
     */
    text(sessionId: string): string {
      return updates(sessionId)
        .map((u) =>
          u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : "",
        )
        .join("");
    },
    /** The agent's notices for a session (marked with `_meta` by the agent), in order. */
    notices(sessionId: string): Array<{ severity: string; topic?: string; text: string }> {
      return allUpdates(sessionId).flatMap((u) => {
        const notice =
          u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? noticeOf(u) : undefined;
        return notice && u.sessionUpdate === "agent_message_chunk" && u.content.type === "text"
          ? [{ ...notice, text: u.content.text }]
          : [];
      });
    },
    clear() {
      notifications.length = 0;
      permissions.length = 0;
    },
  };
}

export const INIT = {
  protocolVersion: 1,
  clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
  clientInfo: { name: "test-editor", version: "1.0.0" },
} as const;

/** The notice marker the agent puts on a message chunk (`src/acp/map-output.ts`). */
function noticeOf(update: SessionUpdate): { severity: string; topic?: string } | undefined {
  const meta = (update as { _meta?: Record<string, unknown> })._meta?.["openinterpreter/notice"];
  return typeof meta === "object" && meta !== null
    ? (meta as { severity: string; topic?: string })
    : undefined;
}

/** Updates without the notice about this machine's sandbox (see `updates` above). */
export function withoutSandboxNotice(updates: SessionUpdate[]): SessionUpdate[] {
  return updates.filter((u) => noticeOf(u)?.topic !== "sandbox");
}
