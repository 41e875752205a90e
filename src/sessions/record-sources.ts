import { loadAgentsMd } from "../context/agents-md.js";
import { findProjectRoot } from "../context/project-root.js";
import { loadSkills, type SkillCatalog } from "../context/skills/load-skills.js";
import { skillRoots } from "../context/skills/skill-roots.js";
import type { SessionRecord } from "../store/types.js";
import { projectTrust } from "./project-trust.js";
import type { SessionManagerDeps } from "./session-manager.js";
import { type SessionMcp, sessionMcp } from "./session-mcp.js";

/** What a session record's sources are read with: the manager's deps and git's ceilings. */
interface Sources {
  deps: SessionManagerDeps;
  /** Where walks up for the repository stop. */
  ceilings: string[];
  record: SessionRecord;
}

/** MCP servers from config (and a trusted project) and from the editor, started in the background. */
export function recordMcp({ deps, ceilings, record }: Sources): SessionMcp {
  const trust = projectTrust(deps.store, findProjectRoot(record.cwd, { ceilings }));
  const projectServers = trust.decision === "allow" ? (trust.config?.mcpServers ?? {}) : {};
  return sessionMcp({
    config: { ...deps.config.mcpServers, ...projectServers },
    acp: record.mcpServers,
    env: deps.env,
    logger: deps.logger.child({ sessionId: record.id }),
    cwd: record.cwd,
    clientVersion: deps.version,
  });
}

/** The session's skills catalog; a failed discovery is logged and leaves it empty. */
export function recordSkills({ deps, ceilings, record }: Sources): Promise<SkillCatalog> {
  const roots = skillRoots({
    cwd: record.cwd,
    projectRoot: findProjectRoot(record.cwd, { ceilings }),
    additionalDirectories: record.additionalDirectories,
    userHome: deps.userHome,
    interpreterHome: deps.config.home,
  });
  return loadSkills(roots).catch((error: unknown) => {
    deps.logger.warn({ err: String(error) }, "skill discovery failed");
    return { skills: [], notices: [] };
  });
}

/** The session's AGENTS.md text; a failed discovery is logged and leaves it empty. */
export function recordInstructions({ deps, ceilings, record }: Sources): Promise<string> {
  const { cwd, additionalDirectories } = record;
  return loadAgentsMd({ cwd, additionalDirectories, home: deps.config.home, ceilings }).then(
    (loaded) => loaded.text,
    (error: unknown) => {
      deps.logger.warn({ err: String(error) }, "AGENTS.md discovery failed");
      return "";
    },
  );
}
