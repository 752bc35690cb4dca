/**
 * POST /sapi/v1/equity/account/disclaimer (TRADE, signed, IP weight 1): records that the account
 * of the API key accepted the equity disclaimer (at simulated now, the first time; later calls
 * change nothing and succeed too). Answer: {success: true}.
 */
import { defineSchema, withSigned } from '../../params/index.ts';
import { accountViewOf } from '../common.ts';
import { defineEndpoint } from '../endpoint-row.ts';

export const equityDisclaimer = defineEndpoint({
  method: 'POST',
  path: '/sapi/v1/equity/account/disclaimer',
  security: 'TRADE',
  weight: 1,
  schema: defineSchema(withSigned([])),
  summary: 'Accept the equity disclaimer for the account',
  handler: (_p, call) => {
    call.ctx.equityDisclaimers.accept(accountViewOf(call).accountId, call.nowUs);
    return { success: true };
  },
});
