// What a signed link's two requests do (docs/notifications.md, "The confirmation page"): GET shows what the link
// would do (never acts), POST acts. The token is verified on both; what it acts on is its owner type's DeliveryOwner,
// looked up in the registry the caller passes (lib/delivery/port.ts), so delivery knows no owner.
import { isDomainError } from '../errors.ts';
import { verifyActionToken, type ActionClaims } from './links.ts';
import type { DeliveryOwner, DeliveryOwners, LinkPage } from './port.ts';

export type { LinkPage } from './port.ts';

const INVALID: LinkPage = { status: 403, view: { title: 'Link not valid', text: 'This link is not valid. Open Hark to act on the alert.' } };
const EXPIRED: LinkPage = {
  status: 410,
  view: { title: 'Link expired', text: 'This link has expired: links in messages work for 24 hours. Open Hark, or use a newer message, to act.' },
};
const BUSY: LinkPage = { status: 409, view: { title: 'Try again', text: 'The alert was changing at the same moment. Open the link again to retry.' } };

function ownerOf(owners: DeliveryOwners, token: string, now: number): { owner: DeliveryOwner; claims: ActionClaims } | LinkPage {
  const check = verifyActionToken(token, now);
  if (!check.ok) return check.reason === 'expired' ? EXPIRED : INVALID;
  // Every owner type a token can name has an entry (DeliveryOwners is a full record); the check keeps a forged
  // type from reaching Object.prototype.
  const owner = Object.hasOwn(owners, check.claims.ownerType) ? owners[check.claims.ownerType] : undefined;
  return owner ? { owner, claims: check.claims } : INVALID;
}

/** GET /actions/{token}: the confirmation page. */
export async function linkConfirmation(owners: DeliveryOwners, token: string, now: number): Promise<LinkPage> {
  const found = ownerOf(owners, token, now);
  return 'view' in found ? found : found.owner.confirm(found.claims);
}

/** POST /actions/{token}: acts, then the page saying what happened. A race lost every retry asks to try again. */
export async function actOnLink(owners: DeliveryOwners, token: string, now: number): Promise<LinkPage> {
  const found = ownerOf(owners, token, now);
  if ('view' in found) return found;
  try {
    return await found.owner.actOnLink(found.claims);
  } catch (error) {
    if (isDomainError(error, 'conflict')) return BUSY;
    throw error;
  }
}
