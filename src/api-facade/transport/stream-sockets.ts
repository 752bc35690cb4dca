/**
 * WebSocket streams on the HTTP server's port, as Binance's stream host serves them
 * (web-socket-streams.md; binance-facts §6.1, §6.4): market streams and legacy listen-key user
 * data, raw or combined.
 *
 * - `/ws/<name>[/<name>...]` raw (payloads as they are), `/stream?streams=<a>/<b>` combined
 *   (`{"stream": name, "data": payload}`), a bare `/ws` or `/stream` with no streams yet; each then
 *   takes SUBSCRIBE / UNSUBSCRIBE / LIST_SUBSCRIPTIONS / SET_PROPERTY / GET_PROPERTY
 *   (stream-control.ts). `?timeUnit=MICROSECOND` switches every time to µs (a unit other than
 *   MICROSECOND / MILLISECOND, either case, is refused: 400 -1194, connection-admission.ts).
 * - A name is a market stream of this market (stream-name.ts), or a live listen key (its account's
 *   user data events, unwrapped on a raw connection, wrapped with the key as the stream name on a
 *   combined one). One rule for names, in the URL as in SUBSCRIBE, as Binance does: a well-formed
 *   name (stream-control.ts) is taken and listed, and one this market lacks (a typo, another
 *   market's symbol) delivers nothing. SUBSCRIBE answers a malformed name with an error frame; a
 *   URL cannot, and Binance opens the connection all the same, so a URL token that is not a
 *   well-formed name is ignored (ccxt opens /ws/<connection number>, then SUBSCRIBEs). One
 *   exception: a listen key in the URL (the legacy user data form) must be live (else 400 -1125).
 * - `/fstream/ws[/<names>]` and `/fstream/stream?streams=`: the USDⓈ-M market streams
 *   (fstream.binance.com's `/ws` and `/stream`; futures-stream-name.ts), names referring to the
 *   perpetual (`btcusdt@markPrice@1s`, `btcusdt@depth@100ms` of `um:BTCUSDT`), with the same
 *   control messages; the same under Binance's category paths `/fstream/public/...`,
 *   `/fstream/market/...` (each serving every futures name) and `/fstream/private/ws?listenKey=`
 *   (a futures listen key's user data, closed with the key), and the same category paths at the root
 *   (`/private/ws[/<key>]?listenKey=`, `/private/stream?listenKey=`: what ccxt and the binance package
 *   open when given this server's root; `/market/stream`, `/public/stream`, `/private/stream`: what the
 *   official USDⓈ-M SDK opens). /ws also takes the names only futures has (`@markPrice`, `@forceOrder`,
 *   `!markPrice@arr`, `!forceOrder@arr`); futures listen keys are served on /ws as Binance's own
 *   legacy form is.
 * - A listen key that expires sends `listenKeyExpired`; on a connection opened as
 *   `/ws/<listenKey>` alone (the legacy form) the connection then closes, as does DELETE of the key;
 *   elsewhere only that subscription ends.
 * - Limits (`StreamLimits`, Binance's values by default): 300 connection attempts per IP per 5
 *   minutes and 300 open connections per IP (429 -1003 at the upgrade); 1024 streams per
 *   connection; 5 incoming messages per second (data frames, pings and pongs; over it: close 1008);
 *   incoming frames up to what a SUBSCRIBE of more than a connection's streams takes (below);
 *   a ping every 20 s and a close for a connection that has not answered one for a minute; a 24 h
 *   connection life. What is queued for a client that stops reading counts against the server's
 *   one send budget (send-budget.ts, shared with the WebSocket API): over its own cap, or the
 *   slowest while all are over the total, it is dropped.
 *
 * Frame size: Binance documents none, only the 1024 streams a connection may carry and the 5
 * messages a second. So a frame may be as large as a SUBSCRIBE naming more than 1024 of the
 * longest well-formed names (`subscribeFrameBytes`, 140,424 bytes): any SUBSCRIBE over the stream
 * limit is read and answered with its error frame, and the connection stays. A larger frame can be
 * no valid request; `ws` refuses it (close 1009) before buffering it. (Binance's host was seen
 * going silent on frames past 4 KiB, binance-connector-rust#27, 2024: a bound its docs never
 * stated and the stream rule contradicts, so it is not copied.)
 *
 * Delivery: one feed subscription per (stream, time unit) however many connections carry it; a
 * message is serialised once and written to each. The feed is driven by a FeedDriver: after each
 * replayed print and at the backend's scheduler timers (a replay), around each HTTP request
 * (`beforeRequest` / `afterRequest`), and on a short host tick for backends whose time moves with
 * the wall clock alone. Nothing on a request's path is proportional to the open connections.
 *
 * Simulated time judges the attempt window and the message rate (as for REST limits); the
 * transport's own clock (ping, pong, connection life) is the wall clock: this file is a socket
 * adapter, outside the deterministic core.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { EventQueue, type QueueEntry } from '../../clock/index.ts';
import { ConnectionAdmission, MessageRate, POLICY_VIOLATION, type AdmissionLimits } from './connection-admission.ts';
import type { ExchangeContext } from '../context/index.ts';
import { apiError, rawErrorResponse } from '../core/index.ts';
import { type KeyEnd, type StreamVenue, FeedDriver, errorFrame, isFuturesOnlyName, isWellFormedStreamName, MAX_STREAM_NAME_LENGTH, NO_REQUEST_ID, parseStreamControl, resultFrame, type StreamControl } from '../streams/index.ts';
import { apiTime, type TimeUnit } from '../serialize/index.ts';
import { SendBudget, type SendSlot } from './send-budget.ts';
import { textFrame } from './text-frame.ts';

/** Connection limits of the stream endpoint (defaults: DEFAULT_STREAM_LIMITS). */
export interface StreamLimits extends AdmissionLimits {
  /** Streams one connection may carry (Binance: 1024). */
  readonly streamsPerConnection: number;
  /** Incoming messages per second of a /fstream connection (fstream.binance.com: 10, futures facts §1). */
  readonly futuresMessagesPerSecond: number;
}

