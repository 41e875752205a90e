/**
 * Background commands and the daemon's end: the real daemon runs as a subprocess with one session
 * per harness that has background commands (and one with Terminus 2's terminal), each of which
 * leaves a command running in the background; however the daemon ends (the editor closes its
 * stdin, SIGTERM, SIGKILL), none of those commands survives it.
 */
import { methods } from "@agentclientprotocol/sdk/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { liveProcesses, processMarker } from "../support/background-kit.js";
import { type FakeModel, type FakeToolCall, startFakeModel } from "../support/fake-model.js";
import { until } from "../support/in-process.js";
import { startWireAgent, type WireAgent } from "./support/fault-wire.js";

let model: FakeModel;
let daemon: WireAgent | undefined;

afterEach(async () => {
  if (daemon?.process.child.exitCode === null) daemon.process.child.kill("SIGKILL");
  daemon = undefined;
  await model?.close();
});

/** Each harness's own call that starts `command` in the background. */
const STARTS: Record<string, (command: string) => FakeToolCall> = {
  "claude-code": (command) => ({
    name: "Bash",
    arguments: { command, description: "Long job", run_in_background: true },
  }),
  "kimi-code": (command) => ({
    name: "Bash",
    arguments: { command, description: "long job", run_in_background: true },
  }),
  "gemini-cli": (command) => ({ name: "run_shell_command", arguments: { command, is_background: true } }),
  "qwen-code": (command) => ({ name: "run_shell_command", arguments: { command, is_background: true } }),
};

/** A daemon with one session per harness, each with a command left running under `marker`. */
async function daemonWithBackground(marker: string): Promise<WireAgent> {
  model = await startFakeModel();
  const agent = await startWireAgent({ model, configToml: 'mode = "full-access"\n' });
  for (const [harness, start] of Object.entries(STARTS)) {
    const { sessionId } = await agent.newSession();
    const prompt = (text: string) =>
      agent.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
    await prompt(`/harness ${harness}`);
    model.reply({ toolCalls: [start(`exec -a ${marker} sleep 120`)] }, { text: "Started." });
    expect((await prompt("Start the long job.")).stopReason).toBe("end_turn");
  }
  // Terminus 2: a job left running in its terminal, the tmux server and the pane's shell around it.
  const { sessionId } = await agent.newSession();
  const prompt = (text: string) =>
    agent.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
  await prompt("/harness terminus-2");
  const batch = (keystrokes: string[], done: boolean) =>
    JSON.stringify({
      analysis: "",
      plan: "",
      commands: keystrokes.map((k) => ({ keystrokes: k, duration: 0.3 })),
      task_complete: done,
    });
  model.reply(
    { text: batch([`bash -c 'exec -a ${marker} sleep 120' &\n`], false) },
    { text: batch([], true) },
    { text: batch([], true) },
  );
  expect((await prompt("Start the long job.")).stopReason).toBe("end_turn");
  model.assertDone();
  await until(() => liveProcesses(marker).length >= Object.keys(STARTS).length + 1, 10_000);
  return agent;
}

describe("background commands when the daemon ends", () => {
  it("the editor closes stdin: every session closes and its commands are killed before the daemon exits", async () => {
    const marker = processMarker();
    daemon = await daemonWithBackground(marker);
    expect(await daemon.close()).toEqual({ code: 0, signal: null });
    expect(liveProcesses(marker)).toEqual([]);
  });

  it("SIGTERM: the same orderly end", async () => {
    const marker = processMarker();
    daemon = await daemonWithBackground(marker);
    daemon.process.child.kill("SIGTERM");
    expect(await daemon.process.exited).toEqual({ code: 0, signal: null });
    expect(liveProcesses(marker)).toEqual([]);
  });

  it("SIGKILL: the spawn helper sees the daemon gone and kills what it started", async () => {
    const marker = processMarker();
    daemon = await daemonWithBackground(marker);
    daemon.process.child.kill("SIGKILL");
    await daemon.process.exited;
    await until(() => liveProcesses(marker).length === 0, 5_000);
  });
});
