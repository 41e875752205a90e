import { constants } from "node:os";

/** A signal by its number, as Gemini CLI and Qwen Code print it (`Signal: 9`); unknown names stay names. */
export function signalNumber(signal: string): string {
  const number = (constants.signals as Record<string, number | undefined>)[signal];
  return number === undefined ? signal : String(number);
}
