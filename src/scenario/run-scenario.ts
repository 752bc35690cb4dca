/**
 * Runs one scenario: builds the exchange it describes (a Replay over its data, or a pure
 * exchange), plays its steps at their simulated times through the in-process REST client, and
 * checks every expectation. Returns the failures as one line each (empty: it passed) plus the
 * journal hash, which is the same on every run and machine.
 *
 * Time: a step's `at` (+duration from the start, or an absolute UTC time) or `advance` replays
 * the tape up to that time first, so a resting order meets every print before the step. Time
 * never runs backwards: a step that would go back is a mistake in the file (InputError).
 * Accounts get ids 1, 2, ... in file order; the synthetic book (if asked for) is no account: it
 * lives in the engine (SetSyntheticBook).
 */
import { Decimal } from 'decimal.js';
import { ExchangeContext, InProcessClient, type ClientResponse } from '../api-facade/index.ts';
import { InputError, JournalFile, openMarketData, windowedTape, parseTime, FILL_MODELS, makeFillModel, type FillModelName } from '../backtest/index.ts';
import { generateTradeBatches } from '../data/index.ts';
import { type CreateAccount, type EngineCommand, type EngineEvent, type EngineConfig, type SymbolConfig, Engine, formatUnits, parseUnits } from '../engine/index.ts';
import { SAMPLE_CONFIG } from '../sample/index.ts';
import { Replay, SyntheticBook, type JournalSink, type MarketDecision, type TapeInput } from '../sim/index.ts';
import type { Scenario, ScenarioOutcome } from './scenario-types.ts';
import { subsetMismatch, valueAt } from './subset-match.ts';

const DEFAULT_START = '2024-01-01';
const HOUR = 3_600_000_000;

export interface ScenarioResult {
  readonly name: string;
  readonly failures: readonly string[];
  readonly steps: number;
  readonly journalSha256: string;
}

/** Counts events by type and keeps market fills' reasons, beside the hashed journal. */
class ScenarioJournal implements JournalSink {
  readonly file = new JournalFile(null);
  readonly counts = new Map<string, number>();
  readonly fillReasons: string[] = [];

  record(command: EngineCommand, events: readonly EngineEvent[]): void {
    this.file.record(command, events);
    for (const e of events) {
      this.counts.set(e.type, (this.counts.get(e.type) ?? 0) + 1);
      if (e.type === 'OrderFilledByMarket') this.fillReasons.push(e.reason);
    }
  }

  decision(decision: MarketDecision): void {
    this.file.decision(decision);
  }
}

function durationMicros(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(us|ms|s|m|h)$/.exec(text);
  if (match === null) throw new InputError(`"${text}" is not a duration (e.g. 500ms, 5s, 2m)`);
  const unit = { us: 1, ms: 1000, s: 1_000_000, m: 60_000_000, h: HOUR }[match[2] as 'us' | 'ms' | 's' | 'm' | 'h'];
  return Math.round(Number(match[1]) * unit);
}

function engineConfig(scenario: Scenario, dataSymbols: readonly string[] | undefined): EngineConfig {
  const base = scenario.market?.config ?? SAMPLE_CONFIG;
  const keep = scenario.market?.symbols ?? dataSymbols;
  const overrides = scenario.market?.symbolOverrides ?? {};
  const symbols = base.symbols
    .filter((s) => keep === undefined || keep.includes(s.symbol))
    .map((s) => (overrides[s.symbol] === undefined ? s : ({ ...s, ...overrides[s.symbol] } as SymbolConfig)));
  for (const name of [...(keep ?? []), ...Object.keys(overrides)]) {
    if (!base.symbols.some((s) => s.symbol === name)) throw new InputError(`unknown symbol ${name}: the market has ${base.symbols.map((s) => s.symbol).join(', ')}`);
  }
  const config = { ...base, symbols };
  try {
    new Engine(config);
  } catch (error) {
    throw new InputError(`market: ${error instanceof Error ? error.message : String(error)}`);
  }
  return config;
}

