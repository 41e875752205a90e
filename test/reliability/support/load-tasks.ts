/**
 * Scripted tasks for the reliability suite, in Codex tool terms (`-m mock-model` picks the
 * Codex harness, where a model outside Codex's catalog runs commands with `exec_command` and
 * patches through it as `apply_patch` heredocs). Every call id, file name and line of text
 * carries the task's marker, so a test can tell whose content an update or a file holds.
 */
import type { ReplyStep } from "../../support/fake-model.js";
import type { TaskScript } from "./load-routed-model.js";

/** The prompt text that routes a conversation to `marker`'s script. */
export const promptFor = (marker: string): string => `[task:${marker}] Please do the scripted task.`;

const addFile = (file: string, lines: string[]): string =>
  ["*** Begin Patch", `*** Add File: ${file}`, ...lines.map((l) => `+${l}`), "*** End Patch"].join("\n");

const updateFile = (file: string, from: string, to: string): string =>
  ["*** Begin Patch", `*** Update File: ${file}`, "@@", `-${from}`, `+${to}`, "*** End Patch"].join("\n");

/** `exec_command` arguments running `cmd`. */
const exec = (cmd: string) => ({ cmd });

/** `exec_command` arguments applying `patch` through the shell, as Codex's models do. */
const patchCommand = (patch: string) => exec(`apply_patch <<'EOF'\n${patch}\nEOF`);

/**
 * A multi-step task: reasoning and text streamed in small chunks, a look around, file writes
 * (add, then update), two shell commands in one response (one writes a file, one pauses),
 * a check of the result and a closing message. Six model requests, six tool calls. (Codex has
 * no plan tool, so no plan updates.)
 */
export function crashTask(marker: string, step: number): ReplyStep | undefined {
  const id = (n: number) => `${marker}-c${n}`;
  const steps: ReplyStep[] = [
    {
      reasoning: `Plan for ${marker}: write notes, run two commands, update the notes.`,
      text: `Starting ${marker}. I will write a notes file, run a couple of commands and report back.`,
      toolCalls: [
        { id: id(1), name: "exec_command", arguments: exec(`echo looking around for ${marker}; ls -a`) },
      ],
    },
    {
      text: `Writing notes-${marker}.md now.`,
      toolCalls: [
        {
          id: id(2),
          name: "exec_command",
          arguments: patchCommand(addFile(`notes-${marker}.md`, [`v1 ${marker}`])),
        },
      ],
    },
    {
      text: "Running the commands.",
      toolCalls: [
        { id: id(3), name: "exec_command", arguments: exec(`echo ${marker} > out-${marker}.txt`) },
        { id: id(4), name: "exec_command", arguments: exec(`sleep 0.2; cat out-${marker}.txt`) },
      ],
    },
    {
      text: "Updating the notes with the result.",
      toolCalls: [
        {
          id: id(5),
          name: "exec_command",
          arguments: patchCommand(updateFile(`notes-${marker}.md`, `v1 ${marker}`, `v2 ${marker}`)),
        },
      ],
    },
    {
      toolCalls: [
        { id: id(6), name: "exec_command", arguments: exec(`cat notes-${marker}.md out-${marker}.txt`) },
      ],
    },
    { text: `Done with ${marker}: notes-${marker}.md holds v2 and out-${marker}.txt the marker.` },
  ];
  return steps[step];
}

/** Ten tool calls, one per response: seven file writes and three shell commands, then a summary. */
export const LOAD_CALLS = 10;
const LOAD_SHELL_STEPS = new Set([3, 6, 9]);

export function loadTask(marker: string, step: number): ReplyStep | undefined {
  if (step === LOAD_CALLS) return { text: `All ${LOAD_CALLS} steps of ${marker} are done.` };
  if (step > LOAD_CALLS) return undefined;
  const id = `${marker}-c${step}`;
  const text = `Step ${step} of ${marker}.`;
  if (LOAD_SHELL_STEPS.has(step)) {
    return {
      text,
      toolCalls: [{ id, name: "exec_command", arguments: exec(`echo ${marker}-${step} >> log.txt`) }],
    };
  }
  return {
    text,
    toolCalls: [
      { id, name: "exec_command", arguments: patchCommand(addFile(`f${step}.txt`, [`${marker} ${step}`])) },
    ],
  };
}

/** What `loadTask` leaves in a workspace: file name → content. */
export function loadWorkspace(marker: string): Map<string, string> {
  const files = new Map<string, string>();
  const log: string[] = [];
  for (let step = 0; step < LOAD_CALLS; step++) {
    if (LOAD_SHELL_STEPS.has(step)) log.push(`${marker}-${step}\n`);
    else files.set(`f${step}.txt`, `${marker} ${step}\n`);
  }
  files.set("log.txt", log.join(""));
  return files;
}

/** Routes `crash-*` markers to `crashTask` and `load-*` markers to `loadTask`. */
export const reliabilityScript: TaskScript = (marker, step) =>
  marker.startsWith("crash-") ? crashTask(marker, step) : loadTask(marker, step);
