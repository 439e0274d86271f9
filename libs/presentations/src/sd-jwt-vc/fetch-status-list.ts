const TIMEOUT_MS = 10_000;

/**
 * The default status list fetcher: GET `uri` with `Accept: application/statuslist+jwt` (Token
 * Status List §8.1), 10 s timeout, only https (http for localhost). Throws on anything but a 2xx.
 */
export async function fetchStatusList(uri: string): Promise<string> {
  const url = new URL(uri);
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) {
    throw new Error(`status list URI ${uri} is not https`);
  }
  const response = await fetch(url, {
    headers: { accept: 'application/statuslist+jwt' },
    signal: AbortSignal.timeout(TIMEOUT_MS),
    redirect: 'error',
  });
  if (!response.ok) throw new Error(`status list ${uri} answered ${response.status}`);
  return (await response.text()).trim();
}
