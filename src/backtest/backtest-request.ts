/**
 * A backtest as the command line (and a sweep's worker) describes it: plain, validated data
 * (`BacktestRequest`, which can cross to a worker thread), and the function that runs one and
 * writes its report folder.
 */
import { futuresEntryTexts } from './futures-setup.ts';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { formatUtcMicros } from '../data/index.ts';
import { parseBalances, parseFees, type FeeSchedule } from './account-setup.ts';
import { InputError } from './input-error.ts';
import type { DataGap, SharedTape } from './market-data.ts';
import { BacktestDigest } from './backtest-digest.ts';
import { JournalFile } from './journal-file.ts';
import { loadStrategy, parseParams } from './load-strategy.ts';
import { parseLatency } from './parse-latency.ts';
import { parseBook } from './parse-book.ts';
import { parseTime } from './parse-time.ts';
import { buildSummary, sourceOf, type BacktestSummary } from './report-summary.ts';
import { runBacktest, STRATEGY_ACCOUNT_ID, type BacktestStart } from './run-backtest.ts';
import { fillModelText, parseFillModel, type FillModelName } from './parse-fill-model.ts';
import { JOURNAL_FILE, writeReport, writeStrategyCommands } from './write-report.ts';

/** The options as typed (strings), before validation. */
export interface BacktestRequestOptions {
  data: string;
  from?: string;
  to?: string;
  symbols?: string;
  fillModel: string;
  latency: string;
  seed: string;
  /** The synthetic book's profile (parse-book.ts), or "off". Default: DEFAULT_BOOK. */
  book?: string;
  param?: string;
  out?: string;
  sweep?: string;
  /** Write each sweep run's report folder under --out/runs/. */
  sweepReports?: boolean;
  /** `train=7d,test=1d`: walk-forward over the --sweep grid (walk-forward.ts). */
  walkForward?: string;
  /** The metric a walk-forward chooses by. */
  select?: string;
  workers?: string;
  json?: boolean;
  /** Write the full command/event journal (journal.jsonl.gz) into --out. */
  journal?: boolean;
  /** `BTC=0,USDT=10000`. */
  balances?: string;
  /** `maker=0.0002,taker=0.0004` or a tier (`VIP3`). */
  fees?: string;
  bnbDiscount?: boolean;
  /** Let the strategy use host timers and Date.now, with a warning (host-time-guard.ts). */
  allowHostTime?: boolean;
  /** `BTCUSDT[,ETHUSDT]`: USDⓈ-M perpetuals traded beside their spot symbols (futures-setup.ts). */
  futures?: string;
}

/** The validated, parsed form shared by single runs and sweeps (plain data: it crosses to workers). */
export interface BacktestRequest {
  readonly strategy: string;
  readonly data: string;
  readonly from?: number;
  readonly to?: number;
  readonly symbols?: readonly string[];
  readonly fillModel: FillModelName;
  readonly latency: string;
  readonly seed: string;
  /** `--book` as given (validated); absent: the default profile. */
  readonly book?: string;
  readonly params: Readonly<Record<string, string>>;
  /** The strategy account as the command line sets it (over the strategy module's exports). */
  readonly balances?: Readonly<Record<string, string>>;
  readonly fees?: string;
  readonly bnbDiscount?: boolean;
  /** A sweep's tapes, loaded once in shared memory (see market-data.ts). */
  readonly sharedTapes?: readonly SharedTape[];
  /** A sweep run's report folder (`--sweep-reports`): summary, CSVs, report.html; absent: none. */
  readonly reportDir?: string;
  /** Host timers and Date.now in the strategy warn instead of failing the run. */
  readonly allowHostTime?: boolean;
  /** USDⓈ-M perpetuals traded (over the strategy module's `futures` export). */
  readonly futures?: readonly string[];
  /** false: every print through the replay's full path (tests compare it with the fast path, the default). */
  readonly fastPrints?: boolean;
}

export function parseBacktestRequest(strategy: string, options: BacktestRequestOptions): BacktestRequest {
  const fillModel = fillModelText(parseFillModel(options.fillModel)); // validates
  parseLatency(options.latency); // validates
  if (options.book !== undefined) parseBook(options.book); // validates
  const symbols = options.symbols?.split(',').map((s) => s.trim()).filter((s) => s !== '');
  return {
    strategy,
    data: options.data,
    ...(options.from === undefined ? {} : { from: parseTime(options.from, '--from') }),
    ...(options.to === undefined ? {} : { to: parseTime(options.to, '--to') }),
    ...(symbols === undefined ? {} : { symbols }),
    fillModel,
    latency: options.latency,
    seed: options.seed,
    ...(options.book === undefined ? {} : { book: options.book }),
    params: parseParams(options.param),
    ...(options.balances === undefined ? {} : { balances: parseBalances(options.balances) }),
    ...(options.fees === undefined ? {} : { fees: (parseFees(options.fees), options.fees) }),
    ...(options.bnbDiscount === true ? { bnbDiscount: true } : {}),
    ...(options.allowHostTime === true ? { allowHostTime: true } : {}),
    ...(options.futures === undefined ? {} : { futures: futuresEntryTexts(options.futures) }),
  };
}

