// Where an SNS signing certificate comes from: HARK_SNS_CERT_DIR when set (offline, tests: never fetched), else
// SNS's own https endpoint, cached in the warm process (docs/monitors.md, "Amazon CloudWatch (Amazon SNS)").
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { config } from '../../config.ts';
import { unavailable } from '../../errors.ts';
import { SNS_CERTIFICATE_BYTES, SNS_CERTIFICATE_FETCH_MS } from '../../limits.ts';
import { TtlCache } from '../../ttl-cache.ts';
import { certificateFileOf, isSnsUrl } from './message.ts';

/** SNS rotates its signing certificate rarely and under a new URL, so a day in memory costs nothing. */
const cache = new TtlCache<string, string>({ ttlMs: 24 * 3600 * 1000, maxEntries: 64 });

export type CertificateResult = { ok: true; pem: string } | { ok: false; reason: string };

/** Fetches a certificate from SNS: https only, no redirects, bounded in time and size. A failure throws `unavailable`. */
async function fetchCertificate(url: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(SNS_CERTIFICATE_FETCH_MS) });
  } catch (error) {
    throw unavailable(`The SNS signing certificate could not be fetched (${(error as Error).message}); retry later`);
  }
  const text = await response.text();
  if (!response.ok || Buffer.byteLength(text) > SNS_CERTIFICATE_BYTES) {
    throw unavailable(`The SNS signing certificate could not be fetched (status ${response.status}); retry later`);
  }
  return text;
}

/**
 * The PEM of a message's SigningCertURL. A URL off SNS's host pattern is refused before anything is read; a file
 * missing from HARK_SNS_CERT_DIR is refused too (nothing can vouch for the message). A fetch that fails throws
 * `unavailable`, so the sender retries: an outage is not a forgery.
 */
export async function signingCertificate(signingCertUrl: string): Promise<CertificateResult> {
  if (!isSnsUrl(signingCertUrl, '.pem')) return { ok: false, reason: `SigningCertURL ${signingCertUrl.slice(0, 200)} is not an Amazon SNS certificate URL (https://sns.<region>.amazonaws.com/….pem)` };
  const folder = config().inbound.snsCertDir;
  if (folder !== undefined) {
    const file = certificateFileOf(signingCertUrl);
    if (file === undefined) return { ok: false, reason: 'SigningCertURL does not end in a certificate file name' };
    try {
      return { ok: true, pem: await readFile(join(folder, file), 'utf8') };
    } catch {
      return { ok: false, reason: `no certificate ${file} in HARK_SNS_CERT_DIR` };
    }
  }
  const pem = await cache.get(signingCertUrl, () => fetchCertificate(signingCertUrl));
  return pem === undefined ? { ok: false, reason: 'the SNS signing certificate is empty' } : { ok: true, pem };
}
