const TIMEOUT_MS = 10_000;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A token status list (draft-ietf-oauth-status-list §8.1) by HTTP GET with `Accept:
 * application/statuslist+jwt`: https only (http on loopback: dev and test stacks), no redirects,
 * 10 s at most. Throws for anything but a 2xx: the caller tells an unreachable list (503) from a
 * refused credential.
 */
export async function fetchStatusListOverHttp(uri: string): Promise<string> {
  const url = new URL(uri);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw new Error(`status list URI ${uri} is not https`);
  }
  const response = await fetch(url, {
    headers: { accept: 'application/statuslist+jwt' },
    signal: AbortSignal.timeout(TIMEOUT_MS),
    redirect: 'error',
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`status list ${uri} answered ${response.status}`);
  }
  return (await response.text()).trim();
}
