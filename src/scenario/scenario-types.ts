/**
 * The scenario file format in TypeScript (scenarios/schema.json is the authority; a file is
 * validated against it before these types are trusted).
 */
import type { RateLimit } from '../api-facade/index.ts';
import type { EngineConfig } from '../engine/index.ts';

export interface ScenarioAccount {
  readonly name: string;
  readonly apiKey?: string;
  readonly secret?: string;
  readonly balances: Readonly<Record<string, string>>;
  readonly commission?: { readonly maker?: string; readonly taker?: string };
  readonly tradeGroupId?: number;
  readonly ip?: string;
}

export type ScenarioData =
  | { readonly kind: 'none' }
  | { readonly kind: 'sample'; readonly symbols?: readonly string[] }
  | {
      readonly kind: 'synthetic';
      readonly symbol: string;
      readonly seed: string | number;
      readonly startPrice?: string;
      readonly hours?: number;
      readonly tradesPerDay?: number;
      readonly dailyVolatility?: number;
      readonly medianQty?: string;
    }
  | { readonly kind: 'files'; readonly dir: string; readonly symbols?: readonly string[] };

export interface ScenarioRequest {
  readonly as: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly params?: Readonly<Record<string, string | number | boolean>>;
  readonly timestampOffsetMs?: number;
  readonly ip?: string;
}

export interface ScenarioOutcome {
  readonly status?: number;
  readonly code?: number;
  readonly msg?: string;
  readonly json?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly balances?: Readonly<Record<string, Readonly<Record<string, { readonly free?: string; readonly locked?: string }>>>>;
  readonly orders?: readonly {
    readonly account: string;
    readonly symbol: string;
    readonly orderId?: number | string;
    readonly clientOrderId?: string;
    readonly status?: string;
    readonly executedQty?: string;
  }[];
  readonly fills?: Readonly<Record<string, number>>;
  readonly events?: Readonly<Record<string, number>>;
  readonly fillReasons?: readonly string[];
  readonly journalSha256?: string;
}

export interface ScenarioStep {
  readonly note?: string;
  readonly at?: string;
  readonly advance?: string;
  readonly request?: ScenarioRequest;
  readonly repeat?: number;
  readonly expect?: ScenarioOutcome;
  readonly save?: Readonly<Record<string, string>>;
}

export interface Scenario {
  readonly name: string;
  readonly description?: string;
  readonly market?: {
    readonly symbols?: readonly string[];
    readonly config?: EngineConfig;
    readonly symbolOverrides?: Readonly<Record<string, Record<string, unknown>>>;
    readonly rateLimits?: readonly RateLimit[];
  };
  readonly accounts: readonly ScenarioAccount[];
  readonly data?: ScenarioData;
  readonly clock?: { readonly start?: string };
  readonly marketModel?: { readonly fillModel?: string; readonly seed?: string | number; readonly latency?: string; readonly syntheticBook?: boolean };
  readonly faults?: { readonly engineTimeoutProbability?: number; readonly firewall?: boolean; readonly seed?: string | number };
  readonly steps: readonly ScenarioStep[];
  readonly expect?: ScenarioOutcome;
}
