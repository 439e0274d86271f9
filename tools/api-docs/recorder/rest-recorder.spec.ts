import { describe, expect, it } from '@jest/globals';
import { REST_ENDPOINTS } from '@itp/schemas';
import { pathPattern } from './rest-recorder.js';

describe('pathPattern', () => {
  it('matches a path without parameters only as written', () => {
    const pattern = pathPattern('/v2/did/create-vc');
    expect(pattern.test('/v2/did/create-vc')).toBe(true);
    expect(pattern.test('/v2/did/create-vcx')).toBe(false);
    expect(pattern.test('/v2/did/create-vc/x')).toBe(false);
  });

  it('fills a {name} segment with exactly one non-empty segment', () => {
    const pattern = pathPattern('/v2/did/status-lists/{listId}');
    expect(pattern.test('/v2/did/status-lists/AAAAAAAAAAAAAAAAAAAAAA')).toBe(true);
    expect(pattern.test('/v2/did/status-lists/')).toBe(false);
    expect(pattern.test('/v2/did/status-lists/a/b')).toBe(false);
    expect(pattern.test('/v2/did/status-lists')).toBe(false);
  });

  it('takes the rest of the template literally', () => {
    expect(pathPattern('/v2/a.b').test('/v2/axb')).toBe(false);
  });

  it('gives every request path of REST_ENDPOINTS one endpoint', () => {
    const sample = (path: string) => path.replace(/\{[^/{}]+\}/g, 'x');
    for (const endpoint of REST_ENDPOINTS) {
      const matching = REST_ENDPOINTS.filter(
        (e) => e.method === endpoint.method && pathPattern(e.path).test(sample(endpoint.path)),
      );
      expect({ path: endpoint.path, matching: matching.length }).toEqual({
        path: endpoint.path,
        matching: 1,
      });
    }
  });
});
