/**
 * USDⓈ-M user data stream keys: POST / PUT / DELETE /fapi/v1/listenKey (security USER_STREAM,
 * weight 1 each; futures facts §1, §2), on simulated time in the context's futures key store,
 * apart from spot's (an account has one spot key and one futures key).
 *
 * Rules: a key lives 60 minutes; POST returns the account's live key extended, or a new one; PUT
 * extends the account's live key and answers `{listenKey}` (the current docs' answer); DELETE
 * closes it and answers `{}`. Without a live key PUT and DELETE answer -1125 "This listenKey does
 * not exist. Please use `POST /fapi/v1/listenKey` to recreate `listenKey`" (§8).
 * The docs list no parameter for PUT and DELETE: the key is the account's. Clients that still
 * send `listenKey` (ccxt does) are accepted when it names the account's live key (**chosen**:
 * another key is -1125, as an unknown key would be).
 */
import { defineSchema } from '../../params/index.ts';
import { apiError } from '../../core/index.ts';
import { accountOf } from '../common.ts';
import { defineEndpoint, type HandlerCall } from '../endpoint-row.ts';

const LISTEN_KEY = { name: 'listenKey', kind: 'STRING' } as const;

/** The account's live futures key; -1125 when there is none or `sent` names another. */
function liveKey(call: HandlerCall, sent: string | undefined): string {
  const key = call.ctx.futuresListenKeys.liveKeyOf(accountOf(call), call.nowUs);
  if (key === undefined || (sent !== undefined && sent !== key)) throw apiError('FUTURES_INVALID_LISTEN_KEY');
  return key;
}

export const openFuturesUserStream = defineEndpoint({
  method: 'POST',
  path: '/fapi/v1/listenKey',
  security: 'USER_STREAM',
  weight: 1,
  schema: defineSchema([]),
  summary: 'USDⓈ-M futures: open a listen key, or extend and return the live one (60 min on simulated time)',
  handler: (_p, call) => ({ listenKey: call.ctx.futuresListenKeys.open(accountOf(call), call.nowUs) }),
});

export const keepAliveFuturesUserStream = defineEndpoint({
  method: 'PUT',
  path: '/fapi/v1/listenKey',
  security: 'USER_STREAM',
  weight: 1,
  schema: defineSchema([LISTEN_KEY]),
  summary: "USDⓈ-M futures: extend the account's listen key by 60 min",
  handler: (p, call) => {
    const key = liveKey(call, p.listenKey);
    call.ctx.futuresListenKeys.keepAlive(accountOf(call), key, call.nowUs);
    return { listenKey: key };
  },
});

export const closeFuturesUserStream = defineEndpoint({
  method: 'DELETE',
  path: '/fapi/v1/listenKey',
  security: 'USER_STREAM',
  weight: 1,
  schema: defineSchema([LISTEN_KEY]),
  summary: "USDⓈ-M futures: close the account's listen key",
  handler: (p, call) => {
    const key = liveKey(call, p.listenKey);
    call.ctx.futuresListenKeys.close(accountOf(call), key, call.nowUs);
    return {};
  },
});
