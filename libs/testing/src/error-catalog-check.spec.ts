import { describe, expect, it } from '@jest/globals';
import { BaseError, ConflictError, NotFoundError } from '@itp/errors';
import {
  errorClassesOf,
  expectRestErrorsInCatalog,
  expectServiceErrorsInCatalog,
} from './error-catalog-check.js';

class TeapotError extends BaseError {
  static override readonly code: string = '418';
  readonly status = 418;
}
class UsedError extends ConflictError {}
const module = { TeapotError, UsedError, notAnError: 42, helper: () => 1 };

describe('error catalog checks', () => {
  it('find the BaseError classes a module exports', () => {
    expect(errorClassesOf(module)).toEqual([TeapotError, UsedError]);
  });

  it('pass when every class is documented with its status and code', () => {
    expectRestErrorsInCatalog(module, {
      teapot: { status: 418, code: '418', when: 'a teapot' },
      used: { status: 409, code: '409', when: 'used' },
    });
    expectServiceErrorsInCatalog(module, [
      { resultCode: '418', when: 'a teapot' },
      { resultCode: '409', when: 'used' },
    ]);
  });

  it('fail when a class is missing or documented with another status', () => {
    expect(() =>
      expectRestErrorsInCatalog(module, { used: { status: 409, code: '409', when: 'used' } }),
    ).toThrow(/TeapotError/);
    expect(() =>
      expectRestErrorsInCatalog(module, {
        teapot: { status: 400, code: '418', when: 'a teapot' },
        used: { status: 409, code: '409', when: 'used' },
      }),
    ).toThrow(/TeapotError/);
    expect(() =>
      expectServiceErrorsInCatalog({ NotFoundError }, [{ resultCode: '409', when: 'used' }]),
    ).toThrow(/NotFoundError/);
  });
});
