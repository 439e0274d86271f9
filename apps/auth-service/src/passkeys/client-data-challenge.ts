import { BadRequestError } from '@itp/errors';

/**
 * The challenge a WebAuthn response answers (its `clientDataJSON.challenge`), read before the
 * response is verified so that the challenge can be taken once; a 400 when the response does not
 * carry one.
 */
export function clientDataChallenge(response: { response?: { clientDataJSON?: unknown } }): string {
  const encoded = response.response?.clientDataJSON;
  if (typeof encoded !== 'string' || encoded.length > 4096) {
    throw new BadRequestError('response.response.clientDataJSON must be a base64url string');
  }
  let clientData: unknown;
  try {
    clientData = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    throw new BadRequestError('response.response.clientDataJSON is not base64url JSON');
  }
  const challenge = (clientData as { challenge?: unknown } | null)?.challenge;
  if (typeof challenge !== 'string' || !/^[A-Za-z0-9_-]{16,128}$/.test(challenge)) {
    throw new BadRequestError('response.response.clientDataJSON has no challenge');
  }
  return challenge;
}
