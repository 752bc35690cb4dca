/**
 * Legacy user-data-stream key management (security USER_STREAM: API key, no signature), on
 * simulated time (listen-keys.ts). The stream itself is not served yet.
 */
import { defineSchema } from '../../params/index.ts';
import { accountOf } from '../common.ts';
import { defineEndpoint } from '../endpoint-row.ts';

const LISTEN_KEY = { name: 'listenKey', kind: 'STRING', required: true } as const;

export const openUserStream = defineEndpoint({
  method: 'POST',
  path: '/api/v3/userDataStream',
  security: 'USER_STREAM',
  weight: 2,
  schema: defineSchema([]),
  summary: 'Open a listen key (60 min on simulated time)',
  handler: (_p, call) => ({ listenKey: call.ctx.listenKeys.open(accountOf(call), call.nowUs) }),
});

export const keepAliveUserStream = defineEndpoint({
  method: 'PUT',
  path: '/api/v3/userDataStream',
  security: 'USER_STREAM',
  weight: 2,
  schema: defineSchema([LISTEN_KEY]),
  summary: 'Extend a listen key by 60 min',
  handler: (p, call) => {
    call.ctx.listenKeys.keepAlive(accountOf(call), p.listenKey, call.nowUs);
    return {};
  },
});

export const closeUserStream = defineEndpoint({
  method: 'DELETE',
  path: '/api/v3/userDataStream',
  security: 'USER_STREAM',
  weight: 2,
  schema: defineSchema([LISTEN_KEY]),
  summary: 'Close a listen key',
  handler: (p, call) => {
    call.ctx.listenKeys.close(accountOf(call), p.listenKey, call.nowUs);
    return {};
  },
});
