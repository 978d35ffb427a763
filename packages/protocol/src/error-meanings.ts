import type { ErrorCode } from './error-codes';

/*
 * Apart from errors.ts so that code which only reads error answers (the installed app's page, whose
 * JavaScript is budgeted) does not load these sentences.
 */

/**
 * What each error code means to someone calling the API, in one sentence. The server's `message`
 * says more about the one case at hand. Shown on /docs/platform and in docs/product/error-codes.md
 * (generated from this table by `npm run docs`).
 */
export const ERROR_MEANINGS: Record<ErrorCode, string> = {
  validation_failed: 'Some input is invalid. fields says which, and why.',
  username_taken: 'Someone already has that username.',
  email_taken: 'An account already uses that email address.',
  invalid_credentials: 'The email address or password is wrong.',
  email_not_verified: 'Confirm the email address of the account first.',
  token_invalid: 'A link from an email, such as a password reset, is not valid.',
  token_expired: 'A link from an email has expired. Ask for a new one.',
  token_used: 'A link from an email has already been used.',
  rate_limited: 'Too many attempts. retryAfter says how many seconds to wait.',
  human_check_failed: 'The check that a person, not a script, sent the form failed.',
  not_found: 'Nothing was found at that address.',
  forbidden: 'You may not do this, for example because your role does not allow it.',
  unauthenticated: 'Sign in first.',
  document_too_large: 'A document would grow past 5 MB or 150,000 items, its history included.',
  publish_invalid: 'The definition cannot be published. fields lists each problem.',
  ai_not_configured: 'This server has no AI provider connected.',
  ai_quota_exceeded: 'You have used your AI runs for today. The quota resets daily.',
  ai_output_invalid:
    'The AI model answered twice with something that does not fit the expected fields, so nothing was saved.',
  ai_provider_failed:
    'The AI provider did not answer in time, or answered with an error. Nothing was saved; try again.',
  limit_reached: 'A plan limit is reached, such as 25 apps, or 5 collaborators on one app.',
  app_deleted: 'The app was deleted forever; its id is never used again.',
  already_imported:
    'This file was imported already; appId is the app it made. Send copy=1 for a copy.',
  already_closed: 'Someone accepted, rejected or replaced this suggestion already.',
  offline:
    'The request never reached the server: the device is offline, or the server is unreachable.',
  payload_too_large: 'The request body is larger than 1 MB.',
  unsupported_media_type: 'The request body is not sent as application/json.',
  internal: 'Something failed on the server. The error carries a digest.',
};
