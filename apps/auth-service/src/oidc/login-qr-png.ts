import { crc32, deflateSync } from 'node:zlib';
import QRCode from 'qrcode';

/** The login page's QR codes: error correction M, a quiet zone of 2 modules, 6 pixels a module. */
export const LOGIN_QR = { errorCorrectionLevel: 'M', margin: 2, scale: 6 } as const;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One PNG chunk: length, type, data, CRC-32 of type and data (PNG §5.3). */
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, tail]);
}

/**
 * A QR code of `text` as a PNG data URL, the same image as service-kit's `qrDataUrl` (qrcode's
 * `toDataURL` with LOGIN_QR: black modules on white, same size) at a twentieth of its cost: the
 * symbol is qrcode's (`QRCode.create`: segments, version, mask), the PNG is written here as
 * 1-bit greyscale rows without filters, deflated at once (zlib, synchronously). qrcode's PNG path
 * fills an RGBA image, tries the five PNG filters on every row and deflates through a stream on
 * libuv's threads (beside argon2): under the OpenID Connect login page it was most of
 * auth-service's CPU (docs/adr/0032).
 */
export function loginQrPngDataUrl(text: string): string {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: LOGIN_QR.errorCorrectionLevel });
  const { margin, scale } = LOGIN_QR;
  const size = modules.size;
  const width = (size + 2 * margin) * scale;
  const rowBytes = Math.ceil(width / 8);
  // Each row: filter type 0 (None), then the pixels, 1 bit each, 1 = white (greyscale).
  const raw = Buffer.alloc((rowBytes + 1) * width);
  const light = Buffer.alloc(rowBytes, 0xff);
  if (width % 8) light[rowBytes - 1] = (0xff << (8 - (width % 8))) & 0xff;
  const line = Buffer.alloc(rowBytes);
  for (let moduleRow = -margin; moduleRow < size + margin; moduleRow += 1) {
    light.copy(line);
    if (moduleRow >= 0 && moduleRow < size) {
      for (let column = 0; column < size; column += 1) {
        if (!modules.get(moduleRow, column)) continue;
        const first = (column + margin) * scale;
        for (let x = first; x < first + scale; x += 1) line[x >> 3]! &= ~(0x80 >> (x & 7));
      }
    }
    const top = (moduleRow + margin) * scale;
    for (let y = top; y < top + scale; y += 1) line.copy(raw, y * (rowBytes + 1) + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(width, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // colour type: greyscale
  // compression 0, filter method 0, no interlace: bytes 10–12 stay 0.
  const png = Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}
