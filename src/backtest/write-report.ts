/**
 * Writes a backtest's report folder:
 *   summary.json   the numbers (report-summary.ts), money as decimal strings
 *   orders.csv     every order of the strategy that traded or is still open, final state (a
 *                  quote canceled untouched is counted in summary.json and is in
 *                  strategy-commands.jsonl.gz: a grid's day has ~35k of them, 90% of the folder)
 *   fills.csv      every fill, with commission, maker flag and, for a resting order filled by
 *                  the market, the print that did it (`print`: a trade or aggTrade id, or on
 *                  a kline tape the bar, intra-bar path and leg: the assumption behind the fill)
 *                  and the rule with its numbers (`rule`: the fill model's reason, e.g. the
 *                  queue ahead before and after, or DEPTH_CROSS and the crossing liquidity)
 *   trades.csv     one row per round trip (round-trips.ts): entry and exit time, side, quantity,
 *                  volume-weighted entry and exit prices, PnL and commissions in the quote
 *                  asset, duration, the orders that opened and closed it and the reasons the
 *                  strategy tagged them with (`ctx.tag`); summary.json's `metrics.trades` is
 *                  computed from these rows. A trip still open at the end is not a row.
 *   equity.csv     the equity samples and the drawdown below the running peak, in the valuation
 *                  asset (`drawdown_<asset>`) and as a fraction of the peak (`drawdown_fraction`,
 *                  0.05 = 5% below; report.html plots it negated)
 *   log.txt        the strategy's ctx.log lines
 *   strategy-commands.jsonl.gz  the strategy's engine commands, one JSON object per line
 *                  (with the data and the seed: the run's inputs)
 *   journal.jsonl.gz  only with --journal (written during the run by JournalFile)
 *   report.html    self-contained charts and tables (report-html.ts)
 * Times are UTC with µs (`2024-01-01T00:00:00.000000Z`). Same run, same bytes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Decimal } from 'decimal.js';
import { formatUtcMicros } from '../data/index.ts';
import { type EngineCommand, formatUnits } from '../engine/index.ts';
import { renderHtmlReport } from './report-html.ts';
import { buildChartData, type BacktestSummary } from './report-summary.ts';
import type { BacktestResult } from './run-backtest.ts';

export const JOURNAL_FILE = 'journal.jsonl.gz';
export const STRATEGY_COMMANDS_FILE = 'strategy-commands.jsonl.gz';

/** The strategy's commands as gzipped JSON lines (gzip's header holds no time: same commands, same bytes). */
export function writeStrategyCommands(dir: string, commands: readonly EngineCommand[]): string {
  const lines = commands.map((c) => `${JSON.stringify(c)}\n`).join('');
  writeFileSync(join(dir, STRATEGY_COMMANDS_FILE), gzipSync(lines, { level: 6 }));
  return STRATEGY_COMMANDS_FILE;
}

const csv = (rows: readonly (readonly (string | number | boolean)[])[]): string => rows.map((r) => r.join(',')).join('\n') + '\n';

/** A free-text field (a strategy's tag) quoted as RFC 4180 has it when it holds a comma or a quote. */
const textField = (text: string): string => (/[",]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

export function writeReport(dir: string, result: BacktestResult, summary: BacktestSummary): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    written.push(name);
  };
  const base = (symbol: string) => result.assetPrecision(result.baseAsset[symbol]!);
  write('summary.json', `${JSON.stringify(summary, null, 2)}\n`);
  write(
    'orders.csv',
    csv([
      ['orderId', 'clientOrderId', 'symbol', 'side', 'type', 'timeInForce', 'price', 'origQty', 'executedQty', 'cummulativeQuoteQty', 'status', 'time', 'updateTime'],
      ...result.orders.filter((o) => o.executedQty > 0 || o.status === 'NEW' || o.status === 'PARTIALLY_FILLED' || o.status === 'PENDING_NEW').map((o) => [
        o.orderId,
        o.clientOrderId,
        o.symbol,
        o.side,
        o.type,
        o.timeInForce,
        formatUnits(o.price, result.quotePrecision[o.symbol]!),
        formatUnits(o.origQty, base(o.symbol)),
        formatUnits(o.executedQty, base(o.symbol)),
        formatUnits(o.cummulativeQuoteQty, result.quotePrecision[o.symbol]!),
        o.status,
        formatUtcMicros(o.time),
        formatUtcMicros(o.updateTime),
      ]),
    ]),
  );
  write(
    'fills.csv',
    csv([
      ['time', 'symbol', 'tradeId', 'orderId', 'side', 'price', 'qty', 'quoteQty', 'commission', 'commissionAsset', 'maker', 'print', 'rule'],
      ...result.fills.map((f) => [
        formatUtcMicros(f.time),
        f.symbol,
        f.id,
        f.orderId,
        f.isBuyer ? 'BUY' : 'SELL',
        formatUnits(f.price, result.quotePrecision[f.symbol]!),
        formatUnits(f.qty, base(f.symbol)),
        formatUnits(f.quoteQty, result.quotePrecision[f.symbol]!),
        formatUnits(f.commission, result.assetPrecision(f.commissionAsset)),
        f.commissionAsset,
        f.isMaker,
        result.fillPrints.get(`${f.symbol} ${f.id}`) ?? '',
        result.fillRules.get(`${f.symbol} ${f.id}`) ?? '',
      ]),
    ]),
  );
  write(
    'trades.csv',
    csv([
      ['symbol', 'side', 'entryTime', 'exitTime', 'durationSeconds', 'quantity', 'entryPrice', 'exitPrice', 'quoteAsset', 'pnl', 'fees', 'entryOrderId', 'entryClientOrderId', 'exitOrderId', 'exitClientOrderId', 'entryReason', 'exitReason'],
      ...result.trades.rows.map((t) => [
        t.symbol,
        t.side,
        formatUtcMicros(t.entryTime),
        formatUtcMicros(t.exitTime),
        (t.exitTime - t.entryTime) / 1_000_000,
        t.quantity,
        t.entryPrice,
        t.exitPrice,
        t.quoteAsset,
        t.pnl,
        t.fees,
        t.entryOrderId,
        t.entryClientOrderId,
        t.exitOrderId,
        t.exitClientOrderId,
        textField(t.entryReason),
        textField(t.exitReason),
      ]),
    ]),
  );
  const places = result.assetPrecision(result.valuationAsset);
  let peak: Decimal | null = null;
  write(
    'equity.csv',
    csv([
      ['time', `equity_${result.valuationAsset}`, `drawdown_${result.valuationAsset}`, 'drawdown_fraction'],
      ...result.recorder.equity.map((sample) => {
        peak = peak === null || sample.equity.gt(peak) ? sample.equity : peak;
        const fall = peak.sub(sample.equity);
        return [formatUtcMicros(sample.time), sample.equity.toFixed(places), fall.toFixed(places), peak.isZero() ? '0' : fall.div(peak).toFixed(8, Decimal.ROUND_HALF_EVEN)];
      }),
    ]),
  );
  write('log.txt', result.log.length === 0 ? '' : `${result.log.join('\n')}\n`);
  write('report.html', renderHtmlReport(summary, buildChartData(result)));
  return written;
}

