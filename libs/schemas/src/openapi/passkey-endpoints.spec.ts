import { describe, expect, it } from '@jest/globals';
import { buildOpenApiDocument } from './build-openapi.js';

/**
 * The passkey endpoints (docs/api.md §13) in the OpenAPI document: who may call each, what it
 * answers with which status, and the refusals it documents.
 */
type Operation = {
  operationId: string;
  security?: Array<Record<string, string[]>>;
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
};
const doc = buildOpenApiDocument({ version: 'test' }) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
};
const post = (path: string): Operation => {
  const operation = doc.paths[path]?.['post'];
  if (!operation) throw new Error(`no POST ${path} in the document`);
  return operation;
};
const responseSchema = (operation: Operation, status: string) => {
  const ref = operation.responses[status]?.content?.['application/json']?.schema.$ref ?? '';
  return doc.components.schemas[ref.replace('#/components/schemas/', '')];
};

describe('the passkey endpoints in the OpenAPI document', () => {
  it('adding and removing a passkey take a bearer JWT and document the step-up refusal', () => {
    for (const path of [
      '/v2/auth/passkeys/registration-options',
      '/v2/auth/passkeys',
      '/v2/auth/passkeys/remove',
    ]) {
      const operation = post(path);
      expect({ path, security: operation.security }).toEqual({
        path,
        security: [{ userBearer: [] }],
      });
      expect(JSON.stringify(operation.responses['401'])).toContain(
        'insufficient_user_authentication',
      );
    }
  });

  it('the login side is anonymous', () => {
    for (const path of [
      '/v2/auth/passkeys/authentication-options',
      '/v2/auth/auth-user-with-passkey',
    ]) {
      expect({ path, security: post(path).security }).toEqual({ path, security: undefined });
    }
  });

  it('registering answers 201 with the passkey; the others 200', () => {
    const register = post('/v2/auth/passkeys');
    expect(Object.keys(register.responses)).toEqual([
      '201',
      '400',
      '401',
      '409',
      '413',
      '415',
      '500',
      '503',
    ]);
    expect(Object.keys(responseSchema(register, '201')?.properties ?? {})).toEqual([
      'id',
      'name',
      'createdAt',
      'lastUsedAt',
    ]);
    expect(Object.keys(post('/v2/auth/passkeys/remove').responses)).toEqual([
      '200',
      '400',
      '401',
      '404',
      '413',
      '415',
      '500',
      '503',
    ]);
    expect(Object.keys(post('/v2/auth/auth-user-with-passkey').responses)).toEqual([
      '200',
      '400',
      '401',
      '413',
      '415',
      '429',
      '500',
      '503',
    ]);
    expect(
      Object.keys(responseSchema(post('/v2/auth/auth-user-with-passkey'), '200')?.properties ?? {}),
    ).toEqual(['token', 'userId', 'name', 'telNo', 'email']);
  });

  it('the options are the WebAuthn JSON objects a browser parses', () => {
    expect(
      Object.keys(
        responseSchema(post('/v2/auth/passkeys/registration-options'), '200')?.properties ?? {},
      ),
    ).toEqual(
      expect.arrayContaining(['challenge', 'rp', 'user', 'pubKeyCredParams', 'excludeCredentials']),
    );
    expect(
      Object.keys(
        responseSchema(post('/v2/auth/passkeys/authentication-options'), '200')?.properties ?? {},
      ),
    ).toEqual(expect.arrayContaining(['challenge', 'rpId', 'userVerification', 'timeout']));
  });

  it('the account lists passkeys', () => {
    const account = doc.paths['/v2/auth/account']?.['get'];
    expect(Object.keys(responseSchema(account!, '200')?.properties ?? {})).toContain('passkeys');
  });
});
