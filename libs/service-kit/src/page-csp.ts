/**
 * The Content-Security-Policy of a server-rendered page of this platform (the demo pages, the
 * OpenID Connect login pages): scripts, styles and requests only from the page's own origin (no
 * inline script or style), images from there or data: URLs (QR codes), no plugins, no `<base>`,
 * never framed. `formAction`: where the page's forms may post (absent: not restricted, because a
 * browser applies form-action to the redirects after a post too).
 */
export function pageCsp(options: { formAction?: string } = {}): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    ...(options.formAction === undefined ? [] : [`form-action ${options.formAction}`]),
    "frame-ancestors 'none'",
  ].join('; ');
}
