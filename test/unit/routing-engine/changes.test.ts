import { describe, expect, it } from 'vitest';
import { routingRouterOf, withRoutingChanges, type RoutingAlert } from '#lib/routing-engine/index.ts';

// Rules: docs/routing.md, "setval".

interface BuiltAlert extends RoutingAlert {
  readonly thirdparty_id: string;
}

const alert: BuiltAlert = {
  title: 't',
  description: 'd',
  urgency: 'low',
  tag_list: ['a'],
  meta: { owner: 'x', incident_message: 'kept' },
  thirdparty_id: 'tp-1',
};

describe('withRoutingChanges', () => {
  it('no changes keep the alert as it is', () => {
    expect(withRoutingChanges(alert, {})).toEqual(alert);
  });

  it('overwrites the changed fields and keeps the others', () => {
    const changed = withRoutingChanges(alert, { title: 'T', description: '', tag_list: ['b'], urgency: 'critical' });
    expect(changed).toEqual({ ...alert, title: 'T', description: '', tag_list: ['b'], urgency: 'critical' });
    expect(changed.thirdparty_id).toBe('tp-1');
  });

  it('merges incident fields into meta', () => {
    const changed = withRoutingChanges(alert, { meta: { incident: true, incident_severity: 'SEV-2' } });
    expect(changed.meta).toEqual({ owner: 'x', incident_message: 'kept', incident: true, incident_severity: 'SEV-2' });
    expect(alert.meta).toEqual({ owner: 'x', incident_message: 'kept' });
  });
});

describe('routingRouterOf', () => {
  it('maps a stored router onto what the resolver reads', () => {
    const data = {
      name: 'Prod',
      enabled: false,
      rules: 'rules: []',
      default_receiver_account_user_id: null,
      default_receiver_router_id: 'R2',
      default_receiver_team_id: 'T1',
    };
    expect(routingRouterOf({ id: 'R1', prefixId: 'rtr_abc', data })).toEqual({ id: 'R1', prefix_id: 'rtr_abc', ...data });
  });
});
