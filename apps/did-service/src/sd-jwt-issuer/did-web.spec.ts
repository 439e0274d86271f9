import { describe, expect, it } from '@jest/globals';
import { didWebOf } from './did-web.js';

describe('didWebOf', () => {
  it('is did:web:<host>, a port percent-encoded, the document at /.well-known/did.json', () => {
    expect(didWebOf('https://API.Example.com')).toEqual({
      did: 'did:web:api.example.com',
      host: 'api.example.com',
      documentUrl: 'https://api.example.com/.well-known/did.json',
    });
    expect(didWebOf('https://localhost:8443')).toEqual({
      did: 'did:web:localhost%3A8443',
      host: 'localhost',
      documentUrl: 'https://localhost:8443/.well-known/did.json',
    });
  });

  it('names path segments with colons and warns that <origin>/<path>/did.json must be mapped', () => {
    const web = didWebOf('https://example.com/itp/api');
    expect(web.did).toBe('did:web:example.com:itp:api');
    expect(web.documentUrl).toBe('https://example.com/itp/api/did.json');
    expect(web.pathWarning).toMatch(
      /PUBLIC_URL has a path: the issuer's did:web:example.com:itp:api resolves at https:\/\/example.com\/itp\/api\/did.json, which did-service does not serve/,
    );
  });
});
