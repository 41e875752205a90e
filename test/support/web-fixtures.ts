/**
 * Loopback servers for the web tools' tests: a page server with scripted routes that logs every
 * hit (so a test can assert that a refused fetch never connected), and a scripted search API.
 */
import { lookup } from "node:dns/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { webSearchSettings, webSettings } from "../../src/config/web-settings.js";
import { webExchange } from "../../src/providers/web-exchange.js";
import type { WebAccess } from "../../src/tools/web/types.js";

export interface Route {
  /** Never answer (the connection stays open until the server closes). */
  hang?: boolean;
  status?: number;
  type?: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
}

export interface PageServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  /** `GET /path` of every request, in order. */
  hits: string[];
  /** Request headers of every hit, in order. */
  headers: IncomingMessage["headers"][];
  close(): Promise<void>;
}

/** Serves `routes` by path; anything else is a 404 page. */
export async function startPageServer(routes: Record<string, Route>): Promise<PageServer> {
  const hits: string[] = [];
  const headers: IncomingMessage["headers"][] = [];
  return listen(
    (req, res) => {
      hits.push(`${req.method} ${req.url}`);
      headers.push(req.headers);
      const route = routes[req.url ?? ""] ?? { status: 404, type: "text/html", body: "<h1>Not Found</h1>" };
      if (route.hang) return;
      const body = route.body ?? "";
      res.writeHead(route.status ?? 200, {
        "content-type": route.type ?? "text/html",
        "content-length": String(Buffer.byteLength(body)),
        ...route.headers,
      });
      res.end(body);
    },
    { hits, headers },
  );
}

/**
 * The web tools' access for a test: `pages` allowed by its port, real DNS, and `search` (a
 * `[web_search]` table) when given.
 */
export function loopbackWeb(pages: PageServer, search?: Record<string, unknown>): WebAccess {
  return {
    exchange: webExchange,
    config: webSettings({ allow_private: [`127.0.0.1:${pages.port}`] }, "config.toml"),
    ...(search ? { search: webSearchSettings(search as never, { file: "config.toml", env: {} }) } : {}),
    configFile: "config.toml",
    resolve: (host) => lookup(host, { all: true }),
  };
}

export interface SearchBackend {
  origin: string;
  /** Every request: method, path with query, headers and body. */
  requests: Array<{ method: string; url: string; headers: IncomingMessage["headers"]; body: string }>;
  close(): Promise<void>;
}

/** Answers every request with `answer` as JSON (a search API's results page), with `status` (200). */
export async function startSearchBackend(answer: unknown, status = 200): Promise<SearchBackend> {
  const requests: SearchBackend["requests"] = [];
  const server = await listen(
    (req, res) => {
      let body = "";
      req.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      req.on("end", () => {
        requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(answer));
      });
    },
    { hits: [], headers: [] },
  );
  return { origin: server.origin, requests, close: server.close };
}

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  log: { hits: string[]; headers: IncomingMessage["headers"][] },
): Promise<PageServer> {
  const sockets = new Set<Socket>();
  const server = createServer(handler);
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    ...log,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A small HTML page with a title, script and style, a heading, a linked paragraph and a list. */
export const PROBE_PAGE = [
  "<!doctype html><html><head><title>Probe Page</title>",
  "<style>body{color:red}</style><script>var secret = 1;</script></head>",
  '<body><h1>Probe Heading</h1><p>The secret word is <b>pineapple</b>, see <a href="/other.html">other</a>.</p>',
  "<ul><li>item one</li><li>item two</li></ul></body></html>",
].join("");
