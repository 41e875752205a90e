import type { Readable } from "node:stream";

/** One server-sent event: its `event:` name (when given) and its `data:` lines joined. */
export interface ServerEvent {
  event?: string;
  data: string;
}

/**
 * The events of a `text/event-stream` body, as the HTML standard parses them: lines end in
 * LF, CRLF or CR; `data:` lines accumulate; a blank line ends an event; comments (`:`) and
 * unknown fields are skipped. An event cut off by the end of the body is dropped.
 */
export async function* serverEvents(body: Readable): AsyncGenerator<ServerEvent> {
  body.setEncoding("utf8");
  const newline = /\r\n?|\n/g;
  let buffer = "";
  let data: string[] = [];
  let event: string | undefined;
  for await (const text of body as AsyncIterable<string>) {
    buffer += text;
    let start = 0;
    for (;;) {
      newline.lastIndex = start;
      const found = newline.exec(buffer);
      // A CR at the very end may be the first half of a CRLF still to come.
      if (found === null || (found[0] === "\r" && found.index + 1 === buffer.length)) break;
      const line = buffer.slice(start, found.index);
      start = found.index + found[0].length;
      if (line === "") {
        if (data.length > 0) yield { ...(event ? { event } : {}), data: data.join("\n") };
        data = [];
        event = undefined;
      } else if (!line.startsWith(":")) {
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? "" : line.slice(line[colon + 1] === " " ? colon + 2 : colon + 1);
        if (field === "data") data.push(value);
        else if (field === "event") event = value;
      }
    }
    buffer = buffer.slice(start);
  }
}
