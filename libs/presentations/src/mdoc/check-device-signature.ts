import type { webcrypto } from 'node:crypto';
import { DataItem, cborEncode, type SessionTranscript } from '@owf/mdoc';
import { verifyCoseSign1Es256 } from './cose-sign1.js';
import type { PresentedDocument } from './read-device-response.js';
import { refuse } from './refuse.js';

/**
 * DeviceAuthenticationBytes (ISO 18013-5 §9.1.3.4): #6.24(bstr .cbor ["DeviceAuthentication",
 * SessionTranscript, DocType, DeviceNameSpacesBytes as received]).
 */
function deviceAuthenticationBytes(
  document: PresentedDocument,
  sessionTranscript: SessionTranscript,
): Uint8Array {
  return cborEncode(
    DataItem.fromData([
      'DeviceAuthentication',
      sessionTranscript.encodedStructure,
      document.docType,
      document.deviceNamespaces,
    ]),
  );
}

/**
 * The device signature (detached payload) is over this request's session transcript (client id,
 * nonce, response URI, encryption key thumbprint) and is made by the device key the issuer
 * bound in the MSO. A device MAC, or a signature carrying its own payload (which would let a
 * signature from another session through), is refused.
 */
export async function checkDeviceSignature(
  document: PresentedDocument,
  sessionTranscript: SessionTranscript,
): Promise<void> {
  const { deviceSignature } = document;
  if (deviceSignature === undefined)
    throw refuse('device_signature', 'no deviceSignature (a device MAC is not accepted)');
  if (deviceSignature.payload !== null)
    throw refuse('device_signature', 'the device signature must have a detached payload');
  const deviceKey = document.mso.deviceKeyInfo.deviceKey.jwk as webcrypto.JsonWebKey;
  const payload = deviceAuthenticationBytes(document, sessionTranscript);
  if (!(await verifyCoseSign1Es256(deviceSignature, payload, deviceKey)))
    throw refuse(
      'device_signature',
      'the device signature is not over this request (client id, nonce, response URI, key) by the MSO device key',
    );
}
