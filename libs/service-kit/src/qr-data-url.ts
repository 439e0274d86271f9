/**
 * A QR code (of a requestId or an `openid4vp://` URI) as a PNG data URL, made here (no QR
 * service, no browser library): what a login page shows and a phone scans.
 */
export async function qrDataUrl(text: string): Promise<string> {
  // Loaded on first use: services that never draw a QR code never load it.
  const { default: QRCode } = await import('qrcode');
  return QRCode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, scale: 6 });
}
