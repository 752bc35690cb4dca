/**
 * One WebSocket connection to a venue's combined streams, for the recorder: text messages out
 * as they come, and exactly one `onClose` with a reason when it ends for any cause other than
 * `close()` (refused, dropped, closed by the venue, or silent: nothing, not even a ping or a
 * pong, for `idleTimeoutMs` — a half-open TCP connection looks alive otherwise). The venue's
 * pings are answered by `ws` itself; our own ping every `pingEveryMs` makes a quiet but alive
 * venue answer.
 */
import WebSocket from 'ws';

export interface StreamConnectionHandlers {
  onOpen(): void;
  onMessage(text: string): void;
  onClose(reason: string): void;
}

export interface StreamConnectionOptions {
  readonly pingEveryMs: number;
  readonly idleTimeoutMs: number;
}

export class StreamConnection {
  readonly #ws: WebSocket;
  readonly #handlers: StreamConnectionHandlers;
  #open = false;
  #done = false;
  #lastHeard = 0;
  #reason: string | null = null;
  #timer: NodeJS.Timeout | null = null;

  constructor(url: string, handlers: StreamConnectionHandlers, options: StreamConnectionOptions) {
    this.#handlers = handlers;
    this.#ws = new WebSocket(url, { handshakeTimeout: 10_000 });
    const heard = () => {
      this.#lastHeard = Date.now(); // determinism-ok: liveness of a live connection
    };
    this.#ws.on('open', () => {
      this.#open = true;
      heard();
      this.#timer = setInterval(() => this.#check(options.idleTimeoutMs), options.pingEveryMs); // determinism-ok: live keepalive
      this.#timer.unref();
      if (!this.#done) this.#handlers.onOpen();
    });
    this.#ws.on('message', (data, isBinary) => {
      heard();
      if (!this.#done && !isBinary) this.#handlers.onMessage(text(data));
    });
    this.#ws.on('ping', heard);
    this.#ws.on('pong', heard);
    this.#ws.on('error', (error) => {
      this.#reason ??= error.message;
    });
    this.#ws.on('close', (code, why) => {
      if (this.#timer !== null) clearInterval(this.#timer);
      if (this.#done) return;
      this.#done = true;
      const said = why.length > 0 ? ` ${why.toString()}` : '';
      // 1006: the TCP connection ended without a close frame (a network drop, a killed peer).
      this.#handlers.onClose(this.#reason ?? (code === 1006 ? 'the connection dropped (1006, no close frame)' : `closed by the venue (${code}${said})`));
    });
  }

  /** Whether the connection opened (it may have closed since). */
  get opened(): boolean {
    return this.#open;
  }

  /** Ends the connection without an `onClose` (the recorder closed it, and says so itself). */
  close(): void {
    if (this.#done) return;
    this.#done = true;
    if (this.#timer !== null) clearInterval(this.#timer);
    if (this.#ws.readyState === WebSocket.CONNECTING) {
      this.#ws.terminate();
      return;
    }
    this.#ws.close(1000, 'recorder done');
    // A venue that does not answer the close in time is cut off.
    setTimeout(() => this.#ws.terminate(), 2000).unref(); // determinism-ok: live connection teardown
  }

  #check(idleTimeoutMs: number): void {
    if (Date.now() - this.#lastHeard > idleTimeoutMs) { // determinism-ok: liveness of a live connection
      this.#reason = `nothing received for ${Math.round(idleTimeoutMs / 1000)} s`;
      this.#ws.terminate();
      return;
    }
    this.#ws.ping();
  }
}

function text(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}
