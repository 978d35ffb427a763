import { useState } from 'react';
import * as zm from 'zod/mini';
import { apiSend } from '../api/request';
import { useSubmit } from '../api/use-submit';

/**
 * Sends the email confirmation link again (`POST /api/auth/resend-verification`, human check): the
 * site's banner and the editor's publish panel both offer it.
 */
export function useResendVerification() {
  const resend = useSubmit(() =>
    apiSend('POST', '/api/auth/resend-verification', undefined, zm.object({ sent: zm.boolean() }), {
      humanCheck: true,
    }),
  );
  const [sent, setSent] = useState(false);
  return {
    send: () => void resend.submit().then((answer) => answer && setSent(true)),
    pending: resend.pending,
    sent,
    error: resend.error,
  };
}
