/**
 * How our fetches introduce themselves, whatever the harness: honestly, as this agent, in the
 * form sites expect from a program fetching for a person.
 */
export const WEB_USER_AGENT = "Mozilla/5.0 (compatible; openinterpreter; +https://openinterpreter.com)";
