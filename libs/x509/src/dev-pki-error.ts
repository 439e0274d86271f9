/** The dev PKI's files or host name cannot be used: a configuration error at start. */
export class DevPkiError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DevPkiError';
  }
}
