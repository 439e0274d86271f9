import { describe, expect, it } from '@jest/globals';
import type { AccountResponse } from '@itp/client';
import { accountText } from './account.js';

const account: AccountResponse = {
  userId: 'demo',
  name: 'Demo User',
  linkedAddresses: [],
  passkeys: [
    {
      id: 'AbC-_9',
      name: 'Laptop',
      createdAt: Date.UTC(2026, 0, 6, 9, 30),
      lastUsedAt: Date.UTC(2026, 1, 1, 12),
    },
    { id: 'XyZ0', name: 'Security key', createdAt: Date.UTC(2026, 0, 7) },
  ],
  sites: [],
};

describe('accountText: passkeys', () => {
  it('lists each passkey: name, when added and last used (ISO 8601, UTC; "never"), its id', () => {
    expect(accountText(account, [])).toBe(
      [
        'userId  demo',
        'name    Demo User',
        'email   -',
        '',
        'linked addresses: none',
        '',
        'passkeys',
        'name          createdAt                 lastUsedAt                id',
        'Laptop        2026-01-06T09:30:00.000Z  2026-02-01T12:00:00.000Z  AbC-_9',
        'Security key  2026-01-07T00:00:00.000Z  never                     XyZ0',
        '',
        'sites: none',
        '',
        'credentials: none',
        '',
      ].join('\n'),
    );
  });

  it('says none when the account has no passkey', () => {
    expect(accountText({ ...account, passkeys: [] }, [])).toContain(
      '\nlinked addresses: none\n\npasskeys: none\n\nsites: none\n',
    );
  });
});
