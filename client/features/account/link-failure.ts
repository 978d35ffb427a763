/** What an emailed link's page says when the server refuses its token, in the product's voice. */
export interface LinkFailureWords {
  title: string;
  body: string;
}

const INCOMPLETE: LinkFailureWords = {
  title: 'This link is not complete',
  body: 'Open the link from the email again, or ask for a new one.',
};

/**
 * `code` is the server's error code (undefined when it gave none), `message` its words. A token the
 * server refuses by validation (cut short, changed by a mail program) or a link with none is "not
 * complete": the generic "Some fields need another look" speaks of fields the page does not have.
 */
export function linkFailureWords(code: string | undefined, message: string): LinkFailureWords {
  switch (code) {
    case 'token_expired':
      return { title: 'This link has expired', body: message };
    case 'token_used':
      return { title: 'This link was already used', body: message };
    case 'offline':
      return { title: 'You’re offline', body: message };
    case 'token_invalid':
      return message ? { title: 'This link doesn’t work', body: message } : INCOMPLETE;
    case 'validation_failed':
      return INCOMPLETE;
    default:
      return {
        title: 'This link doesn’t work',
        body: message || INCOMPLETE.body,
      };
  }
}
