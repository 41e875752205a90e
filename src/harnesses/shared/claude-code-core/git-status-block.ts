import type { GitSnapshot } from "../../../context/git-snapshot.js";

/**
 * The `gitStatus:` snapshot that closes Claude Code 2.1.44's system prompt in a repository: its
 * labels (current branch, main branch, status, recent commits) and our sentences. Taken once at
 * session start, so the cached prefix stays the same for the whole session. "" outside a
 * repository.
 */
export function gitStatusBlock(git: GitSnapshot | undefined): string {
  if (!git) return "";
  return [
    "gitStatus: The state of the repository when this conversation began. It is a snapshot and does not follow later changes.",
    `Current branch: ${git.branch}`,
    "",
    `Main branch (the usual target for pull requests): ${git.mainBranch}`,
    "",
    "Status:",
    git.status || "(clean)",
    "",
    "Recent commits:",
    git.recentCommits,
  ].join("\n");
}

/** The system prompt's parts joined as Claude Code joins them, skipping empty ones. */
export function joinSections(...sections: string[]): string {
  return sections
    .map((section) => section.trimEnd())
    .filter(Boolean)
    .join("\n\n");
}