/**
 * The largest incoming frame for `streams` per connection: a SUBSCRIBE naming one more than that
 * many of the longest well-formed names fits, each quoted, with its comma and a line break and
 * indentation as JSON.stringify(request, null, 2) writes them, and an envelope with a
 * 36-character id (see the header).
 */
export function subscribeFrameBytes(streams: number): number {
  return (streams + 1) * (MAX_STREAM_NAME_LENGTH + 8) + 1024;
}

/** Binance's values: 300 attempts per 5 min, 5 messages a second (10 on /fstream), 1024 streams (and frames to SUBSCRIBE past them), a ping every 20 s, a pong within 1 min, a 24 h life. */
export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  attemptsPerIp: 300,
  attemptWindowUs: 5 * 60 * 1_000_000,
  openPerIp: 300,
  messagesPerSecond: 5,
  futuresMessagesPerSecond: 10,
  maxPayloadBytes: subscribeFrameBytes(1024),
  streamsPerConnection: 1024,
  pingIntervalMs: 20_000,
  pongTimeoutMs: 60_000,
  connectionLifeMs: 24 * 60 * 60 * 1000,
};

/**
 * USDⓈ-M's category entries at the root (Binance's 2026 split of the futures stream URLs; the
 * legacy ones retired 2026-04-23): /market, /public, /private. A client given this server's root
 * as its futures stream URL opens them there: ccxt and the binance package /private/...; the
 * official SDK (@binance/derivatives-trading-usds-futures WebsocketStreams.connect) opens
 * `<wsURL>/market/stream?streams=`, `<wsURL>/public/stream?streams=` and `<wsURL>/private/stream?streams=`
 * together, then SUBSCRIBEs each stream on its category's connection (the listen key on /private).
 * Spot's streams keep the root's /ws and /stream: no spot path starts with these.
 */
const ROOT_CATEGORY = /^\/(public|market|private)(\/.*)$/;

/** The USDⓈ-M streams' base path (Binance's separate host fstream.binance.com). */
export const FUTURES_STREAM_BASE = '/fstream';

/**
 * The path under /fstream (and under Binance's category paths since its 2026 split of the futures
 * host: /public for books, /market for the rest, /private for user data; chosen: /public and
 * /market each serve every futures name, as the legacy /ws did), or the path itself with `futures`
 * false. `listenKey`: /fstream/private/ws?listenKey=<key> names its key in the query.
 */
