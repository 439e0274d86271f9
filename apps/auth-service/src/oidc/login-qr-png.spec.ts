import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { decodeQr } from '@itp/testing/qr';
import { LOGIN_QR, loginQrPngDataUrl } from './login-qr-png.js';

const png = (dataUrl: string) =>
  PNG.sync.read(Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'));

/** Black or white per pixel (what a scanner sees), row by row. */
const pixels = (image: PNG) => {
  const out: number[] = [];
  for (let i = 0; i < image.width * image.height; i += 1)
    out.push(image.data[i * 4]! < 128 ? 1 : 0);
  return out;
};

const TEXTS = [
  // The phone app's requestId (a site identifier and 52 digits), and an OpenID4VP URI.
  `https://site.example/login?requestId=${'1764'.repeat(13)}`,
  `openid4vp://?client_id=${encodeURIComponent('x509_san_dns:login.example')}&request_uri=${encodeURIComponent(`https://login.example/v2/auth/oid4vp/request/${'Ab1_'.repeat(11)}`)}`,
  'x',
  'Ünïcödé and a long tail '.repeat(12),
];

describe('loginQrPngDataUrl', () => {
  it.each(TEXTS)('is a PNG data URL a scanner reads as the text (%#)', (text) => {
    const url = loginQrPngDataUrl(text);
    expect(url).toMatch(/^data:image\/png;base64,/);
    expect(decodeQr(url)).toBe(text);
  });

  it.each(TEXTS)('draws the image qrcode draws, pixel for pixel (%#)', async (text) => {
    const ours = png(loginQrPngDataUrl(text));
    const theirs = png(await QRCode.toDataURL(text, LOGIN_QR));
    expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height]);
    expect(pixels(ours)).toEqual(pixels(theirs));
  });

  it('refuses a text no QR code holds (qrcode’s error)', () => {
    expect(() => loginQrPngDataUrl('x'.repeat(5000))).toThrow();
  });
});
