/** One line of `interpreter doctor`: what was checked, how it went, and what to do about it. */
export interface Check {
  /** Stable id for scripts (`--json`): `node`, `home`, `database`, `config`, `endpoint`, ... */
  id: string;
  title: string;
  /** `skip`: not run because something it needs failed first (that failure is reported). */
  status: "ok" | "warn" | "fail" | "skip";
  detail: string;
  /** A concrete next step; present on every warn and fail. */
  fix?: string;
}

export const ok = (id: string, title: string, detail: string): Check => ({ id, title, status: "ok", detail });

export const warn = (id: string, title: string, detail: string, fix: string): Check => ({
  id,
  title,
  status: "warn",
  detail,
  fix,
});

export const fail = (id: string, title: string, detail: string, fix: string): Check => ({
  id,
  title,
  status: "fail",
  detail,
  fix,
});

export const skip = (id: string, title: string, detail: string): Check => ({
  id,
  title,
  status: "skip",
  detail,
});
