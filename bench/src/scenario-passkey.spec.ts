import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { SoftPasskey, SoftPasskeyReference } from './scenario-passkey.js';

const origin = 'http://localhost:8080';
const rpId = 'localhost';

describe('the software passkey of scenario 11', () => {
  it('registers and logs in as @simplewebauthn/server (auth-service’s verifier) checks it', async () => {
    const passkey = new SoftPasskey(origin);
    const reference = await SoftPasskeyReference.of(passkey, origin, rpId);
    const challenge = randomBytes(32).toString('base64url');
    const assertion = passkey.assert({ challenge, rpId });
    await expect(reference.verify(assertion, challenge)).resolves.toBeUndefined();
    // The same assertion twice: the counter stays 0 (a synced passkey), so it verifies again.
    await expect(reference.verify(assertion, challenge)).resolves.toBeUndefined();
  });

  it('is refused with another challenge, another origin, or a signature of another key', async () => {
    const passkey = new SoftPasskey(origin);
    const reference = await SoftPasskeyReference.of(passkey, origin, rpId);
    const challenge = randomBytes(32).toString('base64url');
    const assertion = passkey.assert({ challenge, rpId });
    await expect(
      reference.verify(assertion, randomBytes(32).toString('base64url')),
    ).rejects.toThrow(/challenge/i);
    const elsewhere = new SoftPasskey('http://evil.example');
    Object.assign(elsewhere, { credentialId: passkey.credentialId });
    await expect(
      reference.verify(elsewhere.assert({ challenge, rpId }), challenge),
    ).rejects.toThrow(/origin/i);
    const other = new SoftPasskey(origin);
    const forged = {
      ...assertion,
      response: {
        ...assertion.response,
        signature: other.assert({ challenge, rpId }).response.signature,
      },
    };
    await expect(reference.verify(forged, challenge)).rejects.toThrow(/did not verify/);
  });
});
