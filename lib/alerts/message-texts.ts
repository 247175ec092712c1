// What a message about an alert tells a person beyond the alert itself (its `why`): the team and layer they are paged
// for, the team whose alert was dropped or handed on, who acknowledged or resolved it — teams, people and
// integrations by their names (lib/activity/names.ts), never by ids. docs/alerts.md, "Notifications".
import { namesFor, type Names } from '../activity/names.ts';
import type { Effect } from '../escalation-engine/index.ts';
import type { AlertItem } from './items.ts';

type PageEffect = Extract<Effect, { type: 'page' }>;
type StoppedEffect = Extract<Effect, { type: 'notifyStopped' }>;

export interface MessageTexts {
  page(effect: PageEffect): string;
  dropped(teamId: string): string;
  handedOn(teamId: string): string;
  stopped(effect: StoppedEffect): string;
}

/** The person who acknowledged or resolved in this step, from the step's own log entry (none for an integration). */
const actorOf = (effects: readonly Effect[]): string | undefined =>
  effects.flatMap((e) => (e.type === 'log' && (e.event === 'acknowledged' || e.event === 'resolved') && e.fields.account_user_id ? [e.fields.account_user_id] : []))[0];

const teamOf = (alert: AlertItem, escalation: number): string | undefined => {
  const destination = alert.escalation.escalations[escalation]?.destination;
  return destination?.kind === 'team' ? destination.team_id : undefined;
};

/** The texts of one step's messages, with every name they need read at once (none when the step sends nothing). */
export async function messageTexts(alert: AlertItem, effects: readonly Effect[]): Promise<MessageTexts> {
  const teams: string[] = [];
  let stops = false;
  for (const effect of effects) {
    if (effect.type === 'page' || effect.type === 'reassign') teams.push(...[teamOf(alert, effect.escalation)].filter((t) => t !== undefined));
    else if (effect.type === 'notifyDrop') teams.push(effect.team_id);
    else if (effect.type === 'notifyStopped') stops = true;
  }
  const actor = stops ? actorOf(effects) : undefined;
  const integration = stops && !actor && alert.data.source_type === 'Integration' ? alert.data.source_id : undefined;
  const names: Names = await namesFor(alert.accountId, { teams, people: actor ? [actor] : [], integrations: integration ? [integration] : [] });
  return {
    page: (effect) => {
      const team = teamOf(alert, effect.escalation);
      return team === undefined ? 'You are paged directly.' : `You are paged on layer ${effect.layer} of team ${names.team(team)} (pass ${effect.pass}).`;
    },
    dropped: (teamId) => `The alert of team ${names.team(teamId)} was dropped: nobody acknowledged it.`,
    handedOn: (teamId) => `Team ${names.team(teamId)} handed the alert on to its reassign targets: nobody acknowledged it.`,
    stopped: (effect) => {
      // The engine words an integration as "integration <id>"; the alert's own integration is the only one that acts on it.
      const who = actor ? names.person(actor) : integration && effect.by === `integration ${integration}` ? `integration ${names.integration(integration)}` : effect.by;
      return `The alert you were paged for was ${effect.action} by ${who}.`;
    },
  };
}