async function tapesOf(scenario: Scenario, start: number, config: EngineConfig): Promise<{ tapes: TapeInput[]; symbols?: readonly string[] }> {
  const data = scenario.data ?? { kind: 'none' };
  switch (data.kind) {
    case 'none':
      return { tapes: [] };
    case 'sample':
    case 'files': {
      const market = openMarketData(data.kind === 'sample' ? 'sample' : data.dir);
      const symbols = data.symbols ?? [market.config.symbols[0]!.symbol];
      const tapes: TapeInput[] = [];
      for (const symbol of symbols) tapes.push(await windowedTape(market, symbol, start, Number.MAX_SAFE_INTEGER));
      return { tapes, symbols };
    }
    case 'synthetic': {
      const spec = new Engine(config).symbolSpec(data.symbol);
      if (spec === undefined) throw new InputError(`data: unknown symbol ${data.symbol}`);
      const units = (text: string | undefined, fallback: string, precision: number) => parseUnits(text ?? fallback, precision) ?? 0;
      const trades = generateTradeBatches({
        symbol: data.symbol,
        seed: data.seed,
        scale: { quotePrecision: spec.quotePrecision, basePrecision: spec.basePrecision },
        tickSize: spec.tickUnits,
        stepSize: spec.stepUnits,
        startPrice: units(data.startPrice, '42000', spec.quotePrecision),
        startTime: start,
        endTime: start + Math.round((data.hours ?? 1) * HOUR),
        tradesPerDay: data.tradesPerDay ?? 60_000,
        dailyVolatility: data.dailyVolatility ?? 0.02,
        medianQty: units(data.medianQty, '0.0008', spec.basePrecision),
        firstTradeId: 1,
        timeUnit: 'ms',
      });
      return { tapes: [{ symbol: data.symbol, trades }], symbols: [data.symbol] };
    }
  }
}

const RATE_SCALE = 100_000_000;

