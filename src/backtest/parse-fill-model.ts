/**
 * `--fill-model`: how resting orders fill. `queue` (risk-averse queue position: on a recorded
 * book read from the book, else estimated from print sizes), `queue-probabilistic[:SHAPE]` (on a
 * recorded book a level's unexplained decrease advances the queue by its expected share under
 * SHAPE, one of hftbacktest's families: `power:N`, `power2:N`, `power3:N` (default power3:3),
 * `log`, `log2`; on prints alone a seeded draw per print), `trade-through`, `touch`.
 */
import { DEFAULT_QUEUE_SHAPE, QUEUE_PROBABILITY_FAMILIES, queuePosition, shapeText, touch, tradeThrough, type FillModel, type QueueProbabilityFamily, type QueueProbabilityShape } from '../sim/index.ts';
import { InputError } from './input-error.ts';

export const FILL_MODELS = ['queue', 'queue-probabilistic', 'trade-through', 'touch'] as const;
/** A base name, or `queue-probabilistic:<shape>`. */
export type FillModelName = (typeof FILL_MODELS)[number] | `queue-probabilistic:${string}`;

export interface FillModelSetting {
  readonly base: (typeof FILL_MODELS)[number];
  /** queue-probabilistic only. */
  readonly shape: QueueProbabilityShape | null;
}

export function parseFillModel(text: string): FillModelSetting {
  const [base, ...rest] = text.split(':');
  if (!(FILL_MODELS as readonly string[]).includes(base ?? '')) {
    throw new InputError(`--fill-model must be one of ${FILL_MODELS.join(', ')} (queue-probabilistic may name a shape: power:N, power2:N, power3:N, log, log2), got "${text}"`);
  }
  const name = base as (typeof FILL_MODELS)[number];
  if (rest.length === 0) return { base: name, shape: name === 'queue-probabilistic' ? DEFAULT_QUEUE_SHAPE : null };
  if (name !== 'queue-probabilistic') throw new InputError(`--fill-model: only queue-probabilistic takes a shape, got "${text}"`);
  const [family, n, extra] = rest;
  if (!(QUEUE_PROBABILITY_FAMILIES as readonly string[]).includes(family ?? '') || extra !== undefined) {
    throw new InputError(`--fill-model: the shape must be power:N, power2:N, power3:N, log or log2, got "${rest.join(':')}"`);
  }
  const isLog = family!.startsWith('log');
  if (isLog && n !== undefined) throw new InputError(`--fill-model: ${family} takes no exponent, got "${rest.join(':')}"`);
  const exponent = isLog ? 1 : Number(n);
  if (!isLog && !(Number.isFinite(exponent) && exponent > 0 && exponent <= 100)) throw new InputError(`--fill-model: ${family} needs an exponent in (0, 100], got "${n ?? ''}"`);
  return { base: name, shape: { family: family as QueueProbabilityFamily, n: exponent } };
}

/** The setting as `--fill-model` writes it (the shape spelled out for queue-probabilistic). */
export function fillModelText(setting: FillModelSetting): FillModelName {
  return setting.shape === null ? setting.base : `queue-probabilistic:${shapeText(setting.shape)}`;
}

export function makeFillModel(name: string): FillModel {
  const setting = parseFillModel(name);
  switch (setting.base) {
    case 'queue':
      return queuePosition({ variant: 'risk-averse' });
    case 'queue-probabilistic':
      return queuePosition({ variant: 'probabilistic', shape: setting.shape! });
    case 'trade-through':
      return tradeThrough();
    case 'touch':
      return touch();
  }
}
