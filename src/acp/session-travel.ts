import { type AgentApp, type AgentContext, methods, RequestError } from "@agentclientprotocol/sdk/unstable";
import { z } from "zod";
import type { Session } from "../sessions/session.js";
import { type SessionManager, SessionNotFoundError } from "../sessions/session-manager.js";

/**
 * codex-acp's steering extension: a prompt for the running turn. The reply says whether it
 * joined the turn (`injected`), or, when no turn was running, whether a new turn was started
 * with it (`startedNewTurn`) or the client keeps it (`promptRequired`, when it asked so).
 */
export const STEERING_METHOD = "_session/steering";

const SteeringParams = z.object({
  sessionId: z.string(),
  prompt: z.array(z.record(z.string(), z.unknown())).min(1),
  _meta: z
    .object({ steering: z.object({ idleBehavior: z.literal("promptRequired").optional() }).optional() })
    .passthrough()
    .nullish(),
});

interface TravelContext {
  manager: SessionManager;
  open(sessionId: string): Session;
  notFound(sessionId: string): RequestError;
  checkPaths(cwd: string, additional: string[] | undefined): void;
  attach(session: Session, client: AgentContext): void;
  setupResponse(session: Session): object;
  /** Tracks a prompt turn for shutdown, as `session/prompt` does. */
  track<T>(work: Promise<T>): Promise<T>;
}

/** Sessions that travel: fork, a title the user sets, archive, and a prompt steered into the running turn. */
export function withSessionTravel(app: AgentApp, ctx: TravelContext): AgentApp {
  const { manager } = ctx;
  const archive = (sessionId: string, archived: boolean) => {
    try {
      manager.archive(sessionId, archived);
    } catch (error) {
      if (error instanceof SessionNotFoundError) throw ctx.notFound(sessionId);
      throw error;
    }
    return {};
  };
  return app
    .onRequest(methods.agent.session.fork, ({ params, client }) => {
      ctx.checkPaths(params.cwd, params.additionalDirectories ?? undefined);
      let session: Session;
      try {
        session = manager.fork(params.sessionId, {
          cwd: params.cwd,
          ...(params.additionalDirectories ? { additionalDirectories: params.additionalDirectories } : {}),
          ...(params.mcpServers ? { mcpServers: params.mcpServers } : {}),
        });
      } catch (error) {
        if (error instanceof SessionNotFoundError) throw ctx.notFound(params.sessionId);
        throw error;
      }
      ctx.attach(session, client);
      return { sessionId: session.id, ...ctx.setupResponse(session) };
    })
    .onRequest(methods.agent.session.setTitle, ({ params }) => {
      let problem: string | undefined;
      try {
        problem = manager.rename(params.sessionId, params.title);
      } catch (error) {
        if (error instanceof SessionNotFoundError) throw ctx.notFound(params.sessionId);
        throw error;
      }
      if (problem) throw RequestError.invalidParams({ title: params.title }, problem);
      return { title: manager.title(params.sessionId) ?? "" };
    })
    .onRequest(methods.agent.session.archive, ({ params }) => archive(params.sessionId, true))
    .onRequest(methods.agent.session.unarchive, ({ params }) => archive(params.sessionId, false))
    .onRequest(STEERING_METHOD, SteeringParams, ({ params }) => {
      const session = ctx.open(params.sessionId);
      const prompt = params.prompt as Parameters<Session["steer"]>[0];
      if (session.steer(prompt)) return { outcome: "injected" };
      if (params._meta?.steering?.idleBehavior === "promptRequired")
        return { outcome: "promptRequired", reason: "noRunningTurn" };
      void ctx.track(session.prompt(prompt)).catch(() => undefined);
      return { outcome: "startedNewTurn" };
    });
}
