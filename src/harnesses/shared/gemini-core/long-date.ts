/** `YYYY-MM-DD` as Gemini CLI prints it for an en-US user: "Friday, August 21, 2026". */
export function longDate(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return isoDate;
  // By hand, not `toLocaleDateString`: en-US needs no locale data, and ICU's first use costs time
  // and memory a session start should not pay (docs/performance.md).
  const weekday = WEEKDAYS[date.getUTCDay()];
  return `${weekday}, ${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
