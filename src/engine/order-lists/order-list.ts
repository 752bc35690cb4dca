/**
 * An order list (OCO, OTO, OTOCO, OPO, OPOCO): its legs by role and its list status. The legs
 * are ordinary orders that point back at the list (`OrderExtras.list`); the list decides what
 * one leg's fill, trigger, cancel or expiry does to the others (contingency.ts).
 *
 * Roles: OCO legs are [above, below]; OTO/OPO [working, pending]; OTOCO/OPOCO [working,
 * pendingAbove, pendingBelow]. The pending legs of OTOCO/OPOCO form an OCO among themselves once
 * placed.
 */
import type { ContingencyType, ListOrderStatus, ListStatusType, OrderListKind } from '../types.ts';

export interface ListSnapshot {
  symbol: string;
  orderListId: number;
  accountId: number;
  kind: OrderListKind;
  contingencyType: ContingencyType;
  listStatusType: ListStatusType;
  listOrderStatus: ListOrderStatus;
  listClientOrderId: string;
  orders: { orderId: number; clientOrderId: string }[];
}

export class OrderList {
  listStatusType: ListStatusType = 'EXEC_STARTED';
  listOrderStatus: ListOrderStatus = 'EXECUTING';
  /** Leg client order ids, by role (amend may change them). */
  readonly clientOrderIds: string[];

  constructor(
    readonly orderListId: number,
    readonly symbolIndex: number,
    readonly symbol: string,
    readonly accountId: number,
    readonly kind: OrderListKind,
    readonly listClientOrderId: string,
    /** Leg order ids by role. */
    readonly orderIds: readonly number[],
    clientOrderIds: readonly string[],
    public transactionTime: number,
  ) {
    this.clientOrderIds = [...clientOrderIds];
  }

  get contingencyType(): ContingencyType {
    return this.kind === 'OCO' ? 'OCO' : 'OTO';
  }

  get isOpen(): boolean {
    return this.listOrderStatus !== 'ALL_DONE';
  }

  /** True for the kinds that start with a working order and place the rest once it fills. */
  get hasWorkingLeg(): boolean {
    return this.kind !== 'OCO';
  }

  /** Whether the pending legs sell what the working order bought (OPO, OPOCO). */
  get pendingFromWorking(): boolean {
    return this.kind === 'OPO' || this.kind === 'OPOCO';
  }

  /** The fields every report of the list carries (views and OrderListUpdated events alike). */
  snapshot(): ListSnapshot {
    return {
      symbol: this.symbol,
      orderListId: this.orderListId,
      accountId: this.accountId,
      kind: this.kind,
      contingencyType: this.contingencyType,
      listStatusType: this.listStatusType,
      listOrderStatus: this.listOrderStatus,
      listClientOrderId: this.listClientOrderId,
      orders: this.orderIds.map((orderId, i) => ({ orderId, clientOrderId: this.clientOrderIds[i] as string })),
    };
  }

  roleOf(orderId: number): number {
    return this.orderIds.indexOf(orderId);
  }

  /** The legs that form an OCO pair: both legs of an OCO, the two pending legs of OTOCO/OPOCO. */
  ocoPartnerOf(orderId: number): number | null {
    const role = this.roleOf(orderId);
    if (this.kind === 'OCO') return this.orderIds[1 - role] ?? null;
    if ((this.kind === 'OTOCO' || this.kind === 'OPOCO') && role >= 1) return this.orderIds[role === 1 ? 2 : 1] ?? null;
    return null;
  }
}
