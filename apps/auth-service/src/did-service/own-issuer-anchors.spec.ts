import 'reflect-metadata';
import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { ServiceUnavailableError } from '@itp/errors';
import type { Logger } from '@itp/service-kit';
import { manualClock, waitFor } from '@itp/testing/wait-for';
import { createCa, trustAnchorsFrom, type CreatedCa } from '@itp/x509';
import { OwnIssuerAnchors } from './own-issuer-anchors.js';

// The own SD-JWT issuers' roots as auth-service keeps them (pure logic: the source is a stand-in
// for did-service's adapter; the adapter itself is proven in http-did-service.spec.ts).

let own: CreatedCa;
let renewed: CreatedCa;
let configured: CreatedCa;

beforeAll(async () => {
  own = await createCa({ subject: 'CN=Own issuer CA' });
  renewed = await createCa({ subject: 'CN=Own issuer CA 2' });
  configured = await createCa({ subject: 'CN=Configured issuer CA' });
});

/** A did-service that answers `pems`, or fails while `down`; counts the calls. */
function source(initial: string[]) {
  const state = { pems: initial, down: false, calls: 0 };
  return {
    state,
    async sdJwtIssuerTrustAnchors(): Promise<string[]> {
      state.calls += 1;
      if (state.down) throw new ServiceUnavailableError('did-service is unavailable');
      return state.pems;
    },
  };
}

function captureLogger() {
  const warn = jest.fn();
  const info = jest.fn();
  return { logger: { warn, info } as unknown as Logger, warn, info };
}

const subjects = (anchors: { certificates: readonly { subject: string }[] }) =>
  anchors.certificates.map((c) => c.subject);

const running: OwnIssuerAnchors[] = [];
afterEach(() => {
  for (const anchors of running.splice(0)) anchors.stop();
});

