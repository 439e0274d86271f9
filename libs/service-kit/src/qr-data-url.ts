import { LRUCache } from 'lru-cache';

/**
 * A QR code (of a requestId or an `openid4vp://` URI) as a PNG data URL, made here (no QR
 * service, no browser library): what a login page shows and a phone scans.
 */
export async function qrDataUrl(text: string): Promise<string> {
  // Loaded on first use: services that never draw a QR code never load it.
  const { default: QRCode } = await import('qrcode');
  return QRCode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, scale: 6 });
}

/**
 * `render` (qrDataUrl) remembered per text: a page shown again (a reload, a refused password)
 * draws its QR codes once. The texts are one-time ids that live minutes: `ttlMs` bounds them.
 */
export function rememberedQrDataUrl(
  render: (text: string) => Promise<string> = qrDataUrl,
  { max = 1000, ttlMs = 10 * 60_000 }: { max?: number; ttlMs?: number } = {},
): (text: string) => Promise<string> {
  const drawn = new LRUCache<string, Promise<string>>({ max, ttl: ttlMs });
  return (text) => {
    let url = drawn.get(text);
    if (!url) {
      url = render(text);
      drawn.set(text, url);
      // A failed drawing is not remembered.
      url.catch(() => drawn.delete(text));
    }
    return url;
  };
}
