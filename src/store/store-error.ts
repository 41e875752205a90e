/** Stable codes for the store's own failures; callers branch on `code`, never on the message. */
export type StoreErrorCode =
  | "corrupt_record"
  | "invalid_cursor"
  | "invalid_filter"
  | "invalid_limit"
  | "session_exists"
  | "session_not_found"
  | "schema_too_new"
  | "wal_unavailable";

export class StoreError extends Error {
  override readonly name = "StoreError";
  readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}
