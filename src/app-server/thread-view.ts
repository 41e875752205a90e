import type { SessionConfigOption } from "../acp/local-client.js";
import type { Thread, TurnRecord } from "./threads.js";

/** What thread views need beyond the thread: who we are and which model and provider run. */
export interface ViewContext {
  version: string;
  provider: string;
  model: string;
}

/** Our session as Codex's `Thread` (turns only when asked for). */
export function threadView(
  ctx: ViewContext,
  t: {
    id: string;
    cwd: string;
    createdAt: number;
    updatedAt?: number;
    name?: string | null;
    turns: TurnRecord[];
    loaded: boolean;
  },
) {
  const running = t.turns.some((turn) => turn.status === "inProgress");
  return {
    id: t.id,
    sessionId: t.id,
    forkedFromId: null,
    parentThreadId: null,
    preview: firstUserText(t.turns) ?? t.name ?? "",
    ephemeral: false,
    projectId: null,
    modelProvider: ctx.provider,
    model: ctx.model,
    reasoningEffort: null,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt ?? t.createdAt,
    status: !t.loaded
      ? { type: "notLoaded" }
      : running
        ? { type: "active", activeFlags: [] }
        : { type: "idle" },
    path: null,
    // Whole turns in thread/read: history is not paged.
    historyMode: "legacy",
    cwd: t.cwd,
    cliVersion: ctx.version,
    source: "appServer",
    agentNickname: null,
    agentRole: null,
    gitInfo: null,
    name: t.name ?? null,
    turns: t.turns,
  };
}

/** The settings part of thread/start and thread/resume answers, from the session's options. */
export function sessionSettings(ctx: ViewContext, thread: Pick<Thread, "cwd" | "options">) {
  const mode = current(thread.options, "mode") ?? "workspace-write";
  return {
    model: current(thread.options, "model") ?? ctx.model,
    modelProvider: ctx.provider,
    serviceTier: null,
    cwd: thread.cwd,
    instructionSources: [],
    approvalPolicy: mode === "full-access" ? "never" : "on-request",
    approvalsReviewer: "user",
    sandbox: sandboxOf(mode),
    reasoningEffort: null,
  };
}

export function current(options: SessionConfigOption[], id: string): string | undefined {
  const option = options.find((o) => o.id === id);
  return option && "currentValue" in option ? String(option.currentValue) : undefined;
}

/** Our modes as Codex sandbox policies (the closest one; ours asks where Codex's would refuse). */
function sandboxOf(mode: string) {
  if (mode === "read-only" || mode === "plan") return { type: "readOnly", networkAccess: false };
  if (mode === "full-access") return { type: "dangerFullAccess" };
  return {
    type: "workspaceWrite",
    writableRoots: [],
    networkAccess: false,
    excludeTmpdirEnvVar: false,
    excludeSlashTmp: false,
  };
}

function firstUserText(turns: TurnRecord[]): string | undefined {
  for (const turn of turns)
    for (const item of turn.items)
      if (item.type === "userMessage") {
        const content = item.content as Array<{ text?: string }>;
        return content[0]?.text;
      }
  return undefined;
}
