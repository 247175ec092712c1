// The address of an email integration: <prefix_id>@<HARK_INBOUND_EMAIL_DOMAIN> (docs/monitors.md, "Email").
import { config } from '../config.ts';

/** The address, or null when no inbound domain is configured. The local part is the prefix id as it is (mail servers keep its case). */
export function emailAddressOf(prefixId: string): string | null {
  const domain = config().inbound.emailDomain;
  return domain ? `${prefixId}@${domain}` : null;
}
