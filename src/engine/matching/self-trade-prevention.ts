/**
 * Which self-trade-prevention rule applies when a taker meets a maker (faqs/stp_faq.md).
 * Only orders of the same party (same account, or same trade group) are affected. The taker's
 * mode decides, except that TRANSFER needs both sides to use it (and different accounts);
 * otherwise it acts as DECREMENT.
 */
import type { Order } from '../order.ts';
import type { SelfTradePreventionMode } from '../types.ts';

/** The effective mode, or null when the two orders may simply trade. */
export function preventionMode(taker: Order, maker: Order): SelfTradePreventionMode | null {
  if (!taker.account.isSameParty(maker.account)) return null;
  const mode = taker.stpMode;
  if (mode === 'NONE') return null;
  if (mode === 'TRANSFER' && (maker.stpMode !== 'TRANSFER' || taker.account === maker.account)) return 'DECREMENT';
  return mode;
}
