import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { loadConfig, ConfigError } from './config.js';
import {
  acceptedInternalApiTokens,
  internalApiAcceptedTokensSetting,
  retiredInternalApiTokenSetting,
} from './internal-api-tokens.js';

const schema = z.object({ INTERNAL_API_ACCEPTED_TOKENS: internalApiAcceptedTokensSetting });
const a = 'a'.repeat(16) + 'b'.repeat(16);
const b = 'c'.repeat(16) + 'd'.repeat(16);

describe('INTERNAL_API_ACCEPTED_TOKENS', () => {
  it('is a comma list of tokens (spaces and empty entries ignored, duplicates dropped)', () => {
    expect(loadConfig(schema, {}).INTERNAL_API_ACCEPTED_TOKENS).toBeUndefined();
    expect(loadConfig(schema, { INTERNAL_API_ACCEPTED_TOKENS: '' })).toEqual({});
    expect(
      loadConfig(schema, { INTERNAL_API_ACCEPTED_TOKENS: ` ${a} ,, ${b},${a}` })
        .INTERNAL_API_ACCEPTED_TOKENS,
    ).toEqual([a, b]);
  });

  it('refuses a token shorter than 32 characters without echoing it', () => {
    const err = (() => {
      try {
        loadConfig(schema, { INTERNAL_API_ACCEPTED_TOKENS: `${a},short-token` });
      } catch (e) {
        return e as ConfigError;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect(err?.issues).toEqual([
      'INTERNAL_API_ACCEPTED_TOKENS: expected a comma list of tokens of at least 32 characters each',
    ]);
  });

  it('accepts the sent token first, then the extras, once each', () => {
    expect(acceptedInternalApiTokens(a, undefined)).toEqual([a]);
    expect(acceptedInternalApiTokens(a, [b, a])).toEqual([a, b]);
  });
});

describe('INTERNAL_API_TOKEN (retired)', () => {
  const retired = z.object({ INTERNAL_API_TOKEN: retiredInternalApiTokenSetting });

  it('is refused with a message naming the per-pair tokens, never echoing the value', () => {
    expect(loadConfig(retired, {})).toEqual({});
    let issues: string[] = [];
    try {
      loadConfig(retired, { INTERNAL_API_TOKEN: a });
    } catch (e) {
      issues = (e as ConfigError).issues;
    }
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^INTERNAL_API_TOKEN: no longer read/);
    expect(issues[0]).toContain('INTERNAL_TOKEN_DID_TO_TOKEN_RPC');
    expect(issues[0]).not.toContain(a);
  });
});