function venuePath(path: string, query: URLSearchParams): { path: string; futures: boolean; listenKey: string | null } {
  // Binance's futures category entries at the root as well (`/private/ws?listenKey=`, `/private/stream?listenKey=`,
  // `/private/ws/<key>`, `/market/stream?streams=`, `/public/stream?streams=`): see ROOT_CATEGORY.
  const atRoot = ROOT_CATEGORY.exec(path);
  if (atRoot !== null) return { path: atRoot[2]!, futures: true, listenKey: atRoot[1] === 'private' ? query.get('listenKey') : null };
  if (!path.startsWith(`${FUTURES_STREAM_BASE}/`)) return { path, futures: false, listenKey: null };
  const rest = path.slice(FUTURES_STREAM_BASE.length);
  const category = ROOT_CATEGORY.exec(rest);
  if (category === null) return { path: rest, futures: true, listenKey: null };
  const isPrivate = category[1] === 'private';
  return { path: category[2]!, futures: true, listenKey: isPrivate ? query.get('listenKey') : null };
}

/** The paths this endpoint serves: /ws[/<names>] and /stream[?streams=...], both under /fstream, and /market|public|private/... at the root. */
const isStreamPath = (full: string): boolean => {
  const { path } = venuePath(full, new URLSearchParams());
  return path === '/ws' || path.startsWith('/ws/') || path === '/stream' || path === '/stream/';
};

/** Wall ms between feed pumps while connections are open (time moving with no request or print). */
const PUMP_INTERVAL_MS = 25;
/** What a listen key looks like (Binance's are 60 characters, ours 64): a long alphanumeric token. */
const LISTEN_KEY_SHAPE = /^[A-Za-z0-9]{16,}$/;
const GOING_AWAY = 1001;

interface Connection {
  readonly socket: WebSocket;
  readonly ip: string;
  readonly unit: TimeUnit;
  /** Opened under /fstream: names refer to the USDⓈ-M market. */
  readonly futures: boolean;
  combined: boolean;
  /** Opened as `/ws/<listenKey>` alone: the connection ends with the key. */
  readonly legacyKey: string | null;
  /** Subscribed names in subscription order, each with how it is served. */
  readonly streams: Map<string, Subscription>;
  /** Incoming frames (data, pings and pongs) per simulated second. */
  readonly rate: MessageRate;
  /** Its place under the server's send budget. */
  readonly slot: SendSlot;
}

type Subscription =
  | { readonly kind: 'market'; readonly channel: Channel }
  | { readonly kind: 'user'; readonly listenKey: string; readonly unsubscribe: () => void }
  /** Well-formed but no stream of this market: acknowledged and listed, never delivers. */
  | { readonly kind: 'silent' };

/** One feed subscription shared by every connection carrying (name, unit). */
interface Channel {
  readonly key: string;
  readonly name: string;
  readonly connections: Set<Connection>;
  readonly unsubscribe: () => void;
}

/** A key with open connections, queued at the expiry it had when queued. */
interface KeyExpiry extends QueueEntry {
  readonly key: string;
}

export class StreamSockets {
  readonly #ctx: ExchangeContext;
  readonly #limits: StreamLimits;
  readonly #wss: WebSocketServer;
  readonly #driver: FeedDriver;
  readonly #connections = new Set<Connection>();
  readonly #channels = new Map<string, Channel>();
  readonly #byKey = new Map<string, Set<Connection>>();
  readonly #expiries = new EventQueue<KeyExpiry>();
  readonly #queued = new Map<string, KeyExpiry>();
  readonly #admission: ConnectionAdmission;
  readonly #budget: SendBudget;
  #pumpTimer: ReturnType<typeof setInterval> | undefined;

