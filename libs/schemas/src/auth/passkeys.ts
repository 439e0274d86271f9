import { z } from 'zod';
import { plainText } from './plain-text.js';

/**
 * Passkeys (WebAuthn Level 3, docs/api.md §13): the bodies and answers of
 * `/v2/auth/passkeys/registration-options`, `/v2/auth/passkeys`, `/v2/auth/passkeys/remove`,
 * `/v2/auth/passkeys/authentication-options` and `/v2/auth/auth-user-with-passkey`.
 *
 * The WebAuthn JSON objects (what `PublicKeyCredential.toJSON()` gives and
 * `PublicKeyCredential.parseCreationOptionsFromJSON` / `parseRequestOptionsFromJSON` take) are
 * checked here only by their top-level members; unknown members are kept for the WebAuthn
 * verifier, which checks the rest (the challenge, origin, RP id, signature, counters).
 */
export const PASSKEY_LIMITS = {
  /** Longest passkey name (what the account page shows). */
  nameLength: 64,
  /** Longest credential id read, in base64url characters (WebAuthn allows 1023 bytes). */
  credentialIdLength: 1366,
} as const;

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** A credential id: base64url without padding. */
const credentialId = z
  .string()
  .min(1)
  .max(PASSKEY_LIMITS.credentialIdLength)
  .regex(BASE64URL, { message: 'must be base64url' });

/**
 * A `PublicKeyCredential` in its JSON form (RegistrationResponseJSON or
 * AuthenticationResponseJSON): `credential.toJSON()` in a browser.
 */
function credentialJson(title: string, response: string) {
  return z
    .looseObject({
      id: credentialId.meta({ description: 'the credential id (base64url)' }),
      rawId: credentialId.meta({ description: 'the same id (base64url)' }),
      type: z.literal('public-key'),
      response: z.looseObject({}).meta({ description: response }),
      clientExtensionResults: z
        .looseObject({})
        .meta({ description: "the authenticator's extension outputs ({} when none)" }),
      authenticatorAttachment: z
        .string()
        .optional()
        .meta({ description: '`platform` or `cross-platform`, when the browser tells' }),
    })
    .meta({ title });
}

/** A `PublicKeyCredentialDescriptorJSON` (excludeCredentials, allowCredentials). */
const credentialDescriptorSchema = z.looseObject({
  id: z.string(),
  type: z.literal('public-key'),
  transports: z.array(z.string()).optional(),
});

/** `POST /v2/auth/passkeys/registration-options` and `/authentication-options`: `{}`. */
export const passkeyOptionsRequestSchema = z.object({}).meta({ title: 'PasskeyOptionsRequest' });

/**
 * `POST /v2/auth/passkeys/registration-options` (Bearer, step-up): the
 * `PublicKeyCredentialCreationOptionsJSON` for `navigator.credentials.create` (a discoverable
 * credential with user verification, no attestation). Its challenge is valid for `timeout`.
 */
export const passkeyRegistrationOptionsSchema = z
  .looseObject({
    challenge: z.string().meta({ description: 'one-time challenge (base64url)' }),
    rp: z.looseObject({ id: z.string(), name: z.string() }).meta({
      description: "the relying party: its id is PUBLIC_URL's host name",
    }),
    user: z
      .looseObject({ id: z.string(), name: z.string(), displayName: z.string() })
      .meta({ description: 'the WebAuthn user handle (base64url, not the user id) and names' }),
    pubKeyCredParams: z.array(z.looseObject({ type: z.literal('public-key'), alg: z.number() })),
    excludeCredentials: z
      .array(credentialDescriptorSchema)
      .meta({ description: "the caller's passkeys already registered" }),
    authenticatorSelection: z.looseObject({
      residentKey: z.string(),
      userVerification: z.string(),
    }),
    attestation: z.string(),
    timeout: z.number().int().positive().meta({ description: 'milliseconds' }),
  })
  .meta({ title: 'PasskeyRegistrationOptions' });
export type PasskeyRegistrationOptions = z.infer<typeof passkeyRegistrationOptionsSchema>;

/** `POST /v2/auth/passkeys` (Bearer, step-up): the authenticator's answer and a name for it. */
export const passkeyRegistrationRequestSchema = z
  .object({
    response: credentialJson(
      'PasskeyRegistrationResponse',
      'AuthenticatorAttestationResponseJSON: clientDataJSON, attestationObject, transports…',
    ),
    name: plainText(PASSKEY_LIMITS.nameLength)
      .optional()
      .meta({ description: 'what the account lists it as (default: chosen by the service)' }),
  })
  .meta({ title: 'PasskeyRegistrationRequest' });
export type PasskeyRegistrationRequest = z.infer<typeof passkeyRegistrationRequestSchema>;
/** A `RegistrationResponseJSON` (`credential.toJSON()` of `navigator.credentials.create`). */
export type PasskeyRegistrationResponse = PasskeyRegistrationRequest['response'];

/** A passkey of the caller: `POST /v2/auth/passkeys` answers it (201), the account lists them. */
export const passkeySummarySchema = z
  .object({
    id: z.string().meta({ description: 'the credential id (base64url)' }),
    name: z.string(),
    // ISO 8601 like the account's other instants (linkedAt, grantedAt).
    createdAt: z.iso.datetime().meta({ description: 'when it was registered (ISO 8601)' }),
    lastUsedAt: z.iso
      .datetime()
      .optional()
      .meta({ description: 'when it last logged in (ISO 8601); absent: never' }),
  })
  .meta({ title: 'PasskeySummary' });
export type PasskeySummary = z.infer<typeof passkeySummarySchema>;

/** `POST /v2/auth/passkeys/remove` (Bearer, step-up): one of the caller's passkeys. */
export const passkeyRemoveRequestSchema = z
  .object({ id: credentialId.meta({ description: 'the credential id (base64url)' }) })
  .meta({ title: 'PasskeyRemoveRequest' });
export type PasskeyRemoveRequest = z.infer<typeof passkeyRemoveRequestSchema>;

/**
 * `POST /v2/auth/passkeys/authentication-options` (anonymous): the
 * `PublicKeyCredentialRequestOptionsJSON` for `navigator.credentials.get` (no allowCredentials:
 * the authenticator offers its discoverable credentials for the RP).
 */
export const passkeyAuthenticationOptionsSchema = z
  .looseObject({
    challenge: z.string().meta({ description: 'one-time challenge (base64url)' }),
    rpId: z.string(),
    allowCredentials: z.array(credentialDescriptorSchema).optional(),
    userVerification: z.string(),
    timeout: z.number().int().positive().meta({ description: 'milliseconds' }),
  })
  .meta({ title: 'PasskeyAuthenticationOptions' });
export type PasskeyAuthenticationOptions = z.infer<typeof passkeyAuthenticationOptionsSchema>;

/** `POST /v2/auth/auth-user-with-passkey` (anonymous): the assertion; answers the login result. */
export const passkeyAuthenticationRequestSchema = z
  .object({
    response: credentialJson(
      'PasskeyAuthenticationResponse',
      'AuthenticatorAssertionResponseJSON: clientDataJSON, authenticatorData, signature, userHandle',
    ),
  })
  .meta({ title: 'PasskeyAuthenticationRequest' });
export type PasskeyAuthenticationRequest = z.infer<typeof passkeyAuthenticationRequestSchema>;
/** An `AuthenticationResponseJSON` (`credential.toJSON()` of `navigator.credentials.get`). */
export type PasskeyAuthenticationResponse = PasskeyAuthenticationRequest['response'];
