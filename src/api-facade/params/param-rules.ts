/**
 * Cross-parameter rules an endpoint row attaches to its schema: which parameters go together,
 * which exclude each other, which are required or refused given the others. A rule sees the
 * parsed values (a parameter is "sent" when its value is defined) and throws the first error.
 *
 * Codes: -1128 for combinations (three wire variants, see param-errors.ts), -1102 for a missing
 * conditional or either-or parameter, -1106 for a parameter the other values make unwelcome.
 * Rules run after every parameter has been read and after the unread-parameter check (-1104):
 * a LIMIT order sent with a misspelt `timeInforce` answers -1104, not -1102 for timeInForce
 * (binance-connector-python#172), so conditional requirements come after the read phase.
 */
import { paramErrors } from './param-errors.ts';
import type { ParsedSoFar } from './param-types.ts';

export type ParamRule = (values: ParsedSoFar) => void;

const sent = (values: ParsedSoFar, name: string): boolean => values[name] !== undefined;

/** At most one of `names` (-1128 "Combination of optional parameters invalid."), e.g. symbol vs symbols. */
export function exclusive(...names: readonly string[]): ParamRule {
  return (values) => {
    if (names.filter((n) => sent(values, n)).length > 1) throw paramErrors.badCombination();
  };
}

/** Both or neither of a pair (-1128 "... Recommendation: 'a' and 'b' must both be sent."). */
export function bothOrNeither(a: string, b: string): ParamRule {
  return (values) => {
    if (sent(values, a) !== sent(values, b)) throw paramErrors.mustBothBeSent(a, b);
  };
}

/** All or none of a group (-1128 "Fields [a, b] must be sent together or omitted entirely."). */
export function allOrNone(...names: readonly string[]): ParamRule {
  return (values) => {
    const count = names.filter((n) => sent(values, n)).length;
    if (count > 0 && count < names.length) throw paramErrors.sendTogether(names);
  };
}

/** At least one of a pair (-1102 "Param 'a' or 'b' must be sent, but both were empty/null!"). */
export function eitherRequired(a: string, b: string): ParamRule {
  return (values) => {
    if (!sent(values, a) && !sent(values, b)) throw paramErrors.eitherRequired(a, b);
  };
}

/** `name` is mandatory when `when` holds (-1102), e.g. price for a LIMIT order. */
export function requiredWhen(name: string, when: (values: ParsedSoFar) => boolean): ParamRule {
  return (values) => {
    if (!sent(values, name) && when(values)) throw paramErrors.mandatory(name);
  };
}

/** `name` is refused when `when` holds (-1106 "Parameter '%s' sent when not required."), e.g. timeInForce on MARKET. */
export function notAllowedWhen(name: string, when: (values: ParsedSoFar) => boolean): ParamRule {
  return (values) => {
    if (sent(values, name) && when(values)) throw paramErrors.notRequired(name);
  };
}

/**
 * Only the listed combinations of the optional `names` (-1128 otherwise), as the spec's tables of
 * supported parameter combinations give them: each combination is the names sent, in `names`'
 * order, joined with '+' ('' for none of them). Parameters not in `names` are free.
 */
export function supportedCombinations(names: readonly string[], combinations: readonly string[]): ParamRule {
  const supported = new Set(combinations);
  return (values) => {
    if (!supported.has(names.filter((name) => sent(values, name)).join('+'))) throw paramErrors.badCombination();
  };
}

/** Any other invalid combination (-1128, plain form), e.g. allOrderList's fromId with startTime. */
export function invalidWhen(when: (values: ParsedSoFar) => boolean): ParamRule {
  return (values) => {
    if (when(values)) throw paramErrors.badCombination();
  };
}