export async function runScenario(scenario: Scenario, file: string): Promise<ScenarioResult> {
  const start = parseTime(scenario.clock?.start ?? DEFAULT_START, `${file}: clock.start`);
  const dataSymbols = scenario.data?.kind === 'synthetic' ? [scenario.data.symbol] : scenario.data?.kind === 'sample' || scenario.data?.kind === 'files' ? scenario.data.symbols : undefined;
  const config = engineConfig(scenario, dataSymbols);
  const { tapes } = await tapesOf(scenario, start, config);
  const fillModel = (scenario.marketModel?.fillModel ?? 'queue') as FillModelName;
  if (!(FILL_MODELS as readonly string[]).includes(fillModel)) throw new InputError(`unknown fill model ${fillModel}`);
  const journal = new ScenarioJournal();
  const replay = new Replay({ engine: config, tapes, fillModel: makeFillModel(fillModel), seed: String(scenario.marketModel?.seed ?? 1), startTime: start, journal });

  const ids = new Map<string, number>();
  scenario.accounts.forEach((account, i) => {
    if (ids.has(account.name)) throw new InputError(`account ${account.name} is named twice`);
    ids.set(account.name, i + 1);
    const balances: Record<string, number> = {};
    for (const [asset, text] of Object.entries(account.balances)) {
      const precision = config.assets?.find((a) => a.asset === asset)?.precision ?? 8;
      const n = parseUnits(text, precision);
      if (n === null) throw new InputError(`account ${account.name}: balance ${asset} "${text}" has more than ${precision} decimals`);
      balances[asset] = n;
    }
    const rate = (text: string | undefined) => Math.round(Number(text ?? '0.001') * RATE_SCALE);
    const command: Omit<CreateAccount, 'time'> = {
      type: 'CreateAccount',
      accountId: i + 1,
      balances,
      standardCommission: { maker: rate(account.commission?.maker), taker: rate(account.commission?.taker), buyer: 0, seller: 0 },
      ...(account.tradeGroupId === undefined ? {} : { tradeGroupId: account.tradeGroupId }),
    };
    replay.apply(command);
  });
  if (scenario.marketModel?.syntheticBook === true) {
    const symbols = Object.fromEntries(tapes.map((t) => [t.symbol, { levels: 10, spreadTicks: [1, 3] as const, baseQty: 1000 * replay.engine.symbolSpec(t.symbol)!.stepUnits }]));
    await SyntheticBook.attach(replay, { symbols });
  }
  const ctx = new ExchangeContext({
    backend: replay,
    apiKeys: scenario.accounts.map((a, i) => ({ apiKey: a.apiKey ?? a.name, keyType: 'HMAC' as const, secretKey: a.secret ?? `${a.name}-secret`, accountId: i + 1 })),
    ...(scenario.market?.rateLimits === undefined ? {} : { rateLimits: scenario.market.rateLimits }),
    ...(scenario.faults === undefined ? {} : { faults: scenario.faults }),
  });
  const clients = new Map<string, InProcessClient>();
  const clientFor = (as: string, ip: string | undefined): InProcessClient => {
    const account = scenario.accounts.find((a) => a.name === as);
    if (account === undefined && as !== 'public') throw new InputError(`request as "${as}": no such account (accounts: ${scenario.accounts.map((a) => a.name).join(', ')}, or public)`);
    const index = account === undefined ? 250 : ids.get(as)!;
    const address = ip ?? account?.ip ?? `10.0.0.${index}`;
    const key = `${as}@${address}`;
    let client = clients.get(key);
    if (client === undefined) {
      client = new InProcessClient(ctx, { ...(account === undefined ? {} : { apiKey: account.apiKey ?? account.name }), ip: address });
      clients.set(key, client);
    }
    return client;
  };

  const failures: string[] = [];
  const saved = new Map<string, unknown>();
  const substitute = (value: string | number | boolean): string | number | boolean => {
    if (typeof value !== 'string' || !value.startsWith('$')) return value;
    const name = value.slice(1);
    if (!saved.has(name)) throw new InputError(`${value}: nothing saved under that name yet`);
    return saved.get(name) as string | number | boolean;
  };

  let index = 0;
  for (const step of scenario.steps) {
    index++;
    const label = `step ${index}${step.note !== undefined ? ` (${step.note})` : step.request !== undefined ? ` (${step.request.method} ${step.request.path})` : ''}`;
    const target = step.at !== undefined ? (step.at.startsWith('+') ? start + durationMicros(step.at.slice(1)) : parseTime(step.at, `${label}: at`)) : step.advance !== undefined ? replay.now + durationMicros(step.advance) : replay.now;
    if (target < replay.now) throw new InputError(`${label}: time would run backwards (to ${step.at ?? step.advance})`);
    await replay.runUntil(target);
    let response: ClientResponse | undefined;
    if (step.request !== undefined) {
      const request = step.request;
      const params: Record<string, string | number | boolean> = {};
      for (const [k, v] of Object.entries(request.params ?? {})) params[k] = substitute(v);
      if (request.timestampOffsetMs !== undefined) params.timestamp = Math.floor(replay.now / 1000) + request.timestampOffsetMs;
      const client = clientFor(request.as, request.ip);
      for (let n = 0; n < (step.repeat ?? 1); n++) response = client.request(request.method, request.path, params);
    }
    if (step.expect !== undefined) for (const f of checkOutcome(step.expect, response, replay, ids, journal, substitute)) failures.push(`${label}: ${f}`);
    for (const [name, path] of Object.entries(step.save ?? {})) {
      const value = valueAt(response?.json, path);
      if (value === undefined) failures.push(`${label}: save ${name}: the response has no ${path}`);
      else saved.set(name, value);
    }
  }
  if (scenario.expect !== undefined) for (const f of checkOutcome(scenario.expect, undefined, replay, ids, journal, substitute)) failures.push(`end: ${f}`);
  replay.engine.checkInvariants();
  return { name: scenario.name, failures, steps: scenario.steps.length, journalSha256: journal.file.hash() };
}

/** The expected JSON with every "$name" string replaced by the value saved under that name. */
function resolveSaved(value: unknown, substitute: (v: string | number | boolean) => string | number | boolean): unknown {
  if (typeof value === 'string') return substitute(value);
  if (Array.isArray(value)) return value.map((v) => resolveSaved(v, substitute));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveSaved(v, substitute)]));
  return value;
}

function sameDecimal(a: string, b: string): boolean {
  return new Decimal(a).eq(new Decimal(b));
}

