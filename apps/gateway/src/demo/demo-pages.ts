/**
 * The demo's pages: plain HTML, no inline script or style (the CSP allows only the gateway's own
 * files), no build step. Element ids are what the browser test (demo.browser.spec.ts) drives.
 */
import { escapeHtml } from '@itp/service-kit';

export const head = (title: string, script?: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="/docs/favicon-32x32.png">
<link rel="stylesheet" href="/demo/demo.css">
${script ? `<script src="/demo/${script}" defer></script>\n` : ''}</head>`;

export const DEMO_INDEX_PAGE = `${head('ITP demo')}
<body>
<main>
<h1>QR login demo</h1>
<p>Two pages play the two sides of a web-site login (development mode only):</p>
<ol>
<li><a href="/demo/site">The web site</a>: its server starts a login request and shows its
requestId as a QR code, then waits for the result.</li>
<li><a href="/demo/phone">The phone app</a>: logs in with a password, gets a wallet, a DID and a
credential, and approves the request with a verifiable presentation.</li>
</ol>
<p>Open them side by side. The dev stack's demo user is <code>demo</code> /
<code>demo-password</code>. API reference: <a href="/docs">/docs</a>.</p>
<h2>Passkeys</h2>
<p><a href="/demo/passkeys">Passkeys</a>: log in with a password, add a passkey (WebAuthn) to the
account, list and remove them, and sign in with one.</p>
<h2>Verify your age</h2>
<p><a href="/demo/age">Prove you are over 18</a>: a site asks an EU Digital Identity wallet for
one fact, <code>age_over_18</code> from its PID (SD-JWT VC or mdoc), and the platform verifies
what the wallet presents (OpenID4VP 1.0, HAIP): the site learns that fact and who issued it,
nothing else.</p>
<h2>OpenID Connect</h2>
<p><a href="/demo/oidc">Log in with OpenID Connect</a>: a site whose server uses the standard
<code>openid-client</code> library against the platform's provider (authorization code with
PKCE), then shows the id_token's and userinfo's claims.</p>
</main>
</body>
</html>
`;

export const DEMO_SITE_PAGE = `${head('Demo web site', 'site.js')}
<body>
<main class="site">
<h1>Demo web site</h1>
<p>Log in with the phone app: scan or copy the code below into <a href="/demo/phone" target="_blank">the phone app</a>,
or, when the platform offers it, with any OpenID4VP wallet: either code logs this page in.</p>
<button id="start" type="button">Log in with the app</button>
<section id="request" hidden>
<div class="qrs">
<figure>
<img id="qr" alt="QR code of the login request's requestId, for the phone app">
<figcaption>The phone app. requestId: <code id="request-id"></code></figcaption>
</figure>
<figure id="oid4vp" hidden>
<img id="oid4vp-qr" alt="QR code of the login request for any OpenID4VP wallet (the link below)">
<figcaption>Any OpenID4VP wallet: scan, or open or copy
<a id="oid4vp-uri" href="">the openid4vp:// link</a>:
<code id="oid4vp-uri-text"></code></figcaption>
</figure>
</div>
</section>
<p id="status" role="status"></p>
<section id="user" hidden>
<h2>Welcome, <span id="user-name"></span></h2>
<p>userId <code id="user-id"></code>, email <code id="user-email"></code></p>
</section>
</main>
</body>
</html>
`;

export const DEMO_PHONE_PAGE = `${head('Demo phone app', 'phone.js')}
<body>
<main class="phone">
<h1>Demo phone app</h1>
<section>
<h2>1. Log in</h2>
<label>User id <input id="user-id" autocomplete="username" value="demo"></label>
<label>Password <input id="password" type="password" autocomplete="current-password" placeholder="demo-password"></label>
<button id="login" type="button">Log in</button>
</section>
<section>
<h2>2. Wallet, DID and credential</h2>
<p>Made on first use and kept in this browser (localStorage: a demo, not a real key store).</p>
<ul id="setup"></ul>
<p>DID: <code id="did"></code></p>
</section>
<section>
<h2>3. Approve a web-site login</h2>
<label>requestId (from the QR code) <textarea id="request-id" rows="3"></textarea></label>
<button id="approve" type="button" disabled>Approve with a VP</button>
<p id="approve-status" role="status"></p>
</section>
</main>
</body>
</html>
`;

export const DEMO_PASSKEYS_PAGE = `${head('Demo passkeys', 'passkeys.js')}
<body>
<main class="site">
<h1>Passkeys</h1>
<p>A passkey (WebAuthn) is a key pair your device or security key keeps for this platform: it logs
you in without a password. Its relying party is the host name of the platform's public URL
(<code>localhost</code> under <code>npm start</code>): open this page there. The dev stack's demo
user is <code>demo</code> / <code>demo-password</code>.</p>
<p id="support" class="error" role="alert" hidden></p>
<section>
<h2>1. Log in</h2>
<label>User id <input id="user-id" autocomplete="username" value="demo"></label>
<label>Password <input id="password" type="password" autocomplete="current-password" placeholder="demo-password"></label>
<button id="login" type="button">Log in</button>
<p id="login-status" role="status"></p>
</section>
<section id="account" hidden>
<h2>2. Your passkeys</h2>
<p>Logged in as <span id="account-name"></span> (<code id="account-user-id"></code>). Adding or
removing a passkey needs a login of the last few minutes.</p>
<label>Name of the new passkey (optional) <input id="passkey-name" maxlength="64" placeholder="e.g. Laptop"></label>
<button id="add" type="button">Add a passkey</button>
<p id="add-status" role="status"></p>
<ul id="passkeys"></ul>
<p id="passkeys-none">No passkeys yet.</p>
</section>
<section>
<h2>3. Sign in with a passkey</h2>
<p>No user id, no password: the browser offers the passkeys it has for this site.</p>
<button id="signin" type="button">Sign in with a passkey</button>
<p id="signin-status" role="status"></p>
<section id="signed-in" hidden>
<h3>Welcome, <span id="signed-in-name"></span></h3>
<p>userId <code id="signed-in-user-id"></code>, email <code id="signed-in-email"></code></p>
</section>
</section>
</main>
</body>
</html>
`;

export const DEMO_AGE_PAGE = `${head('Demo: prove you are over 18', 'age.js')}
<body>
<main class="site">
<h1>Prove you are over 18</h1>
<p>This site sells things only adults may buy. Instead of your name and birth date it asks your
EU Digital Identity wallet for one fact from your PID (person identification data, as an SD-JWT
VC or an mdoc): <code>age_over_18</code>. Its server sends the question to the platform, which
verifies what your wallet presents (the issuer's signature and certificate chain, that the
credential is yours and meant for this request, not expired, not revoked) and tells this site the
outcome.</p>
<button id="start" type="button">Prove you are over 18</button>
<section id="request" hidden>
<figure>
<img id="qr" alt="QR code of the presentation request for an EU Digital Identity wallet (the link below)">
<figcaption>Scan with your wallet, or on this device open
<a id="oid4vp-uri" href="">the openid4vp:// link</a>:
<code id="oid4vp-uri-text"></code></figcaption>
</figure>
</section>
<p id="status" role="status"></p>
<section id="result" hidden>
<h2 id="verdict"></h2>
<p id="issuer-line" hidden>Issuer: <code id="issuer"></code> (<span id="format"></span>)</p>
<p id="learned"></p>
</section>
</main>
</body>
</html>
`;

export const DEMO_CSS = `body { font-family: system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d2330; }
main { max-width: 40rem; margin: 2rem auto; padding: 1.5rem 2rem; background: #fff; border-radius: 8px; }
main.phone { max-width: 24rem; }
label { display: block; margin: 0.5rem 0; }
input, textarea { display: block; width: 100%; box-sizing: border-box; padding: 0.4rem; font: inherit; }
textarea { font-family: monospace; font-size: 0.8rem; }
button { margin: 0.5rem 0; padding: 0.5rem 1rem; font: inherit; cursor: pointer; }
code, li, td { overflow-wrap: anywhere; }
a.button { display: inline-block; margin: 0.5rem 0; padding: 0.5rem 1rem; border: 1px solid #1d2330; border-radius: 4px; color: inherit; text-decoration: none; }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1rem; }
th, td { text-align: left; vertical-align: top; padding: 0.25rem 0.5rem; border-bottom: 1px solid #dde0e6; font-family: monospace; }
th { width: 8rem; }
#qr, #oid4vp-qr { display: block; margin: 1rem 0; image-rendering: pixelated; }
.qrs { display: flex; flex-wrap: wrap; gap: 1rem; }
.qrs figure { flex: 1 1 16rem; margin: 0; }
.ok { color: #0a6b2d; }
.error { color: #b00020; }
`;

/** What `/demo/oidc` shows: the login link, who logged in, or why the login failed. */
export type DemoOidcView =
  | { kind: 'start' }
  | {
      kind: 'logged-in';
      idTokenClaims: Record<string, unknown>;
      userinfo: Record<string, unknown>;
    }
  | { kind: 'error'; message: string };

const claimsTable = (id: string, claims: Record<string, unknown>) =>
  `<table id="${id}">\n${Object.entries(claims)
    .map(([name, value]) => {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      return `<tr><th>${escapeHtml(name)}</th><td>${escapeHtml(text ?? '')}</td></tr>`;
    })
    .join('\n')}\n</table>`;

/** The demo OpenID Connect site's page (demo-oidc-site.ts); every claim is escaped. */
export function demoOidcPage(view: DemoOidcView): string {
  const login =
    '<a id="login" class="button" href="/demo/oidc/login">Log in with OpenID Connect</a>';
  let body: string;
  if (view.kind === 'logged-in') {
    const subject = typeof view.idTokenClaims.sub === 'string' ? view.idTokenClaims.sub : '';
    body = `<h2>Logged in as <code id="subject">${escapeHtml(subject)}</code></h2>
<h3>id_token claims</h3>
${claimsTable('id-token-claims', view.idTokenClaims)}
<h3>userinfo</h3>
${claimsTable('userinfo', view.userinfo)}
<a id="logout" class="button" href="/demo/oidc/logout">Log out</a>`;
  } else if (view.kind === 'error') {
    body = `<p id="error" class="error" role="alert">${escapeHtml(view.message)}</p>\n${login}`;
  } else {
    body = login;
  }
  return `${head('Demo OpenID Connect site')}
<body>
<main class="site">
<h1>Demo OpenID Connect site</h1>
<p>This site's server logs you in through the platform's OpenID Connect provider with the
<code>openid-client</code> library: authorization code flow with PKCE, then the id_token's and
userinfo's claims. The dev stack's demo user is <code>demo</code> / <code>demo-password</code>.</p>
${body}
</main>
</body>
</html>
`;
}
