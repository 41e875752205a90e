import readline from "node:readline";
import type { KeyResult, LineResult, PickResult, TerminalInput } from "./terminal-input.js";

/**
 * Input when stdin or stdout is not a terminal (a pipe, a script, `| tee`): plain lines, each
 * answer to a question is a line whose first character is the key, and Ctrl-C arrives as SIGINT.
 */
export function createLineInput(options: {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Write prompts (a person is typing, even though the output is not a terminal). */
  showPrompts: boolean;
}): TerminalInput {
  const rl = readline.createInterface({ input: options.input, terminal: false });
  const lines: string[] = [];
  let ended = false;
  let waiter: (() => void) | undefined;
  let onInterrupt: ((soft: boolean) => void) | undefined;
  let interruptWaiter: (() => void) | undefined;
  const wake = () => {
    const next = waiter;
    waiter = undefined;
    next?.();
  };
  rl.on("line", (line) => {
    lines.push(line);
    wake();
  });
  rl.on("close", () => {
    ended = true;
    wake();
  });
  const onSignal = () => {
    if (interruptWaiter) interruptWaiter();
    else onInterrupt?.(false);
  };
  process.on("SIGINT", onSignal);

  /** The next line; undefined at end of input; "interrupt" on SIGINT; "aborted" with `signal`. */
  const nextLine = (signal?: AbortSignal) =>
    new Promise<string | undefined | "interrupt" | "aborted">((resolve) => {
      const done = (value: string | undefined | "interrupt" | "aborted") => {
        waiter = undefined;
        interruptWaiter = undefined;
        signal?.removeEventListener("abort", onAbort);
        resolve(value);
      };
      const onAbort = () => done("aborted");
      const settle = () => {
        if (lines.length > 0) done(lines.shift());
        else if (ended) done(undefined);
        else waiter = settle;
      };
      interruptWaiter = () => done("interrupt");
      if (signal?.aborted) return done("aborted");
      signal?.addEventListener("abort", onAbort, { once: true });
      settle();
    });

  const prompt = (text: string) => {
    if (options.showPrompts) options.output.write(text);
  };

  return {
    interactive: false,
    async readLine(text): Promise<LineResult> {
      prompt(text);
      const line = await nextLine();
      if (line === "interrupt" || line === "aborted") return { type: "interrupt", hadText: false };
      return line === undefined ? { type: "eof" } : { type: "line", text: line };
    },
    async readKey(keys, signal): Promise<KeyResult> {
      for (;;) {
        prompt("> ");
        const line = await nextLine(signal);
        if (line === "aborted") return { type: "aborted" };
        if (line === "interrupt" || line === undefined) return { type: "interrupt" };
        const key = line.trim().charAt(0);
        if (keys.includes(key)) return { type: "key", key };
      }
    },
    /** The rows numbered; the answer is a line with a row's number (or an extra key). */
    async pick({ title, items, extraKeys = {} }): Promise<PickResult> {
      options.output.write(
        `${[title, ...items.map((item, i) => `  [${i + 1}] ${item.label}`)].join("\n")}\n`,
      );
      for (;;) {
        prompt("> ");
        const line = await nextLine();
        if (line === undefined || line === "interrupt" || line === "aborted") return { type: "cancel" };
        const answer = line.trim();
        if (Object.hasOwn(extraKeys, answer)) return { type: "key", key: answer };
        const index = Number(answer) - 1;
        if (Number.isInteger(index) && index >= 0 && index < items.length) return { type: "picked", index };
      }
    },
    above(write) {
      write();
    },
    watchInterrupts(handler) {
      onInterrupt = handler;
      return () => {
        if (onInterrupt === handler) onInterrupt = undefined;
      };
    },
    close() {
      process.off("SIGINT", onSignal);
      rl.close();
    },
  };
}
