import type { Skill } from "../context/skills/parse-skill.js";
import { pinnedText } from "../harnesses/harness-list.js";
import type { Session } from "./session.js";
import { formatCost, lastUsage, usageTotals } from "./usage-totals.js";

/** The answers of the built-in slash commands that report on the session, worded for the user. */

export function harnessList(session: Session): string {
  const options = session.options();
  const lines = options.harnesses.map(
    (h) => `- \`${h.id}\`${h.id === options.harness ? " (active)" : ""}: ${h.description}; ${h.pinned}`,
  );
  return `Harnesses:\n${lines.join("\n")}\n\nSwitch with \`/harness <id>\`.`;
}

export function modelList(session: Session): string {
  const { models, model: current } = session.options();
  return `Models:\n${models.map((m) => `- \`${m}\`${m === current ? " (active)" : ""}`).join("\n")}\n\nSwitch with \`/model <id>\`.`;
}

export function skillList(skills: Skill[]): string {
  if (skills.length === 0)
    return "No skills found. Add one as `.agents/skills/<name>/SKILL.md` in the project or `~/.agents/skills`.";
  return `Skills (use \`/<name>\` or just ask):\n${skills.map((s) => `- \`${s.name}\`: ${s.description} (${s.path})`).join("\n")}`;
}

export function mcpText(session: Session): string {
  const { servers, problems } = session.mcp.status();
  if (servers.length === 0 && problems.length === 0) {
    return "No MCP servers. Add them under [mcp_servers.<name>] in config.toml, or in your editor's settings.";
  }
  const lines = servers.map((s) => {
    const detail =
      s.state === "ready" ? `${s.tools} tools` : s.state === "failed" ? `failed: ${s.error}` : s.state;
    return `- \`${s.name}\` (${s.transport}, from ${s.source}): ${detail}`;
  });
  return [`MCP servers:`, ...lines, ...problems.map((p) => `- not used: ${p}`)].join("\n");
}

export function usageText(session: Session): string {
  const t = usageTotals(session.committed.history);
  if (t.requests === 0) return "No model requests yet in this session.";
  const share = t.inputTokens > 0 ? Math.round((100 * t.cachedInputTokens) / t.inputTokens) : 0;
  const estimated =
    t.estimated > 0
      ? ` (${t.estimated} estimated: the endpoint reported no usage, counted as bytes / 4)`
      : "";
  const cost =
    t.priced === 0
      ? `unknown (set [model_prices."${session.model}"] with input, cached_input and output per million tokens in config.toml)`
      : `${formatCost(t.cost)} ${t.currency ?? ""}${t.priced < t.requests ? ` for ${t.priced} of ${t.requests} requests` : ""}`;
  const part = (label: string, c: typeof t.compaction) =>
    c.requests === 0
      ? []
      : [
          `Of which ${label}: ${c.requests} ${c.requests === 1 ? "request" : "requests"}, ${c.inputTokens + c.outputTokens} tokens (input ${c.inputTokens}, output ${c.outputTokens})${t.priced > 0 ? `, ${formatCost(c.cost)} ${t.currency ?? ""}`.trimEnd() : ""}`,
        ];
  return [
    `Model requests: ${t.requests}${estimated}`,
    `Input tokens: ${t.inputTokens} (cached: ${t.cachedInputTokens}, ${share}%${t.cacheWriteTokens > 0 ? `; written to the cache: ${t.cacheWriteTokens}` : ""})`,
    `Output tokens: ${t.outputTokens} (reasoning: ${t.reasoningTokens})`,
    `Cost: ${cost.trimEnd()}`,
    ...part("compaction", t.compaction),
    ...part("tools' side requests", t.tools),
    `Time waiting for the model: ${(t.latencyMs / 1000).toFixed(1)} s`,
  ].join("\n");
}

export async function statusText(session: Session, endpoint: string): Promise<string> {
  const choice = session.harnessChoice();
  const usage = lastUsage(session.committed.history);
  const context = usage ? `${usage.contextUsed} / ${usage.contextSize} tokens` : "no model response yet";
  return [
    `Session: ${session.id}`,
    `Directory: ${session.record.cwd}`,
    `Model: ${session.model || "(none configured)"} at ${endpoint}`,
    `Harness: ${choice.harness.id}, ${pinnedText(choice.harness)} (${choice.reason})`,
    `Mode: ${session.mode}`,
    `Sandbox: ${await session.sandboxSummary()}`,
    `MCP servers: ${mcpSummary(session)}`,
    `Context: ${context}`,
    `Background commands: ${backgroundSummary(session)}`,
  ].join("\n");
}

/** Each command the session keeps, running or ended: its id, state, age and command line. */
function backgroundSummary(session: Session): string {
  const processes = session.background.list();
  if (processes.length === 0) return "none";
  const now = Date.now();
  const lines = processes.map((p) => {
    const seconds = Math.round(((p.endedAt ?? now) - p.startedAt) / 1000);
    const state =
      p.status === "running"
        ? `running for ${seconds} s`
        : `${p.status.replace("_", " ")} after ${seconds} s`;
    const command = p.command.replace(/\s+/g, " ").trim();
    const shown = command.length > 80 ? `${command.slice(0, 77)}...` : command;
    return `- \`${p.id}\`${p.pid !== undefined ? ` (pid ${p.pid})` : ""}: ${state}: \`${shown}\``;
  });
  return `${processes.filter((p) => p.status === "running").length} running\n${lines.join("\n")}`;
}

function mcpSummary(session: Session): string {
  const { servers } = session.mcp.status();
  if (servers.length === 0) return "none";
  return servers.map((s) => `${s.name} (${s.state === "ready" ? `${s.tools} tools` : s.state})`).join(", ");
}
