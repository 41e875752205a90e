import type { Mode } from "../config/types.js";
import { holdsRepository } from "../context/project-root.js";
import type { HarnessContext } from "../harnesses/types.js";
import type { SessionRecord } from "../store/types.js";
import type { SessionDeps } from "./session-deps.js";

/** What a harness knows about a session when it builds tools and renders a request. */
export async function harnessContext(options: {
  record: SessionRecord;
  deps: Pick<SessionDeps, "context" | "workspace" | "endpoint" | "subagent">;
  /** Fixed at session start so the rendered prefix stays byte-identical across requests. */
  startedAt: Date;
}): Promise<HarnessContext> {
  const { record } = options;
  const { context, workspace } = options.deps;
  const mode = record.mode as Mode;
  const roots = [record.cwd, ...record.additionalDirectories];
  return {
    sessionId: record.id,
    cwd: record.cwd,
    roots,
    model: record.model ?? "",
    wire: options.deps.endpoint.wire,
    images: options.deps.endpoint.images,
    mode,
    shell: context.shell,
    instructions: await context.instructions,
    skills: (await context.skills).map(({ name, description, path }) => ({ name, description, path })),
    currentDate: localDate(options.startedAt),
    timezone: context.timezone,
    scratchDir: workspace.scratchDir,
    platform: process.platform,
    isGitRepo: holdsRepository(workspace.projectRoot),
    git: await context.git,
    sandboxed: await workspace.sandbox.confines({ mode, roots }),
    ...(options.deps.subagent ? { subagent: options.deps.subagent } : {}),
  };
}

/** YYYY-MM-DD in the user's own time zone. */
function localDate(date: Date): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}
