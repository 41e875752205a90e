import {
  client,
  methods,
  type RequestPermissionRequest,
  type SessionNotification,
  type SessionUpdate,
} from "@agentclientprotocol/sdk";

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
  let policy: PermissionPolicy = options.permission ?? (() => "allow_once");
  const app = client({ name: "test-editor" })
    .onNotification(methods.client.session.update, ({ params }) => {
      notifications.push(params);
    })
    .onRequest(methods.client.session.requestPermission, async ({ params }) => {
      permissions.push(params);
      const answer = await policy(params);
      if (answer === "cancelled") return { outcome: { outcome: "cancelled" } };
      return { outcome: { outcome: "selected", optionId: answer } };
    });
  const updates = (sessionId: string): SessionUpdate[] =>
    notifications.filter((n) => n.sessionId === sessionId).map((n) => n.update);
  return {
    app,
    notifications,
    permissions,
    updates,
    setPermission(next: PermissionPolicy) {
      policy = next;
    },
    /** The agent's streamed text for a session, concatenated. */
    text(sessionId: string): string {
      return updates(sessionId)
        .map((u) =>
          u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : "",
        )
        .join("");
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
