import { describe, expect, it } from "vitest";
import { localTimeZone } from "../src/sessions/local-time-zone.js";

const missing = () => {
  throw Object.assign(new Error("ENOENT"), { code: "ENOENT" });
};

describe("localTimeZone", () => {
  it("takes TZ first, as a name or a path into a zoneinfo tree", () => {
    const link = () => "/usr/share/zoneinfo/Asia/Tokyo";
    expect(localTimeZone({ env: { TZ: "America/New_York" }, readLink: link })).toBe("America/New_York");
    expect(localTimeZone({ env: { TZ: ":Europe/Paris" }, readLink: link })).toBe("Europe/Paris");
    expect(localTimeZone({ env: { TZ: ":/usr/share/zoneinfo/Asia/Kolkata" }, readLink: link })).toBe(
      "Asia/Kolkata",
    );
    expect(localTimeZone({ env: { TZ: "" }, readLink: link })).toBe("UTC");
  });

  it("then the zoneinfo file /etc/localtime links to, relative links included", () => {
    expect(localTimeZone({ env: {}, readLink: () => "/usr/share/zoneinfo/Etc/UTC" })).toBe("Etc/UTC");
    expect(localTimeZone({ env: {}, readLink: () => "../usr/share/zoneinfo/America/Sao_Paulo" })).toBe(
      "America/Sao_Paulo",
    );
  });

  it("then /etc/timezone, and ICU only when the system names no zone", () => {
    expect(localTimeZone({ env: {}, readLink: missing, readFile: () => "Europe/Berlin\n" })).toBe(
      "Europe/Berlin",
    );
    expect(localTimeZone({ env: { TZ: "/etc/localtime" }, readLink: missing, readFile: missing })).toBe(
      Intl.DateTimeFormat().resolvedOptions().timeZone,
    );
  });

  it("names this machine's zone as its /etc/localtime link does", () => {
    const zone = localTimeZone({ env: {} });
    expect(zone).toMatch(/^[A-Za-z_+-]+(\/[A-Za-z0-9_+-]+)*$/);
  });
});
