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
      createdAt: '2026-01-06T09:30:00.000Z',
      lastUsedAt: '2026-02-01T12:00:00.000Z',
    },
    { id: 'XyZ0', name: 'Security key', createdAt: '2026-01-07T00:00:00.000Z' },
  ],
  sites: [],
};

describe('accountText: passkeys', () => {
  it('lists each passkey: name, when added and last used ("never" when not yet), its id', () => {
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
