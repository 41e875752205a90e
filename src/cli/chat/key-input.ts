import readline from "node:readline";

export type LineResult =
  | { type: "line"; text: string }
  /** Ctrl-C at the prompt; `hadText` when it only discarded a half-typed line. */
  | { type: "interrupt"; hadText: boolean }
  | { type: "eof" };

export type KeyResult = { type: "key"; key: string } | { type: "interrupt" } | { type: "aborted" };

/** How the chat reads the user: whole lines at the prompt, single keys for questions. */
export interface TerminalInput {
  readLine(prompt: string): Promise<LineResult>;
  /**
   * One of `keys` (exact, so `n` and `N` differ); a key may also be a key's name longer than one
   * character (`up`, `down`, `return`). Ctrl-C and Esc answer `interrupt`.
   */
  readKey(keys: string[], signal: AbortSignal): Promise<KeyResult>;
  /** While a turn runs: Ctrl-C calls `onInterrupt` (Esc too, as `soft`). Returns the stop function. */
  watchInterrupts(onInterrupt: (soft: boolean) => void): () => void;
  /**
   * Writes output that arrives while the prompt may be showing (a notice after the session
   * started): above the prompt, which is drawn again with what was typed so far.
   */
  above(write: () => void): void;
  close(): void;
}

interface Key {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
  sequence?: string;
}
type KeyHandler = (text: string | undefined, key: Key) => void;

/**
 * Terminal input on a TTY: a fresh `node:readline` interface per prompt (line editing,
 * history, Tab completion), raw single keys in between, so keys typed while a turn runs are
 * never echoed into the transcript.
 */
export function createKeyInput(options: {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  completer: (line: string) => [string[], string];
}): TerminalInput {
  const { input, output } = options;
  let history: string[] = [];
  /** The interface of the prompt that is showing, if one is. */
  let reading: readline.Interface | undefined;
  // The newest handler gets the keys: a permission question inside a running turn wins.
  const handlers: KeyHandler[] = [];
  readline.emitKeypressEvents(input);
  // Keys that came in the same chunk as the key that answered a question (↓ ↓ Enter typed fast
  // or pasted): a question asked right after it, before the event loop moves on, gets them.
  let spill: Array<[string | undefined, Key]> | undefined;
  const keepSpill = () => {
    if (spill) return;
    spill = [];
    setImmediate(() => {
      spill = undefined;
    });
  };
  const onKeypress = (text: string | undefined, key: Key | undefined) => {
    const handler = handlers.at(-1);
    if (handler) handler(text, key ?? {});
    else spill?.push([text, key ?? {}]);
  };
  input.on("keypress", onKeypress);
  const onSignal = () => handlers.at(-1)?.(undefined, { name: "c", ctrl: true });
  process.on("SIGINT", onSignal);

  const push = (handler: KeyHandler) => {
    handlers.push(handler);
    input.setRawMode(true);
    input.resume();
    return () => {
      const index = handlers.lastIndexOf(handler);
      if (index >= 0) handlers.splice(index, 1);
      if (handlers.length === 0) {
        input.setRawMode(false);
        input.pause();
      }
    };
  };
  const isInterrupt = (key: Key) => key.ctrl === true && key.name === "c";

  return {
    readLine(prompt) {
      return new Promise((resolve) => {
        const rl = readline.createInterface({
          input,
          output,
          terminal: true,
          completer: options.completer,
          history,
          historySize: 500,
          removeHistoryDuplicates: true,
          prompt,
        });
        let done = false;
        reading = rl;
        const finish = (result: LineResult) => {
          if (done) return;
          done = true;
          if (reading === rl) reading = undefined;
          rl.close();
          resolve(result);
        };
        rl.on("history", (next: string[]) => {
          history = next;
        });
        rl.on("line", (text) => finish({ type: "line", text }));
        rl.on("SIGINT", () => {
          const hadText = rl.line.length > 0;
          output.write("^C\n");
          finish({ type: "interrupt", hadText });
        });
        // Ctrl-D on an empty line closes the interface.
        rl.on("close", () => {
          if (!done) output.write("\n");
          finish({ type: "eof" });
        });
        rl.prompt();
      });
    },
    above(write) {
      if (!reading) return write();
      output.write("\r\x1b[2K");
      write();
      reading.prompt(true);
    },
    readKey(keys, signal) {
      return new Promise((resolve) => {
        let pop: () => void = () => {};
        let done = false;
        const finish = (result: KeyResult) => {
          done = true;
          signal.removeEventListener("abort", onAbort);
          pop();
          if (result.type === "key") keepSpill();
          resolve(result);
        };
        const onAbort = () => finish({ type: "aborted" });
        if (signal.aborted) return resolve({ type: "aborted" });
        signal.addEventListener("abort", onAbort, { once: true });
        const handle: KeyHandler = (text, key) => {
          if (isInterrupt(key) || key.name === "escape") finish({ type: "interrupt" });
          else if (text !== undefined && keys.includes(text)) finish({ type: "key", key: text });
          else if (key.name && key.name.length > 1 && keys.includes(key.name))
            finish({ type: "key", key: key.name });
        };
        pop = push(handle);
        const queued = spill?.splice(0) ?? [];
        for (const [i, [text, key]] of queued.entries()) {
          if (done) {
            spill?.push(...queued.slice(i));
            break;
          }
          handle(text, key);
        }
      });
    },
    watchInterrupts(onInterrupt) {
      return push((_text, key) => {
        if (isInterrupt(key)) onInterrupt(false);
        else if (key.name === "escape") onInterrupt(true);
      });
    },
    close() {
      input.off("keypress", onKeypress);
      process.off("SIGINT", onSignal);
      handlers.length = 0;
      if (input.isTTY) input.setRawMode(false);
      input.pause();
    },
  };
}
