/**
 * A minimal WebSocket API client for the tests: a real `ws` socket, requests matched to answers
 * by id, user data events collected, requests signed as web-socket-api.md signs them.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import WebSocket from 'ws';
import { signHmacSha256 } from '../../src/api-facade/signing/hmac-sha256.ts';
import { signEd25519, signRsaSha256 } from '../../src/api-facade/signing/public-key-signatures.ts';

export type Signer = { readonly apiKey: string } & ({ readonly hmacSecret: string } | { readonly privateKey: KeyObject; readonly keyType: 'RSA' | 'ED25519' });

/** The documented payload: params but signature, sorted by name, `name=value` joined by `&`. */
export function wsPayload(params: Record<string, unknown>): string {
  return Object.keys(params)
    .filter((k) => k !== 'signature')
    .sort()
    .map((k) => {
      const v = params[k];
      return `${k}=${typeof v === 'string' ? v : Array.isArray(v) || (typeof v === 'object' && v !== null) ? JSON.stringify(v) : String(v)}`;
    })
    .join('&');
}

export function signParams(params: Record<string, unknown>, signer: Signer): Record<string, unknown> {
  const withKey = { ...params, apiKey: signer.apiKey };
  const payload = Buffer.from(wsPayload(withKey), 'utf8').toString('latin1');
  const signature = 'hmacSecret' in signer ? signHmacSha256(signer.hmacSecret, payload) : signer.keyType === 'RSA' ? signRsaSha256(signer.privateKey, payload) : signEd25519(signer.privateKey, payload);
  return { ...withKey, signature };
}

export function ed25519Pair(): { privateKey: KeyObject; publicKey: KeyObject } {
  return generateKeyPairSync('ed25519');
}

export function rsaPair(): { privateKey: KeyObject; publicKey: KeyObject } {
  return generateKeyPairSync('rsa', { modulusLength: 2048 });
}

export class WsApiTestClient {
  readonly ws: WebSocket;
  /** Frames that are not answers (user data events), in arrival order. */
  readonly events: any[] = [];
  /** Every frame, in arrival order. */
  readonly frames: any[] = [];
  readonly closed: Promise<number>;
  readonly #pending = new Map<unknown, (answer: any) => void>();
  #next = 1;

  private constructor(ws: WebSocket) {
    this.ws = ws;
    this.closed = new Promise((r) => ws.on('close', (code) => r(code)));
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data));
      this.frames.push(frame);
      if ('status' in frame && this.#pending.has(frame.id)) {
        const resolve = this.#pending.get(frame.id)!;
        this.#pending.delete(frame.id);
        resolve(frame);
      } else if (!('status' in frame)) {
        this.events.push(frame);
      }
    });
  }

  static open(url: string): Promise<WsApiTestClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const client = new WsApiTestClient(ws);
      ws.on('open', () => resolve(client));
      ws.on('error', reject);
    });
  }

  /** Sends a request and resolves to its answer frame. */
  call(method: string, params?: Record<string, unknown>, id: unknown = this.#next++): Promise<any> {
    return this.sendRaw(JSON.stringify(params === undefined ? { id, method } : { id, method, params }), id);
  }

  signed(method: string, params: Record<string, unknown>, signer: Signer): Promise<any> {
    return this.call(method, signParams(params, signer));
  }

  /** Sends any text; resolves to the answer carrying `id`. */
  sendRaw(text: string, id: unknown): Promise<any> {
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.ws.send(text);
    });
  }

  close(): void {
    this.ws.close();
  }
}

/** Waits (event-loop turns, no wall-clock sleeps) until `check` holds. */
export async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setImmediate(r));
  if (!check()) throw new Error('condition not reached');
}
