export { BaseError, isBaseError, type BaseErrorOptions } from './base-error.js';
export * from './http-errors.js';
