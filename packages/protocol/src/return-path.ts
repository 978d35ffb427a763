/*
 * Where a person goes back to after signing in: without zod, apart from the session's schemas
 * (session.ts).
 * The installed app's first load is one chunk with every module its entry imports, and a zod
 * schema there that a lazily loaded part uses stays in it, with zod's core (docs/performance.md):
 * what the first screen needs of the protocol lives apart from the schemas.
 */

/** The longest path a sign-in, sign-up or emailed link brings a person back to. */
export const RETURN_PATH_MAX_LENGTH = 2048;

/**
 * Where a person goes back to after signing in or up, or after an emailed link: a path on this
 * site only, never another site (`//host`, `/\host` and `javascript:` are not paths here), or
 * nothing.
 */
export function returnPath(target: string | null | undefined): string | undefined {
  if (!target || target.length > RETURN_PATH_MAX_LENGTH) return undefined;
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) {
    return undefined;
  }
  // Control characters (a tab or newline inside `//` reads as `//` to a browser) are never part
  // of a path Pipit makes.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(target)) return undefined;
  return target;
}
