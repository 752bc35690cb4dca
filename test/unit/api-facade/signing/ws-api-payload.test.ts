import { describe, expect, test } from 'vitest';
import { signHmacSha256 } from '../../../../src/api-facade/signing/hmac-sha256.ts';
import { valueText, wsApiSignaturePayloads } from '../../../../src/api-facade/signing/ws-api-payload.ts';

// web-socket-api.md, "SIGNED request example (HMAC)": the docs' key, secret, params and signatures.
const API_KEY = 'vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A';
const SECRET = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';

describe('the WebSocket API signature payload', () => {
  test('sorted by name, name=value joined by &, signature left out: the docs’ ASCII example', () => {
    const params = { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01000000', price: '52000.00', recvWindow: 100, timestamp: 1645423376532, apiKey: API_KEY, signature: 'x' };
    const payloads = wsApiSignaturePayloads(params);
    expect(payloads).toEqual([`apiKey=${API_KEY}&price=52000.00&quantity=0.01000000&recvWindow=100&side=SELL&symbol=BTCUSDT&timeInForce=GTC&timestamp=1645423376532&type=LIMIT`]);
    expect(signHmacSha256(SECRET, payloads[0]!)).toBe('aa1b5712c094bc4e57c05a1a5c1fd8d88dcd628338ea863fec7b88e59fe2db24');
  });

  test('non-ASCII values are signed as UTF-8 (the docs’ second example); the percent-encoded form comes second', () => {
    const params = { symbol: '１２３４５６', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1.00000000', price: '0.10000000', recvWindow: 5000, timestamp: 1645423376532, apiKey: API_KEY };
    const [plain, encoded] = wsApiSignaturePayloads(params);
    expect(signHmacSha256(SECRET, plain!)).toBe('b33892ae8e687c939f4468c6268ddd4c40ac1af18ad19a064864c47bae0752cd');
    expect(encoded).toContain(`symbol=${encodeURIComponent('１２３４５６')}&`);
  });

  test('value texts: numbers, booleans, arrays as JSON, null empty; a lone surrogate does not throw', () => {
    expect([valueText(1.5), valueText(true), valueText(['A', 'B']), valueText(null), valueText('x')]).toEqual(['1.5', 'true', '["A","B"]', '', 'x']);
    expect(wsApiSignaturePayloads({ a: '\ud800' })).toHaveLength(1);
  });
});
