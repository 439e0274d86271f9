/**
 * The provider's HTML: the login page (password, the phone app's QR, any wallet's OpenID4VP QR),
 * error, logout and logged-out pages. Server-rendered, no external assets (but the operator's
 * logo, when configured), no inline script or style (OIDC_PAGE_CSP): the login page's script is
 * the file browser/login-page.js (OIDC_LOGIN_SCRIPT); every interpolated value is escaped.
 */
import { readFileSync } from 'node:fs';
import { escapeHtml, pageCsp } from '@itp/service-kit';

/**
 * The Content-Security-Policy of every page under the issuer: the platform's page policy; form
 * posts are not restricted (the login form's post is redirected on to the site's redirect URI).
 */
export const OIDC_PAGE_CSP = pageCsp();

/**
 * The operator's branding of the login pages (LOGIN_PAGE_PRODUCT_NAME, LOGIN_PAGE_LOGO_URL,
 * LOGIN_PAGE_PRIMARY_COLOR; config.ts validates them): none set, the pages load nothing from
 * outside the provider's origin.
 */
export interface LoginBranding {
  productName?: string;
  /** An https URL (its origin joins the CSP's img-src) or a same-origin absolute path. */
  logoUrl?: string;
  /** A CSS hex colour (`#rgb` or `#rrggbb`): buttons and links. */
  primaryColor?: string;
}

/** OIDC_PAGE_CSP, with the origin of an https logo URL in img-src (a path: 'self' has it). */
export function oidcPageCsp(branding: LoginBranding = {}): string {
  const logo = branding.logoUrl;
  if (!logo || !logo.startsWith('https://')) return OIDC_PAGE_CSP;
  const origin = new URL(logo).origin;
  return OIDC_PAGE_CSP.replace("img-src 'self' data:", `img-src 'self' data: ${origin}`);
}

/**
 * The Referrer-Policy of every page under the issuer (header and meta tag): no referrer leaves
 * the provider's origin (the interaction URLs stay private), and the login form's POST carries
 * its real Origin (`no-referrer` would make it `Origin: null`, refused as cross-origin).
 */
export const OIDC_REFERRER_POLICY = 'same-origin';

/**
 * A page. Its icon is empty (`data:,`): otherwise a browser asks the provider's origin (the
 * gateway) for /favicon.ico, which it does not serve (a 404 in the console of every login page).
 * `assets` is the absolute path of the issuer's `assets/` (`/v2/auth/oidc/assets/`, below
 * PUBLIC_URL's path when it has one): pages sit at different depths below the issuer.
 */
