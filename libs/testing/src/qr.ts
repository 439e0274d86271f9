/** Test-only (`@itp/testing/qr`): reads QR codes the way a phone camera would, from PNG images. */
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';

// jsqr is a CommonJS bundle: its default export is module.exports itself at run time.
const jsQR = ((jsQRModule as unknown as { default?: unknown }).default ??
  jsQRModule) as unknown as (
  data: Uint8ClampedArray,
  width: number,
  height: number,
) => { data: string } | null;

/** The text of the QR code in a PNG image (a screenshot, or a `data:image/png;base64,` URL). */
export function decodeQr(png: Buffer | string): string | undefined {
  const bytes =
    typeof png === 'string'
      ? Buffer.from(png.replace(/^data:image\/png;base64,/, ''), 'base64')
      : png;
  const image = PNG.sync.read(bytes);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}
