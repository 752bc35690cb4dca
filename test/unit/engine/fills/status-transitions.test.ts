import { describe, expect, it } from 'vitest';
import { moveStatus, STATUS_TRANSITIONS } from '../../../../src/engine/order-lifecycle.ts';
import type { Order } from '../../../../src/engine/order.ts';
import type { OrderStatus } from '../../../../src/engine/types.ts';

const ALL: OrderStatus[] = ['PENDING_NEW', 'NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'EXPIRED', 'EXPIRED_IN_MATCH'];

function orderIn(status: OrderStatus): Order {
  return { orderId: 7, status } as Order;
}

describe('order status transitions', () => {
  it('allows exactly the lifecycle graph (and a status set again to itself)', () => {
    const allowed: string[] = [];
    for (const from of ALL) for (const to of ALL) if (STATUS_TRANSITIONS[from][to] === true && from !== to) allowed.push(`${from}->${to}`);
    expect(allowed).toEqual([
      'PENDING_NEW->NEW',
      'PENDING_NEW->CANCELED',
      'PENDING_NEW->EXPIRED',
      'NEW->PARTIALLY_FILLED',
      'NEW->FILLED',
      'NEW->CANCELED',
      'NEW->EXPIRED',
      'NEW->EXPIRED_IN_MATCH',
      'PARTIALLY_FILLED->FILLED',
      'PARTIALLY_FILLED->CANCELED',
      'PARTIALLY_FILLED->EXPIRED',
      'PARTIALLY_FILLED->EXPIRED_IN_MATCH',
    ]);
  });

  it('refuses a move off a terminal status and a move back to NEW', () => {
    expect(() => moveStatus(orderIn('FILLED'), 'CANCELED')).toThrow('order 7: status FILLED cannot become CANCELED');
    expect(() => moveStatus(orderIn('PARTIALLY_FILLED'), 'NEW')).toThrow('order 7: status PARTIALLY_FILLED cannot become NEW');
    expect(() => moveStatus(orderIn('PENDING_NEW'), 'FILLED')).toThrow('order 7: status PENDING_NEW cannot become FILLED');
    const order = orderIn('NEW');
    moveStatus(order, 'PARTIALLY_FILLED');
    moveStatus(order, 'FILLED');
    moveStatus(order, 'FILLED');
    expect(order.status).toBe('FILLED');
  });
});