function checkOutcome(
  outcome: ScenarioOutcome,
  response: ClientResponse | undefined,
  replay: Replay,
  ids: ReadonlyMap<string, number>,
  journal: ScenarioJournal,
  substitute: (v: string | number | boolean) => string | number | boolean,
): string[] {
  const failures: string[] = [];
  const engine = replay.engine;
  const body = response?.json as { code?: unknown; msg?: unknown } | undefined;
  const needResponse = outcome.status !== undefined || outcome.code !== undefined || outcome.msg !== undefined || outcome.json !== undefined || outcome.headers !== undefined;
  if (needResponse && response === undefined) failures.push('expects a response but the step sends no request');
  if (response !== undefined) {
    if (outcome.status !== undefined && response.status !== outcome.status) failures.push(`status: expected ${outcome.status}, got ${response.status} ${response.body.slice(0, 160)}`);
    if (outcome.code !== undefined && body?.code !== outcome.code) failures.push(`code: expected ${outcome.code}, got ${String(body?.code)} (${String(body?.msg ?? response.body.slice(0, 120))})`);
    if (outcome.msg !== undefined && body?.msg !== outcome.msg) failures.push(`msg: expected ${JSON.stringify(outcome.msg)}, got ${JSON.stringify(body?.msg)}`);
    if (outcome.json !== undefined) {
      const m = subsetMismatch(resolveSaved(outcome.json, substitute), response.json);
      if (m !== null) failures.push(m);
    }
    for (const [name, value] of Object.entries(outcome.headers ?? {})) {
      const actual = Object.entries(response.headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
      if (actual !== value) failures.push(`header ${name}: expected ${JSON.stringify(value)}, got ${JSON.stringify(actual)}`);
    }
  }
  for (const [name, assets] of Object.entries(outcome.balances ?? {})) {
    const id = ids.get(name);
    const view = id === undefined ? undefined : engine.account(id);
    if (view === undefined) {
      failures.push(`balances: no account ${name}`);
      continue;
    }
    for (const [asset, want] of Object.entries(assets)) {
      const b = view.balances.find((x) => x.asset === asset) ?? { free: 0, locked: 0 };
      const precision = engine.config.assets?.find((a) => a.asset === asset)?.precision ?? 8;
      for (const field of ['free', 'locked'] as const) {
        const expected = want[field];
        if (expected !== undefined && !sameDecimal(formatUnits(b[field], precision), expected)) failures.push(`balance ${name} ${asset} ${field}: expected ${expected}, got ${formatUnits(b[field], precision)}`);
      }
    }
  }
  for (const want of outcome.orders ?? []) {
    const id = ids.get(want.account);
    const orderId = want.orderId === undefined ? undefined : Number(substitute(want.orderId));
    const ref = orderId !== undefined ? { orderId } : { clientOrderId: want.clientOrderId ?? '' };
    const order = id === undefined ? undefined : engine.getOrder(id, want.symbol, ref);
    const what = `order ${want.account} ${want.symbol} ${orderId ?? want.clientOrderId}`;
    if (order === undefined) {
      failures.push(`${what}: no such order`);
      continue;
    }
    if (want.status !== undefined && order.status !== want.status) failures.push(`${what} status: expected ${want.status}, got ${order.status}`);
    const basePrecision = engine.symbolSpec(want.symbol)!.basePrecision;
    if (want.executedQty !== undefined && !sameDecimal(formatUnits(order.executedQty, basePrecision), want.executedQty)) {
      failures.push(`${what} executedQty: expected ${want.executedQty}, got ${formatUnits(order.executedQty, basePrecision)}`);
    }
  }
  for (const [name, count] of Object.entries(outcome.fills ?? {})) {
    const id = ids.get(name);
    const actual = id === undefined ? 0 : engine.symbolNames().reduce((n, s) => n + engine.accountTrades(id, s).length, 0);
    if (actual !== count) failures.push(`fills of ${name}: expected ${count}, got ${actual}`);
  }
  for (const [type, count] of Object.entries(outcome.events ?? {})) {
    const actual = journal.counts.get(type) ?? 0;
    if (actual !== count) failures.push(`${type} events: expected ${count}, got ${actual}`);
  }
  if (outcome.fillReasons !== undefined) {
    const actual = journal.fillReasons;
    if (actual.length < outcome.fillReasons.length) failures.push(`market fills: expected at least ${outcome.fillReasons.length}, got ${actual.length}`);
    outcome.fillReasons.forEach((prefix, i) => {
      if (actual[i] !== undefined && !actual[i]!.startsWith(prefix)) failures.push(`market fill ${i + 1} reason: expected "${prefix}...", got "${actual[i]}"`);
    });
  }
  if (outcome.journalSha256 !== undefined && journal.file.hash() !== outcome.journalSha256) failures.push(`journal sha256: expected ${outcome.journalSha256}, got ${journal.file.hash()}`);
  return failures;
}
