import type { HistoryEvent, HistoryEventOf } from "../store/events.js";
import type { BackgroundProcess } from "../tools/exec/background-processes.js";

/**
 * Puts the end of each background command in the history at the place the model can first have
 * heard of it: at once while no turn runs, else just before the turn's next model request (or at
 * the turn's end), so a request never shows an end before what the model had already seen.
 * Harnesses render the event where their original tells the model (docs/tools.md).
 */
export class BackgroundNotices {
  #pending: BackgroundProcess[] = [];

  constructor(
    private readonly o: {
      commit(events: HistoryEvent[]): void;
      /** Whether a turn is running now. */
      busy(): boolean;
    },
  ) {}

  /** A process the model is to be told about has ended. */
  ended(process: BackgroundProcess): void {
    if (this.o.busy()) this.#pending.push(process);
    else this.o.commit([backgroundEnded(process)]);
  }

  /** Commits the ends that came while the turn ran, less those a tool reported itself meanwhile. */
  flush(): void {
    const ready = this.#pending.filter((process) => process.notify);
    this.#pending = [];
    this.o.commit(ready.map(backgroundEnded));
  }
}

export function backgroundEnded(process: BackgroundProcess): HistoryEventOf<"background_ended"> {
  const { exit } = process;
  const status = process.status === "running" ? "killed" : process.status;
  return {
    type: "background_ended",
    id: process.id,
    harness: process.owner ?? "",
    command: process.command,
    ...(process.description !== undefined ? { description: process.description } : {}),
    cwd: process.cwd,
    status,
    exitCode: exit?.exitCode ?? null,
    ...(exit?.signal ? { signal: exit.signal } : {}),
    ...(process.pid !== undefined ? { pid: process.pid } : {}),
    ...(process.outputFile !== undefined ? { outputFile: process.outputFile } : {}),
    outputBytes: process.outputBytes,
    outputTail: process.tail(),
    durationMs: (process.endedAt ?? Date.now()) - process.startedAt,
  };
}
