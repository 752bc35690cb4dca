/**
 * `--book`: the synthetic book (symbols without recorded depth) as a user writes it. `off`, or
 * comma-separated key=value pairs over the defaults
 * `model=flow,levels=10,spread=1-3,gap=1,size=1000,growth=1.5,jitter=0.25,rate=40`:
 * the model (`flow`: the order-flow book that lives between prints, src/engine/liquidity/
 * order-flow.ts; `ladder`: the static ladder drawn anew at each print, synthetic-ladder.ts),
 * levels a side, spread in ticks (one number or min-max), ticks between levels, size of the best
 * level as a multiple of the symbol's minimum quantity (LOT_SIZE minQty, else its step), growth
 * per level away from the touch, relative size jitter in [0, 1), and for `flow` the events per
 * simulated second. The engine's profiles are in units; `bookProfileFor` converts per symbol.
 */
import type { SymbolSpec } from '../engine/index.ts';
import type { SyntheticBookProfile } from '../sim/index.ts';
import { InputError } from './input-error.ts';

export const DEFAULT_BOOK = 'model=flow,levels=10,spread=1-3,gap=1,size=1000,growth=1.5,jitter=0.25,rate=40';

/** A parsed `--book`: null when off. */
export interface BookSetting {
  readonly model: 'flow' | 'ladder';
  readonly levels: number;
  readonly spreadTicks: readonly [number, number];
  readonly gapTicks: number;
  /** Multiple of the symbol's minimum quantity at the best level. */
  readonly size: number;
  readonly growth: number;
  readonly jitter: number;
  /** flow: events per simulated second. */
  readonly rate: number;
}

const KEYS = ['model', 'levels', 'spread', 'gap', 'size', 'growth', 'jitter', 'rate'] as const;

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
  const model = values['model'];
  if (model !== 'flow' && model !== 'ladder') throw new InputError(`--book: model must be flow or ladder, got "${model}"`);
  const rate = Number(values['rate']);
  if (!(Number.isFinite(rate) && rate >= 0 && rate <= 100_000)) throw new InputError(`--book: rate must be events per second in [0, 100000], got "${values['rate']}"`);
  return { model, levels, spreadTicks: [spreadMin!, spreadMax!], gapTicks: integer('gap', 1), size: positive('size'), growth: positive('growth'), jitter, rate };
}

/** The replay's profile of `setting` for one symbol (sizes in its base units). */
export function bookProfileFor(setting: BookSetting, spec: SymbolSpec): SyntheticBookProfile {
  const minQty = Math.max(spec.stepUnits, spec.lotSize?.min ?? spec.stepUnits);
  return {
    levels: setting.levels,
    spreadTicks: setting.spreadTicks,
    gapTicks: setting.gapTicks,
    baseQty: Math.max(1, Math.round(minQty * setting.size)),
    growth: setting.growth,
    jitter: setting.jitter,
    ...(setting.model === 'flow' ? { flow: { rate: setting.rate } } : {}),
  };
}

/** `setting` written back as `--book` takes it (every key, in order). */
export function bookText(setting: BookSetting): string {
  const [min, max] = setting.spreadTicks;
  return `model=${setting.model},levels=${setting.levels},spread=${min === max ? min : `${min}-${max}`},gap=${setting.gapTicks},size=${setting.size},growth=${setting.growth},jitter=${setting.jitter}${setting.model === 'flow' ? `,rate=${setting.rate}` : ''}`;
}
