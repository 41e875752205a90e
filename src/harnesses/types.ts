import type { Mode } from "../config/types.js";
import type { GitSnapshot } from "../context/git-snapshot.js";
import type { ModelRequest, Wire } from "../providers/model-request.js";
import type { HistoryEvent } from "../store/events.js";
import type { Tool } from "../tools/types.js";

/** What a harness knows about the session when it builds tools and renders a request. */
export interface HarnessContext {
  sessionId: string;
  cwd: string;
  roots: string[];
  model: string;
  /** The wire the session's endpoint speaks, for layouts an original varies by wire. */
  wire: Wire;
  /**
   * Whether the model accepts images (config `model_supports_images`): image tools answer a
   * model that does not with their original's text for it, and the session sends it no image.
   */
  images: boolean;
  mode: Mode;
  /** The user's shell name for environment blocks (e.g. `bash`). */
  shell: string;
  /** AGENTS.md text found for the session (global file, then root to leaf); "" when none. */
  instructions: string;
  /** Fixed at session start so the rendered prefix stays byte-identical across requests. */
  currentDate: string;
  timezone: string;
  /** A per-session folder for spilled outputs (created on first use by whoever writes to it). */
  scratchDir: string;
  /** Operating system name for environment blocks (e.g. `linux`). */
  platform: string;
  /** Whether `cwd` is inside a git repository. */
  isGitRepo: boolean;
  /** Branch, status and recent commits at session start; absent outside a repository. */
  git?: GitSnapshot;
  /** Whether commands run confined by the OS sandbox in the current mode. */
  sandboxed: boolean;
  /** The Agent Skills catalog: one entry per name; the model reads SKILL.md itself. */
  skills: Array<{ name: string; description: string; path: string }>;
  /**
   * Set when the session is a subagent's: `open` gives the original's subagent of this type (its
   * system prompt and tool subset) instead of the main agent. The type was checked by the
   * harness's own subagent tool.
   */
  subagent?: { type: string };
}

/** A text-protocol harness turns the model's plain answer into tool calls itself. */
export interface ParsedReply {
  calls: Array<{ id: string; name: string; arguments: string }>;
  /** Set when the reply broke the protocol: the correction the model is sent instead of running anything. */
  formatError?: string;
}

/** One named version of an original agent, as its package registry serves it. */
export interface PinnedOriginal {
  /** What users call it, e.g. `Codex CLI`. */
  name: string;
  /** Where it is published, e.g. `npm:@openai/codex`. */
  source: string;
  version: string;
}

/** What listing and choosing a harness need: small, so it can be known before the harness loads. */
export interface HarnessInfo {
  id: string;
  title: string;
  description: string;
  /** True when this harness is the natural choice for the model (automatic choice). */
  matches(model: string): boolean;
  /** The wires its original speaks and it renders for (the routing table; `chat` for all but an original that speaks only Messages). */
  wires: readonly Wire[];
  /** The original this harness is pinned to: its structure is held to a capture of that version. */
  original?: PinnedOriginal;
}

/**
 * A harness as the daemon lists it. `load()` evaluates its tools, schemas and prompts on first
 * use (a dynamic import; later calls get the same object), so a daemon holds only the harnesses
 * its sessions use (what the others would cost: docs/performance.md).
 */
export interface HarnessEntry extends HarnessInfo {
  load(): Promise<Harness>;
}

/**
 * A harness is data plus small pure functions: no loop of its own. The session runs the loop;
 * it opens the harness once per (session, harness, model) and drops what it opened when either
 * the harness or the model changes, so state a harness keeps for a session dies with it.
 */
export interface Harness extends HarnessInfo {
  /** The harness for one session and model: its tool surface and per-session state (chosen here per model family). */
  open(ctx: HarnessContext): HarnessSession;
  /**
   * Only for text-protocol harnesses (models without native tool calls): reads the calls out
   * of the reply text, a pure function of it. When present, `render` sends no `tools` and
   * shows results as text.
   */
  parse?(
    text: string,
    options: {
      step: number;
      newId(): string;
      /** The history before this reply, for protocols whose reading depends on the step before. */
      history?: readonly HistoryEvent[];
    },
  ): ParsedReply;
  /** How the harness's original shows errors that happen before a tool runs (default: plain). */
  toolError?(text: string): string;
  /** When and how its original compacts a long conversation (default: Codex's rule and prompt). */
  compaction?: CompactionRule;
  /** How its original keeps tool output out of the context beyond its own tools' caps. */
  output?: OutputPolicy;
}

/** A harness opened for one session and model. */
export interface HarnessSession {
  /** The exact tool surface of the original for this model. */
  readonly tools: Tool[];
  /**
   * System prompt, injected context and the history in this harness's layout. `tools` are
   * this session's plus the MCP tools; `ctx` is the session's context now (the mode may change).
   */
  render(options: { history: HistoryEvent[]; tools: Tool[]; ctx: HarnessContext }): ModelRequest;
}

/** Applied by the session to every tool result before it enters the history (output-economy.ts). */
export interface OutputPolicy {
  /**
   * Results of tools this harness did not build (MCP) above this many characters are saved to
   * the scratch folder and replaced by a head/tail preview (default 50 000, Kimi Code's cap).
   */
  foreignMaxChars?: number;
  /**
   * Replaces the output of a read that returns exactly what the same read returned last, while
   * that result is still in the context (Claude Code's `file_unchanged` stub).
   */
  unchangedRead?: string;
}

/**
 * A harness's auto-compaction rule, as data. The session compacts before a request whose
 * estimated size reaches `ratio × window` or leaves fewer than `reserve` tokens free (the
 * reserve is capped at half the window, so small windows do not compact on every request).
 */
export interface CompactionRule {
  ratio?: number;
  reserve?: number;
  /** The summary request's instruction, in the style of the harness's original. */
  prompt?: string;
  /** Put before the summary where it replaces the history. */
  summaryPrefix?: string;
}
