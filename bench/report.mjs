// The Markdown table for bench/results/latest.md (and docs/performance.md).
export function markdownReport(r) {
  const m = r.medians;
  const lines = [
    `Measured ${r.date.slice(0, 10)} on ${r.cpus} × ${r.cpuModel ?? "CPU"}, node ${r.node}, medians of ${r.runs} runs (scripted model at zero latency).`,
    "",
    "| measure | ours | reference |",
    "| --- | --- | --- |",
    `| spawn → \`initialize\` answered (V8 snapshot launcher) | ${m.spawnToInitializeMs} ms (${m.initializeRatioToNode} × node) | \`node -e 0\`: ${m.nodeBaselineMs} ms; bare SDK agent: ${m.bareSdkAgentInitializeMs} ms, from a start-up snapshot: ${m.bareSdkAgentSnapshotInitializeMs} ms (${m.bareSnapshotRatioToNode} × node) |`,
    `| the same from the plain entry point | ${m.spawnToInitializePlainEntryMs} ms | |`,
    `| \`session/new\` | ${m.sessionNewMs} ms | bare SDK agent: ${m.bareSdkAgentSessionNewMs} ms |`,
    `| idle RSS after \`session/new\` | ${m.idleRssMb} MB | |`,
    `| prompt with 10 sequential shell calls, unconfined | ${m.tenToolCallsPromptMs} ms | the 10 commands run directly: ${m.tenCommandsDirectMs} ms |`,
    `| the same, every command in bubblewrap | ${m.tenToolCallsSandboxedPromptMs} ms (second prompt: ${m.tenToolCallsSandboxedWarmPromptMs} ms) | |`,
    `| the same, commands forked by a confined helper per sandbox | ${m.tenToolCallsSandboxedHelperPromptMs} ms (second prompt: ${m.tenToolCallsSandboxedHelperWarmPromptMs} ms) | the bare agent, unsandboxed (bench/bare-tool-agent.mjs): ${m.tenToolCallsBareAgentPromptMs} ms (second prompt: ${m.tenToolCallsBareAgentWarmPromptMs} ms) |`,
    `| sandboxed overhead per tool call, steady state, model answering after ${m.pacedModelMs} ms: bubblewrap per command / confined helper | ${m.pacedSandboxedWarmOverheadPerCallMs} ms / ${m.pacedSandboxedHelperWarmOverheadPerCallMs} ms | |`,
    `| daemon overhead per tool call: first prompt / steady state | ${m.overheadPerCallMs} ms / ${m.warmOverheadPerCallMs} ms | |`,
    `| the same with the model answering after ${m.pacedModelMs} ms (its wait not counted) | ${m.pacedOverheadPerCallMs} ms / ${m.pacedWarmOverheadPerCallMs} ms | |`,
    `| the daemon's own CPU per tool call, steady state | ${m.daemonCpuPerCallMs} ms | |`,
    `| peak PSS of the process tree during the task | ${m.peakTreePssMb} MB (sandboxed: ${m.peakTreePssSandboxedMb} MB) | |`,
    `| \`session/load\` of 10,000 events | ${m.sessionLoad10kEventsMs} ms (${r.sessionLoadUpdates} updates, the first after ${m.sessionLoadFirstUpdateMs} ms; the daemon's CPU: ${m.sessionLoadDaemonCpuMs} ms) | the SDK client's CPU validating them: ${m.sessionLoadClientCpuMs} ms |`,
    "",
    "Concurrent sessions in one daemon, each running the ten-call task:",
    "",
    "| sessions | wall | tool calls / s | daemon CPU (cores) | peak RSS |",
    "| --- | --- | --- | --- | --- |",
    ...r.concurrency.map(
      (c) =>
        `| ${c.sessions} | ${c.wallMs} ms | ${c.callsPerSecond} | ${c.daemonCpuShare} | ${c.peakRssMb} MB |`,
    ),
  ];
  if (r.peers) {
    lines.push(
      "",
      "Peers, same run, same scripted task (codex-acp speaks only the Responses API, so it gets the same script from bench/responses-model.mjs):",
      "",
      "| agent | spawn → initialize | session/new | 10 sequential shell calls | peak PSS of the tree |",
      "| --- | --- | --- | --- | --- |",
      ...r.peers.map((p) =>
        p.error
          ? `| ${p.name} | not measured: ${p.error} | | | |`
          : `| ${p.name} | ${p.initMs} ms | ${p.newMs} ms | ${p.tenCallsMs ?? "–"} ms | ${p.pssMb ?? "–"} MB |`,
      ),
    );
  }
  return `${lines.join("\n")}\n`;
}