describe('OwnIssuerAnchors', () => {
  it('fetches at start and trusts what did-service names, besides the configured anchors', async () => {
    const did = source([own.pem]);
    const anchors = new OwnIssuerAnchors(did, captureLogger().logger);
    running.push(anchors);
    const joined = anchors.joinedWith(trustAnchorsFrom([configured.pem, own.pem]));
    expect(subjects(joined)).toEqual(['CN=Configured issuer CA', 'CN=Own issuer CA']);
    anchors.start();
    await waitFor(() => anchors.anchors.certificates.length === 1, {
      what: 'the first fetch',
    });
    expect(subjects(anchors.anchors)).toEqual(['CN=Own issuer CA']);
    // Each certificate once.
    expect(subjects(joined)).toEqual(['CN=Configured issuer CA', 'CN=Own issuer CA']);
  });

  it('starts while did-service is down (one warning), then keeps trying until it answers', async () => {
    const did = source([own.pem]);
    did.state.down = true;
    const { logger, warn, info } = captureLogger();
    const anchors = new OwnIssuerAnchors(did, logger, { retryIntervalMs: 20 });
    running.push(anchors);
    expect(() => anchors.start()).not.toThrow();
    await waitFor(() => did.state.calls >= 3, { what: 'three attempts' });
    expect(anchors.anchors.certificates).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(warn.mock.calls)).not.toContain('BEGIN CERTIFICATE');
    did.state.down = false;
    await waitFor(() => anchors.anchors.certificates.length === 1, {
      what: 'the fetch once did-service is back',
    });
    expect(subjects(anchors.anchors)).toEqual(['CN=Own issuer CA']);
    expect(info).toHaveBeenCalledWith("the own SD-JWT issuers' trust anchors are fetched again");
  });

  it('fetches again for an untrusted chain at most once a minute, and says whether anything changed', async () => {
    const clock = manualClock();
    const did = source([own.pem]);
    const anchors = new OwnIssuerAnchors(did, captureLogger().logger, { clock: clock.now });
    await anchors.refresh();
    expect(did.state.calls).toBe(1);
    // A CA renewal at did-service: not seen before a minute has passed.
    did.state.pems = [own.pem, renewed.pem];
    await expect(anchors.refreshIfDue()).resolves.toBe(false);
    clock.advance(59_000);
    await expect(anchors.refreshIfDue()).resolves.toBe(false);
    expect(did.state.calls).toBe(1);
    clock.advance(1_000);
    await expect(anchors.refreshIfDue()).resolves.toBe(true);
    expect(subjects(anchors.anchors)).toEqual(['CN=Own issuer CA', 'CN=Own issuer CA 2']);
    expect(did.state.calls).toBe(2);
    // Nothing new a minute later: fetched, unchanged.
    clock.advance(60_000);
    await expect(anchors.refreshIfDue()).resolves.toBe(false);
    expect(did.state.calls).toBe(3);
  });

  it('keeps the last anchors when a fetch fails or answers something that is not PEM', async () => {
    const clock = manualClock();
    const did = source([own.pem]);
    const anchors = new OwnIssuerAnchors(did, captureLogger().logger, { clock: clock.now });
    await expect(anchors.refresh()).resolves.toBe(true);
    did.state.down = true;
    clock.advance(60_000);
    await expect(anchors.refreshIfDue()).resolves.toBe(false);
    expect(subjects(anchors.anchors)).toEqual(['CN=Own issuer CA']);
    // After a failure the next try waits retryIntervalMs (1 s by default), doubled after each
    // further failure (2 s, 4 s, …, at most a minute).
    await expect(anchors.refreshIfDue()).resolves.toBe(false);
    expect(did.state.calls).toBe(2);
    clock.advance(1_000);
    await expect(anchors.refreshIfDue()).resolves.toBe(false);
    expect(did.state.calls).toBe(3);
    clock.advance(1_999);
    await expect(anchors.refreshIfDue()).resolves.toBe(false);
    expect(did.state.calls).toBe(3);
    clock.advance(1);
    await expect(anchors.refreshIfDue()).resolves.toBe(false);
    expect(did.state.calls).toBe(4);
    did.state.down = false;
    did.state.pems = ['not a certificate'];
    clock.advance(4_000);
    await expect(anchors.refreshIfDue()).resolves.toBe(false);
    expect(did.state.calls).toBe(5);
    expect(subjects(anchors.anchors)).toEqual(['CN=Own issuer CA']);
    // A long outage: one try a minute at most.
    for (let i = 0; i < 8; i += 1) {
      clock.advance(60_000);
      await anchors.refreshIfDue();
    }
    const calls = did.state.calls;
    clock.advance(59_000);
    await expect(anchors.refreshIfDue()).resolves.toBe(false);
    expect(did.state.calls).toBe(calls);
  });

  it('before the first success, an untrusted chain may make it try again every second', async () => {
    const clock = manualClock();
    const did = source([own.pem]);
    did.state.down = true;
    const anchors = new OwnIssuerAnchors(did, captureLogger().logger, { clock: clock.now });
    for (let i = 1; i <= 5; i += 1) {
      await expect(anchors.refreshIfDue()).resolves.toBe(false);
      await expect(anchors.refreshIfDue()).resolves.toBe(false);
      expect(did.state.calls).toBe(i);
      clock.advance(1_000);
    }
    did.state.down = false;
    await expect(anchors.refreshIfDue()).resolves.toBe(true);
    expect(subjects(anchors.anchors)).toEqual(['CN=Own issuer CA']);
  });

  it('joins concurrent fetches into one', async () => {
    const did = source([own.pem]);
    const anchors = new OwnIssuerAnchors(did, captureLogger().logger);
    await Promise.all([anchors.refresh(), anchors.refresh(), anchors.refreshIfDue()]);
    expect(did.state.calls).toBe(1);
  });

  it('the joined anchors follow a change at once', async () => {
    const clock = manualClock();
    const did = source([own.pem]);
    const anchors = new OwnIssuerAnchors(did, captureLogger().logger, { clock: clock.now });
    const joined = anchors.joinedWith(trustAnchorsFrom([configured.pem]));
    expect(subjects(joined)).toEqual(['CN=Configured issuer CA']);
    await anchors.refresh();
    expect(subjects(joined)).toEqual(['CN=Configured issuer CA', 'CN=Own issuer CA']);
    did.state.pems = [];
    clock.advance(60_000);
    await expect(anchors.refreshIfDue()).resolves.toBe(true);
    expect(subjects(joined)).toEqual(['CN=Configured issuer CA']);
  });
});
