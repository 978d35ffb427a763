import { accountSchema, type MessageRequest, type UpdateProfileRequest } from '@pipit/protocol';
import * as zm from 'zod/mini';
import { getAccount, setAccount } from '../session/session';
import { apiSend } from '../api/request';
import { registerSender, setOutboxOwner } from './outbox';

setOutboxOwner(() => getAccount()?.id ?? null);

/** How each kind of queued write is sent once the device is online (loaded with the app). */
export function sendMessage(message: MessageRequest) {
  return apiSend('POST', '/api/messages', message, zm.object({ received: zm.boolean() }), {
    humanCheck: true,
  });
}

registerSender('message', (payload) => sendMessage(payload as MessageRequest));
registerSender('profile', async (payload) => {
  const { account } = await apiSend(
    'PATCH',
    '/api/account/profile',
    payload as UpdateProfileRequest,
    zm.object({ account: accountSchema }),
  );
  setAccount(account);
});
