/**
 * The futures market model: USDⓈ-M and COIN-M contracts derived from the spot market, with a
 * seeded basis, a funding model and a seeded positions model (see each file's header).
 *
 * Rules of this module: pure and deterministic. Time arrives as `asOf`/`t` (µs); the only inputs
 * are the spot histories (read as of t, so nothing stamped after t reaches an answer) and the
 * seed; randomness only from seedrandom streams named after the seed; no clock, timers or I/O;
 * money in integer units (BigInt where products pass 2^53). Imports engine types and the data
 * history only; the API facade formats what it returns.
 */
export { CONTRACT_TYPES, USD_QUOTES, derivePairs, type ContractType, type FuturesContract, type FuturesPair, type Venue } from './contracts.ts';
export { FuturesMarket, type FuturesMarketOptions } from './futures-market.ts';
export { PremiumModel } from './premium.ts';
export { estimatedFundingRate, fundingRateAt, fundingTimeAtOrBefore, fundingTimesBetween, interestRateFor, nextFundingTime } from './funding.ts';
export { FUNDING_INTERVALS, FundingSchedule, type FundingSetup, type RecordedFunding } from './funding-schedule.ts';
export { PositionsModel, type AdlRisk, type RatioKind } from './positions.ts';
export { baseForContracts, contractKline, contractPrice, contractsFor, toAggTrade, toPrint, transformKline, type FuturesAggTrade, type FuturesKline, type FuturesPrint } from './futures-prints.ts';
export { deliveriesBetween, deliveryAfter, deliveryBefore, deliveryOf, deliverySuffix } from './quarter-calendar.ts';
export { applyRate, rateBetween, roundToTick } from './price-math.ts';
export * as futuresParameters from './model-parameters.ts';
export { scheduleWindow, sessionsBetween, type ScheduledMarket, type Session, type SessionType } from './trading-schedule.ts';
export { futuresSymbolConfig, bracketsOf, BTCUSDT_LADDER, ETHUSDT_LADDER, DEFAULT_LADDER, DEFAULT_MAKER_RATE, DEFAULT_TAKER_RATE, type Ladder, type ContractRuleOptions } from './trading/contract-rules.ts';
export { FUTURES_REJECT_CODES, FUTURES_CODE_OF_SHARED, fapiErrorOf, type FapiError } from './trading/futures-reject-codes.ts';
export { AlgoOrderBook, deviationPpm, isOpen as isOpenAlgoOrder, MAX_OPEN_ALGO_ORDERS, protectPpm, type TriggerProtection, type AlgoBookSnapshot, type AlgoOrder, type AlgoOrderType, type AlgoRequest, type AlgoStatus, type PlaceRefusal, type WorkingType } from './trading/algo-orders.ts';
export { DERIVED_FUTURES_SOURCE, derivedFuturesTape } from './trading/derived-futures-tape.ts';
export { futuresDumpTape, futuresPrintsText, type FuturesDumpTape } from './trading/futures-tape.ts';
export { MARK_PERIOD_US, startFuturesClock, type FuturesClockHost, type FuturesClockStats } from './trading/futures-clock.ts';
