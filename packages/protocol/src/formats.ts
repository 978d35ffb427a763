/*
 * zod 4's own patterns for the formats its schemas check (`zm.email()`, `zm.iso.datetime()`), as
 * literals: importing them from zod brings its shared utilities, which the installed app's first
 * load would then carry (docs/performance.md). test/formats.test.ts holds them to zod's.
 */

/** An email address, as `zm.email()` accepts it. */
export const EMAIL_PATTERN =
  // zod's pattern character for character (the test compares the sources), escapes and all.
  // eslint-disable-next-line no-useless-escape
  /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

/** A UTC time in ISO 8601 (`2026-11-30T02:14:52.123Z`), as `zm.iso.datetime()` accepts it. */
export const ISO_DATE_TIME_PATTERN =
  /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z))$/;
