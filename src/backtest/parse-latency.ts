/**
 * `--latency SPEC`, one distribution for the three legs (entry, cancel, ack):
 *   none                       calls are answered at once (the default)
 *   5ms | 800us | 0.2s         constant
 *   normal:5ms,1ms             mean, standard deviation (truncated at 0)
 *   lognormal:2ms,0.5          median, sigma (the right tail of real round trips)
 * Durations take a unit (us, ms, s): a bare number is refused rather than guessed.
 */
import type { LatencyConfig, LatencyDistribution } from '../sim/index.ts';
import { InputError } from './input-error.ts';

function micros(text: string, spec: string): number {
  const match = /^(\d+(?:\.\d+)?)(us|µs|ms|s)?$/.exec(text.trim());
  if (match === null) throw new InputError(`--latency: "${text}" is not a duration (e.g. 5ms, 800us) in "${spec}"`);
  const n = Number(match[1]);
  const unit = match[2];
  if (unit === undefined) throw new InputError(`--latency: "${text}" needs a unit: ${text}ms, ${text}us or ${text}s`);
  return Math.round(n * (unit === 's' ? 1_000_000 : unit === 'ms' ? 1000 : 1));
}

/** undefined for `none`. */
export function parseLatency(spec: string): LatencyConfig | undefined {
  if (spec === 'none' || spec === '') return undefined;
  const [kind, rest] = spec.includes(':') ? [spec.slice(0, spec.indexOf(':')), spec.slice(spec.indexOf(':') + 1)] : ['constant', spec];
  const args = rest.split(',');
  let distribution: LatencyDistribution;
  if (kind === 'constant' && args.length === 1) distribution = { kind: 'constant', micros: micros(args[0]!, spec) };
  else if (kind === 'normal' && args.length === 2) distribution = { kind: 'normal', mean: micros(args[0]!, spec), stdDev: micros(args[1]!, spec) };
  else if (kind === 'lognormal' && args.length === 2) {
    const sigma = Number(args[1]);
    if (!(sigma >= 0 && sigma < 5)) throw new InputError(`--latency: lognormal sigma must be 0..5, got "${args[1]}"`);
    distribution = { kind: 'lognormal', median: micros(args[0]!, spec), sigma };
  } else throw new InputError(`--latency must be none, a duration (5ms), normal:MEAN,STD or lognormal:MEDIAN,SIGMA; got "${spec}"`);
  return { entry: distribution, cancel: distribution, ack: distribution };
}