/**
 * Runs one backtest of `request`; `out` null writes no files. The journal is a compact streaming
 * hash (backtest-digest.ts); `fullJournal` also writes every command and its events to
 * `out/journal.jsonl.gz`.
 */
export async function runBacktestRequest(
  request: BacktestRequest,
  out: string | null,
  onProgress?: (p: { now: number; from: number; to: number; prints: number }) => void,
  fullJournal = false,
  onDataGap?: (gap: DataGap) => void,
  onDataWarning?: (line: string) => void,
  onStart?: (line: string) => void,
) {
  if (fullJournal && out === null) throw new InputError('--journal needs --out (the folder the journal is written to)');
  const strategy = await loadStrategy(request.strategy);
  if (out !== null) mkdirSync(out, { recursive: true });
  const file = fullJournal && out !== null ? new JournalFile(join(out, JOURNAL_FILE)) : null;
  const journal = new BacktestDigest({ strategyAccountId: STRATEGY_ACCOUNT_ID, tee: file });
  const latency = parseLatency(request.latency);
  let result;
  try {
    result = await runBacktest({
      strategy,
      params: request.params,
      data: request.data,
      ...(request.from === undefined ? {} : { from: request.from }),
      ...(request.to === undefined ? {} : { to: request.to }),
      ...(request.symbols === undefined ? {} : { symbols: request.symbols }),
      fillModel: request.fillModel,
      ...(latency === undefined ? {} : { latency }),
      seed: request.seed,
      ...(request.book === undefined ? {} : { book: parseBook(request.book) }),
      account: { balances: request.balances, fees: request.fees, bnbDiscount: request.bnbDiscount },
      journal,
      onPrint: (trade) => journal.print(trade.symbol, trade.tapeId, trade.time, trade.price, trade.qty, trade.isBuyerMaker),
      ...(onProgress === undefined ? {} : { onProgress }),
      ...(onDataGap === undefined ? {} : { onDataGap }),
      ...(onDataWarning === undefined ? {} : { onDataWarning }),
      ...(request.sharedTapes === undefined ? {} : { sharedTapes: request.sharedTapes }),
      ...(request.allowHostTime === true ? { allowHostTime: true } : {}),
      ...(request.futures === undefined ? {} : { futures: request.futures }),
      ...(request.fastPrints === false ? { fastPrints: false } : {}),
      ...(onStart === undefined ? {} : { onStart: (start: BacktestStart) => onStart(startLine(start)) }),
    });
  } finally {
    file?.close();
  }
  const summary = buildSummary(result, request.data, {
    file: file === null ? null : JOURNAL_FILE,
    fileSha256: file === null ? null : file.hash(),
    entries: journal.entries,
    sha256: journal.hash(),
    decisionsSha256: journal.decisionsHash(),
    tapeSha256: journal.tapeHash(),
    strategyCommands: journal.strategyCommands.length,
    strategyCommandsSha256: journal.strategyHash(),
  });
  const files = out === null ? [] : [...writeReport(out, result, summary), writeStrategyCommands(out, journal.strategyCommands)];
  if (file !== null) files.push(JOURNAL_FILE);
  return { result, summary, files };
}

