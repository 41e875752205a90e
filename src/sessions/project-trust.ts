import { PROJECT_CONFIG, type ProjectConfig, readProjectConfig } from "../config/project-config.js";
import type { Mode } from "../config/types.js";
import type { Store } from "../store/types.js";
import type { McpServerSpec } from "../tools/mcp/mcp-server-spec.js";
import { parseMcpServers } from "../tools/mcp/mcp-server-spec.js";
import type { ClientPort, SessionOutput } from "./types.js";

/** What a project's config changes: a session, seen only through what it may set. */
export interface ProjectTarget {
  setModel(model: string): void;
  /** False when no harness has that id. */
  setHarness(id: string, source: string): string | undefined;
  setMode(mode: Mode): void;
  options(): { harnesses: ReadonlyArray<{ id: string }> };
  readonly mcp: { add(servers: McpServerSpec[]): void };
}

export interface TrustQuestion {
  trust: ProjectTrust;
  apply(): void;
}

/** The rule key under which a project's trust decision is stored (scope: that project). */
export const TRUST_KEY = "trust:project-config";

export interface ProjectTrust {
  root: string;
  /** The repository's `.openinterpreter/config.toml`, when it has a valid one. */
  config?: ProjectConfig;
  /** Why the file could not be used (malformed), for a notice. */
  error?: string;
  /** The stored decision; undefined when the user was never asked. */
  decision?: "allow" | "deny";
}

/**
 * Project-level config is code: it may pick the mode and start MCP servers. It is read, but
 * applied only for projects the user trusted (`interpreter trust`, `/trust`, or a yes to the
 * question asked at a session's first prompt).
 */
export function projectTrust(store: Store, root: string): ProjectTrust {
  const decision = store.rules(root).find((r) => r.key === TRUST_KEY)?.decision;
  try {
    return { root, config: readProjectConfig(root), decision };
  } catch (error) {
    return { root, error: error instanceof Error ? error.message : String(error), decision };
  }
}

export function setProjectTrust(store: Store, root: string, trusted: boolean): void {
  store.setRule({ project: root, key: TRUST_KEY, decision: trusted ? "allow" : "deny" });
}

/** What the user is told about an untrusted project config. */
export function untrustedNotice(trust: ProjectTrust): string {
  return `This project has ${PROJECT_CONFIG}; it is not used until you trust the project (answer the question at your first prompt, type /trust, or run \`interpreter trust ${trust.root}\`).`;
}

/** Applies a trusted project's config to a session; returns what it could not apply. */
export function applyProjectConfig(session: ProjectTarget, config: ProjectConfig): ProjectProblems {
  if (config.model) session.setModel(config.model);
  let harness: string | undefined;
  if (config.harness) harness = session.setHarness(config.harness, `${config.file}: harness`);
  if (config.mode) session.setMode(config.mode);
  const { servers, problems } = parseMcpServers({ config: config.mcpServers, acp: [] });
  session.mcp.add(servers);
  return { mcp: problems, ...(harness ? { harness } : {}) };
}

/** What a trusted project's config asked for that could not be done. */
export interface ProjectProblems {
  /** MCP entries that could not be used. */
  mcp: string[];
  /** An unknown harness id, worded for the user (the session keeps choosing by model). */
  harness?: string;
}

/** `/trust` and `interpreter trust`: remember the decision, apply the config when a session is given. */
export function trustProject(options: { store: Store; root: string; session?: ProjectTarget }): string {
  const trust = projectTrust(options.store, options.root);
  setProjectTrust(options.store, trust.root, true);
  if (trust.error) return `Trusted ${trust.root}, but its config cannot be used: ${trust.error}`;
  if (!trust.config) return `Trusted ${trust.root} (it has no ${PROJECT_CONFIG} yet).`;
  const problem = options.session ? applyProjectConfig(options.session, trust.config).harness : undefined;
  return `Trusted ${trust.root}; its ${PROJECT_CONFIG} applies${options.session ? " to this session now" : " to new sessions"}.${problem ? ` ${problem}` : ""}`;
}

/**
 * The project-trust question of one session: asked once, at its first prompt that has an
 * editor to answer, unless `/trust` answered it first.
 */
export class TrustPrompt {
  private question: TrustQuestion | undefined;

  constructor(private readonly o: { store: Store; root: string; session: ProjectTarget }) {}

  ask(question: TrustQuestion): void {
    this.question = question;
  }

  /** `/trust`: trusts the project and applies its config to the session now. */
  trustNow(): string {
    this.question = undefined;
    return trustProject(this.o);
  }

  /** Asks the pending question, if there is one and an editor to answer it. */
  async settle(options: {
    client: ClientPort | undefined;
    callId: string;
    signal: AbortSignal;
    send(output: SessionOutput): void;
  }): Promise<void> {
    const { question } = this;
    const { client, ...rest } = options;
    if (!question || !client) return;
    this.question = undefined;
    await askProjectTrust({ question, client, store: this.o.store, ...rest });
  }
}

/** Asks the editor whether to use the project's config, shown as a pending call while open. */
export async function askProjectTrust(options: {
  question: TrustQuestion;
  client: ClientPort;
  store: Store;
  callId: string;
  signal: AbortSignal;
  send(output: SessionOutput): void;
}): Promise<void> {
  const { question, callId, send } = options;
  const file = question.trust.config?.file ?? question.trust.root;
  const title = `Use this project's ${PROJECT_CONFIG}?`;
  send({ type: "question", callId, title, status: "pending" });
  const answer = await options.client.askPermission(
    {
      callId,
      title,
      kind: "other",
      locations: [{ path: file }],
      display: [
        {
          type: "text",
          text: "It can set the model, the harness, the permission mode and start MCP servers (programs) for this project.",
        },
      ],
      input: { file },
      alwaysLabel: "Always trust this project",
    },
    options.signal,
  );
  const trusted = answer === "allow_once" || answer === "allow_always";
  if (answer === "allow_always" || answer === "reject_always") {
    setProjectTrust(options.store, question.trust.root, answer === "allow_always");
  }
  if (trusted) question.apply();
  send({ type: "question", callId, title, status: trusted ? "completed" : "failed" });
}
