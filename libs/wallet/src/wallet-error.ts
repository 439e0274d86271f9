/** Why the wallet would not answer a request (before anything was posted), with an OAuth-style code. */
export class Openid4vpWalletError extends Error {
  override readonly name = 'Openid4vpWalletError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}