  /** `budget`: the server's one send budget (http-server.ts shares it with the WebSocket API). */
  constructor(ctx: ExchangeContext, limits: Partial<StreamLimits> = {}, budget: SendBudget = new SendBudget()) {
    this.#ctx = ctx;
    this.#budget = budget;
    this.#limits = { ...DEFAULT_STREAM_LIMITS, ...limits };
    this.#wss = new WebSocketServer({ noServer: true, maxPayload: this.#limits.maxPayloadBytes });
    this.#admission = new ConnectionAdmission(this.#limits);
    const backend = ctx.backend;
    this.#driver = new FeedDriver(
      ctx.marketFeed,
      { get now() { return ctx.now(); } },
      backend.schedule === undefined ? undefined : (time, action) => backend.schedule!(time, action),
    );
    backend.onTrade?.(() => this.#driver.pump());
    ctx.listenKeys.onKeyEnded((key, end) => this.#endKey(key, end, this.#ctx.now()));
    ctx.futuresListenKeys.onKeyEnded((key, end) => this.#endKey(key, end, this.#ctx.now()));
  }

  /** Open stream connections. */
  get size(): number {
    return this.#connections.size;
  }

  /** Handles an HTTP upgrade to /ws[...] or /stream[...]; refuses anything else. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const now = this.#ctx.now();
    const admitted = this.#admission.admit(req, socket, now, isStreamPath);
    if (admitted === undefined) return;
    const { ip, unit } = admitted;
    const { path, futures, listenKey } = venuePath(admitted.path, admitted.query);
    const combined = !path.startsWith('/ws');
    const named = (combined ? rawStreamsParam(admitted.rawQuery) : path.slice(4)).split('/').filter((n) => n !== '');
    const names = listenKey === null || named.includes(listenKey) ? named : [listenKey, ...named];
    if (names.length > this.#limits.streamsPerConnection) {
      socket.end(rawErrorResponse(apiError('TOO_MANY_STREAMS', this.#limits.streamsPerConnection)));
      return;
    }
    // A listen key in the URL must be live (the legacy user data form names nothing else).
    // Spot's and the futures API's keys alike (each is served its own stream).
    if (names.some((name) => LISTEN_KEY_SHAPE.test(name) && this.#ctx.userStreamOfKey(name, now) === undefined)) {
      socket.end(rawErrorResponse(apiError('INVALID_LISTEN_KEY')));
      return;
    }
    const legacyKey = !combined && names.length === 1 && this.#ctx.userStreamOfKey(names[0]!, now) !== undefined ? names[0]! : null;
    this.#wss.handleUpgrade(req, socket, head, (ws) => {
      const connection: Connection = {
        socket: ws,
        ip,
        unit,
        futures,
        combined,
        legacyKey,
        streams: new Map(),
        rate: new MessageRate(futures ? this.#limits.futuresMessagesPerSecond : this.#limits.messagesPerSecond),
        // A reader that stopped reading: the budget ends it (bounding the server's memory).
        slot: this.#budget.open(ws, socket, () => this.#drop(connection)),
      };
      this.#connections.add(connection);
      this.#admission.watch(ws, admitted, () => this.#drop(connection));
      this.#startPump();
      // Taken as a SUBSCRIBE takes them (see the header); other tokens are ignored.
      for (const name of names) if (isWellFormedStreamName(name)) this.#subscribe(connection, name);
      // A listen key may have ended while the handshake ran.
      if (legacyKey !== null && !connection.streams.has(legacyKey)) {
        ws.close(1000, 'listenKey closed');
        this.#drop(connection);
        return;
      }
      ws.on('message', (data, isBinary) => this.#onMessage(connection, isBinary ? null : data.toString()));
      ws.on('ping', () => this.#heard(connection));
      ws.on('pong', () => this.#heard(connection));
      ws.on('close', () => this.#drop(connection));
      ws.on('error', () => this.#drop(connection));
      this.#driver.pump();
    });
  }

  /** Before an HTTP request runs: streams due by now go out with the state before it. */
  beforeRequest(): void {
    if (this.#channels.size > 0) this.#driver.pump();
  }

  /** After an HTTP request: what it changed streams, and listen keys that ran out end (O(1) unless one is due). */
  afterRequest(): void {
    if (this.#channels.size > 0) this.#driver.pump();
    this.#expireDue();
  }

  /** Server shutdown: every connection gets `serverShutdown`, then closes. */
  close(): void {
    const now = this.#ctx.now();
    for (const c of [...this.#connections]) {
      const event = { e: 'serverShutdown', E: apiTime(now, c.unit) };
      // What the budget holds for a lagging reader goes first: the close frame must be last.
      this.#budget.flush(c.slot);
      if (c.socket.readyState === c.socket.OPEN) c.socket.send(c.combined ? JSON.stringify({ stream: '!serverShutdown', data: event }) : JSON.stringify(event));
      c.socket.close(GOING_AWAY, 'server shutdown');
      this.#drop(c);
    }
    this.#stopTimers();
    this.#wss.close();
  }

  #subscribe(c: Connection, name: string): void {
    if (c.streams.has(name)) return;
    const now = this.#ctx.now();
    const user = this.#ctx.userStreamOfKey(name, now);
    if (user !== undefined) {
      const unsubscribe = user.hub.subscribe(user.accountId, (event) => this.#send(c, name, JSON.stringify(event)), c.unit);
      c.streams.set(name, { kind: 'user', listenKey: name, unsubscribe });
      let set = this.#byKey.get(name);
      if (set === undefined) this.#byKey.set(name, (set = new Set()));
      set.add(c);
      const expiresAt = user.keys.expiryOf(name, now);
      if (expiresAt !== undefined) this.#queueExpiry(name, expiresAt);
      return;
    }
    const venue: StreamVenue = c.futures || isFuturesOnlyName(name) ? 'futures' : 'spot';
    const channel = this.#channel(name, c.unit, venue);
    if (channel === null) {
      c.streams.set(name, { kind: 'silent' });
      return;
    }
    channel.connections.add(c);
    c.streams.set(name, { kind: 'market', channel });
  }

  #unsubscribe(c: Connection, name: string): void {
    const sub = c.streams.get(name);
    if (sub === undefined) return;
    c.streams.delete(name);
    if (sub.kind === 'market') {
      sub.channel.connections.delete(c);
      if (sub.channel.connections.size === 0) {
        sub.channel.unsubscribe();
        this.#channels.delete(sub.channel.key);
      }
    } else if (sub.kind === 'user') {
      sub.unsubscribe();
      const set = this.#byKey.get(sub.listenKey);
      if (set !== undefined && set.delete(c) && set.size === 0) {
        this.#byKey.delete(sub.listenKey);
        const queued = this.#queued.get(sub.listenKey);
        if (queued !== undefined) {
          this.#expiries.remove(queued);
          this.#queued.delete(sub.listenKey);
        }
      }
    }
  }

  /** The shared feed subscription for (name, unit), opened on first use; null for no stream of this market. */
  #channel(name: string, unit: TimeUnit, venue: StreamVenue): Channel | null {
    const key = `${venue === 'futures' ? 'f' : 's'} ${unit === 'MICROSECOND' ? 'us' : 'ms'} ${name}`;
    const open = this.#channels.get(key);
    if (open !== undefined) return open;
    const connections = new Set<Connection>();
    const unsubscribe = this.#ctx.marketFeed.subscribe(
      name,
      (message) => {
        // Serialised and framed once for every connection (text-frame.ts); the combined wrapper
        // once more, only if some connection is combined.
        const raw = JSON.stringify(message);
        let plain: Buffer | undefined;
        let wrapped: Buffer | undefined;
        for (const c of connections) {
          const frame = c.combined ? (wrapped ??= textFrame(`{"stream":${JSON.stringify(name)},"data":${raw}}`)) : (plain ??= textFrame(raw));
          this.#budget.send(c.slot, frame);
        }
      },
      unit,
      venue,
    );
    if (unsubscribe === null) return null;
    const channel: Channel = { key, name, connections, unsubscribe };
    this.#channels.set(key, channel);
    return channel;
  }

  /** Sends a user data event (`json`) of stream `name` to `c`, wrapped when the connection is combined. */
  #send(c: Connection, name: string, json: string): void {
    this.#write(c, c.combined ? `{"stream":${JSON.stringify(name)},"data":${json}}` : json);
  }

  #write(c: Connection, text: string): void {
    this.#budget.send(c.slot, textFrame(text));
  }

