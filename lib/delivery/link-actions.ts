// What a signed link's two requests do (docs/notifications.md, "The confirmation page"): GET shows what the link
// would do (never acts), POST acts. The token is verified on both; what it acts on is found by its owner type, so
// broadcast answers plug in beside alerts with their own `LinkOwner`.
import { findAlert } from '../alerts/store.ts';
import { broadcastLinkOwner } from '../broadcasts/links.ts';
import { isDomainError } from '../errors.ts';
import { allowedFrom } from '../escalation-engine/index.ts';
import { actFromMessage, isMessageAction, outcomeText, REACHED, summaryOf, type ActOutcome } from './act.ts';
import type { PageView } from '../notify/action-page.ts';
import { joinedAccountUser } from '../people/joined.ts';
import { ALERT_LINK_ACTIONS, verifyActionToken, type ActionClaims, type LinkOwnerType } from './links.ts';

/** A page and its status. */
export interface LinkPage {
  readonly status: number;
  readonly view: PageView;
}

/** How links of one owner type are shown and acted on. */
export interface LinkOwner {
  /** The question the confirmation page asks, or the page saying acting would change nothing. */
  confirm(claims: ActionClaims): Promise<LinkPage>;
  act(claims: ActionClaims): Promise<LinkPage>;
}

const INVALID: LinkPage = { status: 403, view: { title: 'Link not valid', text: 'This link is not valid. Open Hark to act on the alert.' } };
const EXPIRED: LinkPage = {
  status: 410,
  view: { title: 'Link expired', text: 'This link has expired: links in messages work for 24 hours. Open Hark, or use a newer message, to act.' },
};
const BUSY: LinkPage = { status: 409, view: { title: 'Try again', text: 'The alert was changing at the same moment. Open the link again to retry.' } };

/** A link acts only for an account user who still belongs to the account and has joined it (docs/people.md). */
const isMember = async (accountId: string, accountUserId: string) => (await joinedAccountUser(accountId, accountUserId)) !== undefined;

function pageOfOutcome(outcome: ActOutcome): LinkPage {
  const text = outcomeText(outcome);
  switch (outcome.outcome) {
    case 'gone':
      return { status: 404, view: { title: 'Alert not found', text } };
    case 'not_member':
      return { status: 403, view: { title: 'Not allowed', text } };
    default:
      return { status: 200, view: { title: `Alert #${outcome.alert.tinyId}`, text } };
  }
}

const alertLinkOwner: LinkOwner = {
  async confirm(claims) {
    if (!isMessageAction(claims.action)) return INVALID;
    if (!(await isMember(claims.accountId, claims.accountUserId))) return pageOfOutcome({ outcome: 'not_member', action: claims.action });
    const alert = await findAlert(claims.accountId, claims.ownerId);
    if (!alert) return pageOfOutcome({ outcome: 'gone', action: claims.action });
    const summary = summaryOf(alert);
    if (alert.escalation.status === REACHED[claims.action]) return pageOfOutcome({ outcome: 'unchanged', action: claims.action, alert: summary });
    if (!allowedFrom(claims.action).includes(alert.escalation.status)) return pageOfOutcome({ outcome: 'refused', action: claims.action, alert: summary, message: '' });
    const label = ALERT_LINK_ACTIONS.find((a) => a.action === claims.action)!.label;
    return { status: 200, view: { title: `${label} alert #${alert.tinyId}`, text: `${label} alert #${alert.tinyId}: ${alert.data.title}?`, button: label } };
  },
  async act(claims) {
    if (!isMessageAction(claims.action)) return INVALID;
    const outcome = await actFromMessage({
      accountId: claims.accountId,
      ownerType: 'alert',
      ownerId: claims.ownerId,
      accountUserId: claims.accountUserId,
      action: claims.action,
      channel: claims.channel,
    });
    return pageOfOutcome(outcome);
  },
};

/** The owners links can act on. A type without an entry (yet) answers "not valid", like a forged link. */
const LINK_OWNERS: Partial<Record<LinkOwnerType, LinkOwner>> = { alert: alertLinkOwner, broadcast: broadcastLinkOwner };

function ownerOf(token: string, now: number): { owner: LinkOwner; claims: ActionClaims } | LinkPage {
  const check = verifyActionToken(token, now);
  if (!check.ok) return check.reason === 'expired' ? EXPIRED : INVALID;
  const owner = LINK_OWNERS[check.claims.ownerType];
  return owner ? { owner, claims: check.claims } : INVALID;
}

/** GET /actions/{token}: the confirmation page. */
export async function linkConfirmation(token: string, now: number): Promise<LinkPage> {
  const found = ownerOf(token, now);
  return 'view' in found ? found : found.owner.confirm(found.claims);
}

/** POST /actions/{token}: acts, then the page saying what happened. A race lost every retry asks to try again. */
export async function actOnLink(token: string, now: number): Promise<LinkPage> {
  const found = ownerOf(token, now);
  if ('view' in found) return found;
  try {
    return await found.owner.act(found.claims);
  } catch (error) {
    if (isDomainError(error, 'conflict')) return BUSY;
    throw error;
  }
}
