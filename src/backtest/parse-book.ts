/**
 * `--book`: the synthetic book's depth profile as a user writes it. `off`, or comma-separated
 * key=value pairs over the defaults `levels=10,spread=1-3,gap=1,size=1000,growth=1.5,jitter=0.25`:
 * levels a side, spread in ticks (one number or min-max), ticks between levels, size of the best
 * level as a multiple of the symbol's minimum quantity (LOT_SIZE minQty, else its step), growth
 * per level away from the touch, relative size jitter in [0, 1). The engine's profile
 * (src/engine/liquidity/synthetic-ladder.ts) is in units; `bookProfileFor` converts per symbol.
 */
import type { SymbolSpec, LadderProfile } from '../engine/index.ts';
import { InputError } from './input-error.ts';

export const DEFAULT_BOOK = 'levels=10,spread=1-3,gap=1,size=1000,growth=1.5,jitter=0.25';

/** A parsed `--book`: null when off. */
export interface BookSetting {
  readonly levels: number;
  readonly spreadTicks: readonly [number, number];
  readonly gapTicks: number;
  /** Multiple of the symbol's minimum quantity at the best level. */
  readonly size: number;
  readonly growth: number;
  readonly jitter: number;
}

const KEYS = ['levels', 'spread', 'gap', 'size', 'growth', 'jitter'] as const;

export function parseBook(text: string): BookSetting | null {
  if (text.trim() === 'off') return null;
  const values: Record<string, string> = {};
  for (const part of `${DEFAULT_BOOK},${text}`.split(',')) {
    if (part.trim() === '') continue;
    const [key, value, extra] = part.split('=').map((s) => s.trim());
    if (!(KEYS as readonly string[]).includes(key ?? '') || value === undefined || value === '' || extra !== undefined) {
      throw new InputError(`--book: "${part}" is not one of ${KEYS.map((k) => `${k}=...`).join(', ')} (or "off")`);
    }
    values[key!] = value;
  }
  const integer = (key: string, min: number): number => {
    const n = Number(values[key]);
    if (!(Number.isInteger(n) && n >= min)) throw new InputError(`--book: ${key} must be an integer >= ${min}, got "${values[key]}"`);
    return n;
  };
  const positive = (key: string): number => {
    const n = Number(values[key]);
    if (!(Number.isFinite(n) && n > 0)) throw new InputError(`--book: ${key} must be a number > 0, got "${values[key]}"`);
    return n;
  };
  const spread = values['spread']!.split('-').map((s) => Number(s));
  const [spreadMin, spreadMax] = spread.length === 1 ? [spread[0]!, spread[0]!] : spread;
  if (!(spread.length <= 2 && Number.isInteger(spreadMin) && Number.isInteger(spreadMax) && spreadMin! >= 1 && spreadMax! >= spreadMin!)) {
    throw new InputError(`--book: spread must be ticks, N or MIN-MAX with 1 <= MIN <= MAX, got "${values['spread']}"`);
  }
  const jitter = Number(values['jitter']);
  if (!(jitter >= 0 && jitter < 1)) throw new InputError(`--book: jitter must be in [0, 1), got "${values['jitter']}"`);
  const levels = integer('levels', 1);
  if (levels > 5000) throw new InputError(`--book: levels must be at most 5000, got ${levels}`);
  return { levels, spreadTicks: [spreadMin!, spreadMax!], gapTicks: integer('gap', 1), size: positive('size'), growth: positive('growth'), jitter };
}

/** The engine profile of `setting` for one symbol (sizes in its base units). */
export function bookProfileFor(setting: BookSetting, spec: SymbolSpec): LadderProfile {
  const minQty = Math.max(spec.stepUnits, spec.lotSize?.min ?? spec.stepUnits);
  return {
    levels: setting.levels,
    spreadTicks: setting.spreadTicks,
    gapTicks: setting.gapTicks,
    baseQty: Math.max(1, Math.round(minQty * setting.size)),
    growth: setting.growth,
    jitter: setting.jitter,
  };
}

/** `setting` written back as `--book` takes it (every key, in order). */
export function bookText(setting: BookSetting): string {
  const [min, max] = setting.spreadTicks;
  return `levels=${setting.levels},spread=${min === max ? min : `${min}-${max}`},gap=${setting.gapTicks},size=${setting.size},growth=${setting.growth},jitter=${setting.jitter}`;
}