  #onMessage(c: Connection, text: string | null): void {
    if (!this.#heard(c)) return;
    if (text === null) {
      this.#write(c, errorFrame({ code: 3, msg: 'Invalid JSON: expected value at line 1 column 1', id: NO_REQUEST_ID }));
      return;
    }
    const request = parseStreamControl(text);
    if ('code' in request) {
      this.#write(c, errorFrame(request));
      return;
    }
    this.#write(c, this.#answer(c, request));
    // What a subscription opened may already be due (a partial book at its next boundary comes later).
    this.#driver.pump();
  }

  #answer(c: Connection, request: StreamControl): string {
    switch (request.method) {
      case 'SUBSCRIBE': {
        const fresh = request.streams.filter((n, i) => !c.streams.has(n) && request.streams.indexOf(n) === i);
        if (c.streams.size + fresh.length > this.#limits.streamsPerConnection) {
          return errorFrame({ code: 2, msg: `Invalid request: too many streams; a connection carries at most ${this.#limits.streamsPerConnection}`, id: request.id });
        }
        for (const name of fresh) this.#subscribe(c, name);
        return resultFrame(null, request.id);
      }
      case 'UNSUBSCRIBE':
        for (const name of request.streams) this.#unsubscribe(c, name);
        return resultFrame(null, request.id);
      case 'LIST_SUBSCRIPTIONS':
        return resultFrame([...c.streams.keys()], request.id);
      case 'SET_PROPERTY':
        c.combined = request.value;
        return resultFrame(null, request.id);
      case 'GET_PROPERTY':
        return resultFrame(c.combined, request.id);
    }
  }

  /** Counts an incoming frame against the rate (simulated seconds); false when the connection was closed for it. */
  #heard(c: Connection): boolean {
    if (!c.rate.heard(this.#ctx.now())) {
      c.socket.close(POLICY_VIOLATION, 'Too many messages');
      this.#drop(c);
      return false;
    }
    return true;
  }

  /** Ends the streams whose key ran out by simulated now. O(1) when none is due. */
  #expireDue(): void {
    const head = this.#expiries.peek();
    if (head === undefined) return;
    const now = this.#ctx.now();
    if (head.time > now) return;
    for (let due = this.#expiries.peek(); due !== undefined && due.time <= now; due = this.#expiries.peek()) {
      this.#expiries.pop();
      this.#queued.delete(due.key);
      if (!this.#byKey.has(due.key)) continue;
      const expiresAt = this.#ctx.listenKeys.expiryOf(due.key, now) ?? this.#ctx.futuresListenKeys.expiryOf(due.key, now);
      if (expiresAt === undefined) this.#endKey(due.key, 'expired', now);
      else this.#queueExpiry(due.key, expiresAt); // kept alive since it was queued
    }
  }

  #queueExpiry(key: string, expiresAt: number): void {
    if (this.#queued.has(key)) return;
    const entry: KeyExpiry = { key, time: expiresAt, seq: 0, heapIndex: -1 };
    this.#queued.set(key, entry);
    this.#expiries.push(entry);
  }

  #endKey(key: string, end: KeyEnd, now: number): void {
    const set = this.#byKey.get(key);
    if (set === undefined) return;
    for (const c of [...set]) {
      if (end === 'expired') this.#send(c, key, JSON.stringify({ e: 'listenKeyExpired', E: apiTime(now, c.unit), listenKey: key }));
      if (c.legacyKey === key) {
        this.#budget.flush(c.slot);
        c.socket.close(1000, 'listenKey closed');
        this.#drop(c);
      } else {
        this.#unsubscribe(c, key);
      }
    }
  }

  #drop(c: Connection): void {
    if (!this.#connections.delete(c)) return;
    this.#budget.close(c.slot);
    for (const name of [...c.streams.keys()]) this.#unsubscribe(c, name);
    this.#admission.release(c.socket, c.ip, this.#ctx.now());
    if (this.#connections.size === 0) this.#stopTimers();
  }

  /** The feed pump's host tick while connections are open. */
  #startPump(): void {
    if (this.#pumpTimer !== undefined) return;
    this.#pumpTimer = setInterval(() => this.#driver.pump(), PUMP_INTERVAL_MS); // determinism-ok: the socket adapter's tick; what it delivers is stamped in simulated time
    this.#pumpTimer.unref();
  }

  #stopTimers(): void {
    if (this.#pumpTimer !== undefined) clearInterval(this.#pumpTimer);
    this.#pumpTimer = undefined;
    this.#admission.stop();
  }
}

/**
 * The `streams` parameter as sent: percent-decoded but with `+` kept (URLSearchParams would read
 * it as a space, and `@+08:00` time-zone klines carry one).
 */
function rawStreamsParam(query: string): string {
  for (const pair of query.split('&')) {
    if (!pair.startsWith('streams=')) continue;
    try {
      return decodeURIComponent(pair.slice('streams='.length));
    } catch {
      return pair.slice('streams='.length);
    }
  }
  return '';
}
