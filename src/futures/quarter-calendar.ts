/**
 * The delivery calendar of quarterly contracts: the last Friday of March, June, September and
 * December at 08:00 UTC (the real exchange's settlement time). All functions are pure calendar
 * arithmetic on µs timestamps (Date.UTC and Date with an explicit time: no clock is read).
 */
import { MICROS_PER_HOUR, MICROS_PER_MILLI } from '../clock/index.ts';

const DELIVERY_HOUR_US = 8 * MICROS_PER_HOUR;
const FRIDAY = 5;

/** Delivery time (µs) of the quarter ending in `month` (0-based: 2, 5, 8, 11) of `year`. */
export function deliveryOf(year: number, month: number): number {
  const lastDayMs = Date.UTC(year, month + 1, 0);
  const weekday = new Date(lastDayMs).getUTCDay();
  const back = (weekday - FRIDAY + 7) % 7;
  return (lastDayMs - back * 86_400_000) * MICROS_PER_MILLI + DELIVERY_HOUR_US;
}

/** The `n`-th quarterly delivery strictly after t (n = 0: the next one). */
export function deliveryAfter(t: number, n = 0): number {
  const date = new Date(Math.floor(t / MICROS_PER_MILLI));
  let year = date.getUTCFullYear();
  let month = Math.floor(date.getUTCMonth() / 3) * 3 + 2;
  let found = -1;
  for (;;) {
    const d = deliveryOf(year, month);
    if (d > t) found++;
    if (found === n) return d;
    month += 3;
    if (month > 11) {
      month -= 12;
      year++;
    }
  }
}

/** The quarterly delivery just before `delivery`, `n` quarters back (n = 1: the previous one). */
export function deliveryBefore(delivery: number, n = 1): number {
  const date = new Date(Math.floor(delivery / MICROS_PER_MILLI));
  let year = date.getUTCFullYear();
  let month = date.getUTCMonth() - 3 * n;
  while (month < 0) {
    month += 12;
    year--;
  }
  return deliveryOf(year, month);
}

/** Deliveries d with from < d <= to, oldest first. */
export function deliveriesBetween(from: number, to: number): number[] {
  const out: number[] = [];
  for (let d = deliveryAfter(from); d <= to; d = deliveryAfter(d)) out.push(d);
  return out;
}

/** The yymmdd suffix of a delivery symbol (BTCUSDT_260327). */
export function deliverySuffix(delivery: number): string {
  const date = new Date(Math.floor(delivery / MICROS_PER_MILLI));
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getUTCFullYear() % 100)}${two(date.getUTCMonth() + 1)}${two(date.getUTCDate())}`;
}
