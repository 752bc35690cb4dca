/**
 * The hot path of the dump loaders: reads the fields of one CSV row straight from the bytes,
 * turning canonical decimals ("42000.01000000") into integer units without creating a string or
 * going through a float. Anything it does not recognise as canonical (signs, exponents, quotes,
 * spaces, too many decimals, overflow, a wrong separator) makes it return FAILED, and the caller
 * re-reads that row on the general path (csv-parse + parseUnits), which either accepts it exactly
 * or produces the precise error. So this scanner only has to be right when it says yes.
 *
 * The caller guarantees that the bytes from `pos` on contain a line feed, so no scan runs off the
 * buffer (a typed-array read past the end would also deoptimise the loop).
 */

export const FAILED = -1;
/** What `optionalDecimal` returns for an empty field (a snapshot's missing level). */
export const ABSENT = -2;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const COMMA = 44;
const LF = 10;
const CR = 13;
const DOT = 46;
const ZERO = 48;
const NINE = 57;

/** 10^0..10^15, built by exact integer multiplication (no pow rounding to trust). */
const POW10 = new Float64Array(16);
POW10[0] = 1;
for (let i = 1; i < 16; i++) POW10[i] = POW10[i - 1]! * 10;

/** Largest precision the scanner (and exact double units) can handle. */
export const MAX_PRECISION = 15;

/** Where the number read by the last `decimalAt` / `integerAt` stopped (the byte after its digits). */
let numberEnd = 0;

export function lastNumberEnd(): number {
  return numberEnd;
}

/**
 * A non-negative decimal "123" or "123.456" starting at `p`, as units at `precision` decimals
 * (0..15). Extra decimals are accepted only when they are zeros, as parseUnits does. FAILED when
 * the text is not canonical or the units exceed 2^53 - 1; `lastNumberEnd()` says where it stopped
 * (the caller checks the separator there).
 */
export function decimalAt(buf: Uint8Array, p: number, precision: number): number {
  const whole = integerAt(buf, p);
  if (whole === FAILED) return FAILED;
  p = numberEnd;
  let c = buf[p]!;
  let fraction = 0;
  let decimals = 0;
  if (c === DOT) {
    c = buf[++p]!;
    if (c < ZERO || c > NINE) return FAILED;
    do {
      if (decimals < precision) {
        fraction = fraction * 10 + (c - ZERO);
        decimals++;
      } else if (c !== ZERO) {
        return FAILED;
      }
      c = buf[++p]!;
    } while (c >= ZERO && c <= NINE);
  }
  numberEnd = p;
  const value = whole * POW10[precision]! + fraction * POW10[precision - decimals]!;
  return value > MAX_SAFE ? FAILED : value;
}

/** A non-negative integer up to 2^53 - 1 starting at `p`, or FAILED; `lastNumberEnd()` says where it stopped. */
export function integerAt(buf: Uint8Array, p: number): number {
  let c = buf[p]!;
  if (c < ZERO || c > NINE) return FAILED;
  // While the true value stays below 2^53 every step is exact; once it passes, rounding is
  // monotone, so the final comparison with MAX_SAFE still catches the overflow.
  let value = 0;
  do {
    value = value * 10 + (c - ZERO);
    c = buf[++p]!;
  } while (c >= ZERO && c <= NINE);
  numberEnd = p;
  return value > MAX_SAFE ? FAILED : value;
}

export class FieldScanner {
  buf: Uint8Array = new Uint8Array(0);
  pos = 0;
  /** Whether the last field ended at a comma (another field follows) rather than at the line end. */
  more = false;

  /** `decimalAt` the current field, which must end after the number. */
  decimal(precision: number): number {
    const value = decimalAt(this.buf, this.pos, precision);
    return value !== FAILED && this.endField(numberEnd) ? value : FAILED;
  }

  /** `integerAt` the current field, which must end after the number. */
  integer(): number {
    const value = integerAt(this.buf, this.pos);
    return value !== FAILED && this.endField(numberEnd) ? value : FAILED;
  }

  /** True/true as 1, False/false as 0, anything else FAILED. */
  boolean(): number {
    const buf = this.buf;
    const p = this.pos;
    const c = buf[p]!;
    if ((c === 84 || c === 116) && buf[p + 1] === 114 && buf[p + 2] === 117 && buf[p + 3] === 101) {
      return this.endField(p + 4) ? 1 : FAILED;
    }
    if ((c === 70 || c === 102) && buf[p + 1] === 97 && buf[p + 2] === 108 && buf[p + 3] === 115 && buf[p + 4] === 101) {
      return this.endField(p + 5) ? 0 : FAILED;
    }
    return FAILED;
  }

  /** `decimal`, or ABSENT when the field is empty. */
  optionalDecimal(precision: number): number {
    const c = this.buf[this.pos];
    if (c === COMMA || c === LF || c === CR) return this.endField(this.pos) ? ABSENT : FAILED;
    return this.decimal(precision);
  }

  /** 0 when the field is exactly `text` (its bytes), else FAILED. */
  literal(text: Uint8Array): number {
    const buf = this.buf;
    const p = this.pos;
    for (let i = 0; i < text.length; i++) if (buf[p + i] !== text[i]) return FAILED;
    return this.endField(p + text.length) ? 0 : FAILED;
  }

  /** The index of the word the field is exactly, or FAILED. */
  choice(words: readonly Uint8Array[]): number {
    for (let w = 0; w < words.length; w++) {
      if (this.literal(words[w]!) === 0) return w;
    }
    return FAILED;
  }

  /** Skips a field whatever it holds (no quotes: a quoted field goes to the general path). */
  skipField(): number {
    const buf = this.buf;
    let p = this.pos;
    let c = buf[p]!;
    while (c !== LF && c !== COMMA && c !== CR) {
      if (c === 34) return FAILED;
      c = buf[++p]!;
    }
    return this.endField(p) ? 0 : FAILED;
  }

  /** Skips a field that is not used; it must be the last one on the line. */
  skipLast(): number {
    const buf = this.buf;
    let p = this.pos;
    let c = buf[p]!;
    while (c !== LF && c !== COMMA && c !== CR) c = buf[++p]!;
    return this.endField(p) && !this.more ? 0 : FAILED;
  }

  /** Consumes the separator after a field: a comma, or the line end (LF or CRLF). */
  private endField(p: number): boolean {
    const c = this.buf[p];
    if (c === COMMA) {
      this.pos = p + 1;
      this.more = true;
      return true;
    }
    if (c === LF) {
      this.pos = p + 1;
      this.more = false;
      return true;
    }
    if (c === CR && this.buf[p + 1] === LF) {
      this.pos = p + 2;
      this.more = false;
      return true;
    }
    return false;
  }
}
