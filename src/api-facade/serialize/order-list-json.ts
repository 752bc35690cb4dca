/**
 * Order lists as the REST API shows them (binance-facts §5.12): {orderListId, contingencyType,
 * listStatusType, listOrderStatus, listClientOrderId, transactionTime, symbol, orders[]}, plus
 * `orderReports` on placement and cancel answers (each report in the order response shape).
 * Note the list's `transactionTime` versus the reports' `transactTime`. The queries
 * (orderList, allOrderList, openOrderList) carry no orderReports. contingencyType is OCO for OCO
 * lists and OTO for OTO, OTOCO, OPO and OPOCO (the engine's view already says so).
 */
import type { OrderListView } from '../../engine/index.ts';
import { apiTime, type TimeUnit } from './api-time.ts';

export function orderListJson(list: OrderListView, unit: TimeUnit, orderReports?: readonly unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {
    orderListId: list.orderListId,
    contingencyType: list.contingencyType,
    listStatusType: list.listStatusType,
    listOrderStatus: list.listOrderStatus,
    listClientOrderId: list.listClientOrderId,
    transactionTime: apiTime(list.transactionTime, unit),
    symbol: list.symbol,
    orders: list.orders.map((o) => ({ symbol: list.symbol, orderId: o.orderId, clientOrderId: o.clientOrderId })),
  };
  if (orderReports !== undefined) out['orderReports'] = orderReports;
  return out;
}

/** The `listStatus` object of an amend answer for a list member: no status type, no time. */
export function amendListStatusJson(list: OrderListView): Record<string, unknown> {
  return {
    orderListId: list.orderListId,
    contingencyType: list.contingencyType,
    listOrderStatus: list.listOrderStatus,
    listClientOrderId: list.listClientOrderId,
    symbol: list.symbol,
    orders: list.orders.map((o) => ({ symbol: list.symbol, orderId: o.orderId, clientOrderId: o.clientOrderId })),
  };
}
