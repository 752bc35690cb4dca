/**
 * Writes CSV text as bytes without building strings: a generated L2 day is 20M+ rows, and a
 * template string per row (plus its UTF-8 encoding) cost more than generating the market. Numbers
 * are written digit by digit from integer units, exactly (no float formatting), in 32-bit integer
 * arithmetic wherever the value fits (a µs timestamp is written as two halves).
 */

const CHUNK = 1 << 20;
/** Room a row may take: a row is written only when this much is free. */
const ROW_ROOM = 1024;
const INT32_LIMIT = 2 ** 31;
const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i);

export class AsciiWriter {
  private buf = Buffer.allocUnsafe(CHUNK);
  private pos = 0;
  private full: Buffer[] = [];

  /** Where the next byte goes (for `copy`). */
  get position(): number {
    return this.pos;
  }

  /** Makes room for one row (call before each row). */
  row(): void {
    if (this.pos + ROW_ROOM > this.buf.length) {
      this.full.push(this.buf.subarray(0, this.pos));
      this.buf = Buffer.allocUnsafe(CHUNK);
      this.pos = 0;
    }
  }

  bytes(text: Uint8Array, length = text.length): void {
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < length; i++) buf[p++] = text[i]!;
    this.pos = p;
  }

  /** Copies what was written since `from` (in this row) into `out`; returns its length. */
  copy(from: number, out: Uint8Array): number {
    const length = this.pos - from;
    for (let i = 0; i < length; i++) out[i] = this.buf[from + i]!;
    return length;
  }

  byte(c: number): void {
    this.buf[this.pos++] = c;
  }

  /** A non-negative integer below 2^53. */
  int(n: number): void {
    if (n < INT32_LIMIT) {
      this.small(n | 0);
    } else {
      const high = Math.floor(n / 1e9);
      this.int(high);
      this.padded(n - high * 1e9, 9);
    }
  }

  /** `units` at `precision` decimals as the shortest decimal ("42000.01", "0.5", "3"). */
  decimal(units: number, precision: number, scale: number): void {
    const whole = Math.floor(units / scale);
    this.int(whole);
    let fraction = units - whole * scale;
    if (fraction === 0) return;
    let digits = precision;
    while (fraction % 10 === 0) {
      fraction /= 10;
      digits--;
    }
    this.byte(46);
    if (digits <= 9) {
      this.padded(fraction, digits);
    } else {
      const high = Math.floor(fraction / POW10[9]!);
      this.padded(high, digits - 9);
      this.padded(fraction - high * POW10[9]!, 9);
    }
  }

  /** n (0 <= n < 2^31) in decimal. */
  private small(n: number): void {
    let digits = 1;
    while (digits < 10 && n >= POW10[digits]!) digits++;
    this.padded(n, digits);
  }

  /** n (0 <= n < 10^width, width <= 9) in exactly `width` digits, zeros first. */
  private padded(n: number, width: number): void {
    const buf = this.buf;
    let v = n | 0;
    for (let p = this.pos + width - 1; p >= this.pos; p--) {
      const q = (v / 10) | 0;
      buf[p] = 48 + v - q * 10;
      v = q;
    }
    this.pos += width;
  }

  /** The bytes written since the last call, in order (the buffers are the caller's from now on). */
  take(): Buffer[] {
    const out = this.full;
    this.full = [];
    if (this.pos > 0) {
      out.push(this.buf.subarray(0, this.pos));
      this.buf = Buffer.allocUnsafe(CHUNK);
      this.pos = 0;
    }
    return out;
  }
}
