import { describe, expect, it } from 'vitest';
import { verifyEmailMessage } from '../../src/accounts/emails';

/*
 * Found on a walk at 375 px: publishing is refused until the email is confirmed, but the
 * confirmation email spoke only of getting back into the account. It says what confirming is for.
 */
describe('the confirmation email', () => {
  it('says confirming is needed to publish, in both parts', () => {
    const mail = verifyEmailMessage('ada@example.org', 'Ada', 'http://localhost/verify-email?t=x');
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain(
        'so you can publish your apps, invite people to them, and always get back into your account.',
      );
    }
  });
});
