/** Only an `openid4vp:` URI is shown (the pages link it: no other scheme reaches an href). */
export function isOpenid4vpUri(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 4096 && value.startsWith('openid4vp://');
}