export function headline(summary: BacktestSummary): string[] {
  const m = summary.metrics;
  const v = summary.valuationAsset;
  const markouts = m.markouts.map((k) => `${k.horizonSeconds}s ${k.volumeWeightedBps ?? '-'}`).join(', ');
  return [
    runLine(summary.strategy.name, summary.market.symbols, summary.market.from, summary.market.to, summary.market.source, summary.market.fillModel, summary.market.seed),
    `  book: ${sourceText(summary.market.book)}${depthText(summary.market.depth)}`,
    `  PnL ${m.pnl} ${v} (return ${m.return ?? '-'}); holding the opening balances ${m.benchmarks.hold.pnl} (return ${m.benchmarks.hold.return ?? '-'}): excess ${m.pnlVsHold} ${v} (return ${m.excessReturn.vsHold ?? '-'})`,
    `  max drawdown ${m.maxDrawdown.amount} ${v} (${m.maxDrawdown.fraction ?? '-'}, ${m.maxDrawdown.durationSeconds ?? '-'} s${m.maxDrawdown.recovered ? '' : ', not recovered'}), Sharpe ${m.ratios.sharpeAnnualised ?? '-'} / Sortino ${m.ratios.sortinoAnnualised ?? '-'} (annualised from ${m.ratios.sampleSeconds} s returns), Calmar ${m.ratios.calmar ?? '-'}, fees ${m.fees.valued} ${v} (${Object.entries(m.fees.byAsset).map(([a, q]) => `${q} ${a}`).join(', ') || 'none'})`,
    `  holding the opening balances: max drawdown ${m.benchmarks.hold.maxDrawdown.amount} ${v} (${m.benchmarks.hold.maxDrawdown.fraction ?? '-'}), Sharpe ${m.benchmarks.hold.sharpeAnnualised ?? '-'} / Sortino ${m.benchmarks.hold.sortinoAnnualised ?? '-'}`,
    `  round trips ${m.trades.roundTrips} (win rate ${m.trades.winRate ?? '-'}, profit factor ${m.trades.profitFactor ?? '-'}, average ${m.trades.averagePnl ?? '-'} ${v}${m.trades.openAtEnd ? ', one open at the end' : ''}), exposure ${m.trades.exposure ?? '-'}`,
    `  account ${Object.entries(summary.balances.start).map(([a, q]) => `${q} ${a}`).join(', ') || 'empty'} (${summary.account.balancesSource}${summary.account.unfunded.length === 0 ? '' : `; not funded, no price on this run: ${summary.account.unfunded.join(', ')}`}), fees ${feesText(summary.account.fees)}`,
    `  orders ${m.orders.accepted ?? 0} accepted, fills ${m.makerTaker.makerFills + m.makerTaker.takerFills} (maker ${m.makerTaker.makerFills}, taker ${m.makerTaker.takerFills}), fill ratio ${m.fillRatio.orders ?? '-'}, turnover ${m.turnover.volume} ${v}; requests ${summary.requests.total}, refused ${summary.requests.refused}`,
    `  markouts (bps, volume-weighted): ${markouts}`,
    ...(summary.futures === undefined ? [] : futuresLines(summary.futures)),
    `  journal: ${summary.journal.entries.toLocaleString('en-US')} entries, sha256 ${summary.journal.sha256}${summary.journal.file === null ? '' : ` (${summary.journal.file}: sha256 ${summary.journal.fileSha256})`}`,
  ];
}


/** A futures run's line per perpetual and its margin line (summary.json `futures`). */
function futuresLines(f: NonNullable<BacktestSummary['futures']>): string[] {
  return [
    ...f.symbols.map(
      (s) =>
        `  futures ${s.symbol}: position ${s.positionAmt} (entry ${s.entryPrice}, mark ${s.markPrice}), unrealized ${s.unrealizedProfit}, realized ${s.realizedPnl}, commission ${s.commission}, funding received ${s.fundingReceived} / paid ${s.fundingPaid} ${f.marginAsset} (${s.fundings} settlements), liquidations ${s.liquidations}; fees maker ${s.makerCommissionRate}, taker ${s.takerCommissionRate}`,
    ),
    `  futures margin: max used ${f.maxMarginUsed} ${f.marginAsset}, margin calls ${f.marginCalls}, liquidations ${f.liquidations}, insurance fund ${f.insuranceFund} ${f.marginAsset}`,
  ];
}

/** Recorded depth's counts, when there is any: what a user should know happened to the data. */
function depthText(depth: BacktestSummary['market']['depth']): string {
  if (depth === undefined) return '';
  return Object.entries(depth)
    .map(([symbol, d]) => `; ${symbol} ${d.messages.toLocaleString('en-US')} depth messages${d.crossedLevelsDropped > 0 ? `, ${d.crossedLevelsDropped} stale crossed levels dropped` : ''}${d.updatesBeforeSnapshot > 0 ? `, ${d.updatesBeforeSnapshot} updates before a snapshot skipped` : ''}`)
    .join('');
}

/** The headline's first line: what was run on what. */
function runLine(name: string, symbols: readonly string[], from: string, to: string, source: BacktestSummary['market']['source'], fillModel: string, seed: string): string {
  return `backtest ${name} on ${symbols.join(',')} ${from} .. ${to} from ${sourceText(source)} (fill model ${fillModel}, seed ${seed})`;
}

/**
 * The headline's first line as known before the replay (runBacktest's `onStart`): the command line
 * prints it first, so a run says what it runs at once rather than at its end.
 */
export function startLine(start: BacktestStart): string {
  return runLine(start.strategyName, start.symbols, formatUtcMicros(start.from), formatUtcMicros(start.to), sourceOf(start.sources), start.fillModel, start.seed);
}

function sourceText(source: BacktestSummary['market']['source']): string {
  const text = typeof source === 'string' ? source : Object.entries(source).map(([symbol, s]) => `${symbol} ${s}`).join(', ');
  return text.includes('klines:') ? `${text} (prints along an intra-bar path: see fills.csv)` : text;
}

function feesText(fees: FeeSchedule): string {
  const rates = `maker ${fees.effectiveMaker}, taker ${fees.effectiveTaker}`;
  return `${fees.tier ?? 'custom'} ${rates}${fees.bnbDiscount ? ` (BNB discount: 25% off ${fees.maker}/${fees.taker})` : ''} (${fees.source})`;
}