function layout(
  title: string,
  assets: string,
  body: string,
  script = false,
  branding: LoginBranding = {},
): string {
  const product = branding.productName;
  const logo = branding.logoUrl
    ? `<img class="logo" id="brand-logo" src="${escapeHtml(branding.logoUrl)}" alt="${escapeHtml(product ?? '')}">`
    : '';
  const name = product ? `<span class="product" id="brand-name">${escapeHtml(product)}</span>` : '';
  const header = logo || name ? `<header class="brand">${logo}${name}</header>\n` : '';
  const fullTitle = product ? `${title} · ${product}` : title;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="${OIDC_REFERRER_POLICY}">
<title>${escapeHtml(fullTitle)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assets}oidc.css">
${script ? `<script src="${assets}login.js" defer></script>\n` : ''}</head>
<body>
<main>
${header}${body}
</main>
</body>
</html>
`;
}

/**
 * The page's QR logins as its script gets them (`POST <interaction>/qr`, JSON) and shows them:
 * the phone app's QR (`#app-qr`, its requestId in `data-request-id`) and, when did-service made
 * the request object in time, the wallet's (`#wallet-qr`, `#wallet-link`).
 */
export interface LoginPageQr {
  /** The phone app's QR: the requestId it approves (auth-user-with-vp). */
  requestId: string;
  requestIdQr: string;
  /** Any wallet's QR (OpenID4VP), when did-service made the request object in time. */
  openid4vpUri?: string;
  openid4vpQr?: string;
}

export interface LoginPageView {
  assets: string;
  /**
   * The absolute path of the interaction (`<issuer path>/interaction/<uid>`): the page's form,
   * poll and Sign-In with Ethereum URLs start with it, so the page works wherever it is served
   * (its GET, or the form post's answer at `…/<uid>/login` after a refusal).
   */
  interaction: string;
  uid: string;
  /** The site's name; none: the page says "the site" (never a bare client id). */
  clientName?: string;
  /** The id typed before (after a refused password). */
  userId?: string;
  error?: string;
  /**
   * The page has QR logins (the client has request id prefixes): a place for them that the
   * page's script fills from `<interaction>/qr` when the person picks them (LoginPageQr, or the
   * notice of the QR pages per IP limit), then polls `<interaction>/status`.
   */
  qrLogins?: boolean;
  /** Offer Sign-In with Ethereum (the browser's wallet, EIP-1193). */
  siwe?: boolean;
  /** Offer "Sign in with a passkey" and the passkey autofill on the user id (WebAuthn). */
  passkey?: boolean;
  branding?: LoginBranding;
}

/**
 * The login page of interaction `uid`, at `<issuer>/interaction/<uid>` (and, refused, at the form
 * post's `<issuer>/interaction/<uid>/login`): the form posts to `<interaction>/login`, the script
 * polls `<interaction>/status` for the QR logins and asks `<interaction>/siwe/message` and
 * `<interaction>/siwe` for Sign-In with Ethereum; every one an absolute path.
 */
export function renderLoginPage(view: LoginPageView): string {
  const base = escapeHtml(view.interaction);
  const error = view.error
    ? `<p class="error" role="alert" id="login-error">${escapeHtml(view.error)}</p>\n`
    : '';
  // The QR logins are made when the page's script asks for them (ADR 0036): it draws the
  // sections into #qr-logins (headings, the images, the wallet link) as this page used to.
  const qrSections = view.qrLogins
    ? `<div id="qr-logins" data-qr-url="${base}/qr"></div>
<p id="qr-status" role="status" aria-live="polite" data-status-url="${base}/status"></p>
<noscript><p>The QR code logins need JavaScript; the password form works without it.</p></noscript>
`
    : '';
  const siweSection = view.siwe
    ? `<section aria-labelledby="siwe-heading" id="siwe" data-message-url="${base}/siwe/message" data-login-url="${base}/siwe">
<h2 id="siwe-heading">Sign in with Ethereum</h2>
<p>Use the Ethereum wallet of this browser. Its address must be linked to your account; the wallet shows the message before you sign.</p>
<button type="button" id="siwe-button">Sign in with Ethereum</button>
<p id="siwe-status" role="status" aria-live="polite"></p>
<noscript><p>Sign-In with Ethereum needs JavaScript.</p></noscript>
</section>
`
    : '';
  const passkeySection = view.passkey
    ? `<section aria-labelledby="passkey-heading" id="passkey" data-options-url="${base}/passkey/options" data-login-url="${base}/passkey">
<h2 id="passkey-heading">Sign in with a passkey</h2>
<p>Use a passkey of this device, a security key or your phone.</p>
<button type="button" id="passkey-button">Sign in with a passkey</button>
<p id="passkey-status" role="status" aria-live="polite"></p>
<noscript><p>Passkeys need JavaScript.</p></noscript>
</section>
`
    : '';
  const site = view.clientName === undefined ? 'the site' : escapeHtml(view.clientName);
  return layout(
    'Log in',
    view.assets,
    `<h1>${view.clientName === undefined ? 'Log in to continue to the site' : `Log in to ${site}`}</h1>
${error}<section aria-labelledby="password-heading">
<h2 id="password-heading">With your password</h2>
<form method="post" action="${base}/login" autocomplete="on">
<label for="id">User id</label>
<input id="id" name="id" type="text" autocomplete="${view.passkey ? 'username webauthn' : 'username'}" required maxlength="256" value="${escapeHtml(view.userId ?? '')}"${view.userId ? '' : ' autofocus'}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024"${view.userId ? ' autofocus' : ''}>
<button type="submit">Log in</button>
</form>
</section>
${passkeySection}${siweSection}${qrSections}<form method="post" action="${base}/abort" id="cancel-form">
<button type="submit" id="cancel" class="secondary">Cancel and return to ${site}</button>
</form>
`,
    view.qrLogins === true || view.siwe === true || view.passkey === true,
    view.branding,
  );
}

/** A page for a refusal of the provider (unknown client, unregistered redirect_uri, ...). */
export function renderOidcErrorPage(
  assets: string,
  out: { error?: unknown; error_description?: unknown },
): string {
  const error = typeof out.error === 'string' ? out.error : 'server_error';
  const description =
    typeof out.error_description === 'string' ? out.error_description : 'Something went wrong';
  return layout(
    'Login error',
    assets,
    `<h1>The login cannot continue</h1>
<p class="error" role="alert"><code id="oidc-error">${escapeHtml(error)}</code>: <span id="oidc-error-description">${escapeHtml(description)}</span></p>
<p>Return to the site you came from and start the login again.</p>`,
  );
}

/** A page with one message (an expired login page, a form that could not be read). */
export function renderMessagePage(assets: string, title: string, message: string): string {
  return layout(
    title,
    assets,
    `<h1>${escapeHtml(title)}</h1>
<p class="error" role="alert" id="login-error">${escapeHtml(message)}</p>`,
  );
}

/** How an expired login page leads back: the same authorization request again, the site. */
export interface ExpiredPageWayBack {
  /** `<issuer path>/auth?<the request's parameters>`: a new login page for the same request. */
  startAgain: string;
  clientName?: string;
  /** The origin of the site's redirect URI. */
  siteUrl?: string;
}

/** An expired or unknown login page: start again, or back to the site. */
export function renderExpiredInteractionPage(
  assets: string,
  wayBack?: ExpiredPageWayBack,
  branding?: LoginBranding,
): string {
  const title = 'This login page has expired';
  if (!wayBack) {
    return layout(
      title,
      assets,
      `<h1>${title}</h1>
<p class="error" role="alert" id="login-error">The login took too long or was already completed. Return to the site you came from and start the login again.</p>`,
      false,
      branding,
    );
  }
  const site = wayBack.clientName === undefined ? 'the site' : escapeHtml(wayBack.clientName);
  return layout(
    title,
    assets,
    `<h1>${title}</h1>
<p class="error" role="alert" id="login-error">The login took too long or was already completed.</p>
<p><a id="start-again" href="${escapeHtml(wayBack.startAgain)}">Start the login to ${site} again</a></p>
${
  wayBack.siteUrl
    ? `<p><a id="back-to-site" href="${escapeHtml(wayBack.siteUrl)}">Back to ${site}</a></p>
`
    : ''
}`,
    false,
    branding,
  );
}

/** End-session's confirmation (oidc-provider hands in the form with its CSRF secret). */
export function renderLogoutPage(assets: string, form: string): string {
  // `form` is oidc-provider's own markup: a hidden form with the xsrf field and id="op.logoutForm".
  return layout(
    'Log out',
    assets,
    `<h1>Log out</h1>
<p>Do you want to log out of this login service?</p>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes">Log out</button>
<button type="submit" form="op.logoutForm">Stay logged in</button>`,
  );
}

export function renderLoggedOutPage(assets: string): string {
  return layout('Logged out', assets, '<h1>You are logged out</h1>');
}

export const OIDC_CSS = `:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
body { margin: 0; display: flex; justify-content: center; }
main { max-width: 28rem; width: 100%; padding: 1.5rem; }
h1 { font-size: 1.5rem; }
h2 { font-size: 1.1rem; margin-top: 2rem; }
label { display: block; margin-top: 0.75rem; font-weight: 600; }
input { display: block; width: 100%; box-sizing: border-box; padding: 0.5rem; font-size: 1rem; }
button.secondary { background: none; border: none; padding: 0; text-decoration: underline; color: inherit; }
button { margin-top: 1rem; padding: 0.6rem 1.2rem; font-size: 1rem; cursor: pointer; }
.error { color: #b00020; font-weight: 600; }
.qr { width: 14rem; height: 14rem; image-rendering: pixelated; }
.brand { display: flex; align-items: center; gap: 0.75rem; }
.logo { max-height: 3rem; max-width: 12rem; }
.product { font-weight: 600; font-size: 1.1rem; }
`;

/** The pages' stylesheet, with the operator's primary colour (a validated hex colour) if set. */
export function oidcCss(branding: LoginBranding = {}): string {
  const color = branding.primaryColor;
  if (!color || !/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(color)) return OIDC_CSS;
  return `${OIDC_CSS}button:not(.secondary) { background: ${color}; border: 1px solid ${color}; color: #fff; border-radius: 0.25rem; }
a, button.secondary { color: ${color}; }
`;
}

/**
 * The login page's script (`<issuer>/assets/login.js`): the file browser/login-page.js beside this
 * module (QR logins' status poll, Sign-In with Ethereum), type-checked by tsconfig.browser.json
 * and linted with browser globals, read once when this module loads. The images carry it as
 * dist/browser/login-page.js (tools/build/assemble-app.ts), where `./browser/` points from the
 * bundle. The page passes it its URLs in data- attributes (renderLoginPage).
 */
export const OIDC_LOGIN_SCRIPT = readFileSync(
  new URL('./browser/login-page.js', import.meta.url),
  'utf8',
);
