// zod/mini: the profile route reads usernames, and every page loads the route tree.
import * as zm from 'zod/mini';
import { lazySchema } from './lazy-schema';

/**
 * docs/product/validation.md: 3–30 of a-z 0-9 _ -, starting with a letter. Usernames are stored
 * lowercase.
 */
export const USERNAME_PATTERN = /^[a-z][a-z0-9_-]{2,29}$/;

/**
 * Names a person may not take: every first segment of a static route (so `/{username}` never
 * shadows one), server paths, and names that would let someone pose as the operator. Kept in sync
 * with the route table by a test.
 */
export const RESERVED_USERNAMES: ReadonlySet<string> = new Set([
  // first segments of docs/product/routes.md's static routes
  'home',
  'apps',
  'studio',
  'create',
  'archive',
  'explore',
  'login',
  'signup',
  'forgot-password',
  'reset-password',
  'verify-email',
  'confirm-email-change',
  'account',
  'about',
  'contact',
  'faq',
  'feedback',
  'pricing',
  'docs',
  'legal',
  'demo',
  'demo1',
  // server paths and files at the root
  'api',
  'monitoring',
  'metrics',
  'assets',
  'icons',
  'static',
  'sw',
  'manifest',
  'robots',
  'favicon',
  'well-known',
  // names that suggest authority or product surfaces
  'admin',
  'administrator',
  'root',
  'system',
  'support',
  'help',
  'security',
  'status',
  'settings',
  'profile',
  'profiles',
  'user',
  'users',
  'team',
  'staff',
  'moderator',
  'operator',
  'pipit',
  'official',
  'www',
  'mail',
  'email',
  'auth',
  'logout',
  'signin',
  'register',
  'search',
  'new',
  'edit',
  'install',
  'pwa',
  'blog',
  'jobs',
  'privacy',
  'terms',
  'policy',
  'null',
  'undefined',
  'anonymous',
]);

export function isReservedUsername(username: string): boolean {
  return RESERVED_USERNAMES.has(username.toLowerCase());
}

/**
 * A username as a person types it: trimmed and lowercased, then checked against
 * docs/product/validation.md.
 */
export const usernameSchema = lazySchema(() =>
  zm.string().check(
    zm.trim(),
    zm.toLowerCase(),
    zm.minLength(3, 'Use at least 3 characters.'),
    zm.maxLength(30, 'Use at most 30 characters.'),
    zm.regex(/^[a-z]/, 'Start with a letter.'),
    zm.regex(USERNAME_PATTERN, 'Use only letters, digits, “_” and “-”.'),
    zm.refine((name) => !isReservedUsername(name), 'That name is reserved. Try another.'),
  ),
);
