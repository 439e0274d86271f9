import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { loadConfig, ConfigError } from './config.js';
import {
  acceptedInternalApiTokens,
  internalApiAcceptedTokensSetting,
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
