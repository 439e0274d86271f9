import { describe, expect, it } from '@jest/globals';
import { describeRpcUrl, parseRpcUrl } from './rpc-url.js';

describe('parseRpcUrl', () => {
  it('moves user info into a Basic authorization', () => {
    const endpoint = parseRpcUrl('https://us%40er:p%3Ass@node.example:8545/v3/key?x=1');
    expect(endpoint.url).toBe('https://node.example:8545/v3/key?x=1');
    expect(endpoint.username).toBe('us@er');
    expect(endpoint.password).toBe('p:ss');
    expect(endpoint.authorization).toBe(`Basic ${Buffer.from('us@er:p:ss').toString('base64')}`);
  });

  it('leaves a URL without credentials as it is', () => {
    const endpoint = parseRpcUrl('http://127.0.0.1:8545');
    expect(endpoint.url).toBe('http://127.0.0.1:8545/');
    expect(endpoint.authorization).toBeUndefined();
  });
});

describe('describeRpcUrl', () => {
  it('keeps only scheme, host and port', () => {
    expect(describeRpcUrl('https://u:p@mainnet.example/v3/secret-key?k=1')).toBe(
      'https://mainnet.example',
    );
    expect(describeRpcUrl('not a url')).toBe('(invalid URL)');
  });
});
