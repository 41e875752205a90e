import { z } from "zod";
import { StoreError } from "./store-error.js";
import type { SessionRecord } from "./types.js";

/** A `sessions` row as SQLite returns it. */
export interface SessionRow {
  id: string;
  cwd: string;
  additional_directories: string;
  mcp_servers: string;
  title: string | null;
  harness: string | null;
  model: string | null;
  mode: string;
  created_at: string;
  updated_at: string;
  parent_id: string | null;
  agent_type: string | null;
  archived_at: string | null;
}

const Directories = z.array(z.string());
const McpServers = z.array(z.unknown());

/** Validates the JSON columns; a row that fails names the session and column rather than guessing. */
export function toSessionRecord(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    cwd: row.cwd,
    additionalDirectories: parseColumn(row, "additional_directories", Directories),
    mcpServers: parseColumn(row, "mcp_servers", McpServers),
    title: row.title,
    harness: row.harness,
    model: row.model,
    mode: row.mode,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    parentId: row.parent_id,
    agentType: row.agent_type,
    archivedAt: row.archived_at,
  };
}

function parseColumn<T>(
  row: SessionRow,
  column: "additional_directories" | "mcp_servers",
  schema: z.ZodType<T>,
): T {
  let value: unknown;
  try {
    value = JSON.parse(row[column]);
  } catch (cause) {
    throw new StoreError("corrupt_record", `Session ${row.id}: column ${column} is not valid JSON`, {
      cause,
    });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const reason = z.prettifyError(parsed.error);
    throw new StoreError("corrupt_record", `Session ${row.id}: column ${column} is invalid: ${reason}`);
  }
  return parsed.data;
}

/** Keyset position of the last row of a page: sessions strictly after it come next. */
export interface SessionCursor {
  updatedAt: string;
  id: string;
}

const CursorShape = z.tuple([z.string(), z.string()]);

export function encodeCursor(cursor: SessionCursor): string {
  return Buffer.from(JSON.stringify([cursor.updatedAt, cursor.id])).toString("base64url");
}

export function decodeCursor(cursor: string): SessionCursor {
  try {
    const [updatedAt, id] = CursorShape.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
    return { updatedAt, id };
  } catch (cause) {
    throw new StoreError("invalid_cursor", "The session list cursor is not one this daemon issued.", {
      cause,
    });
  }
}
