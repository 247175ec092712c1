// Maintenance windows: while one is active, the worker ignores the requests of the integrations it names
// (docs/integrations.md, "Maintenance windows"). The window's datetimes are stored as instants written with the window zone's offset.

import { nowMs } from '../clock.ts';
import {
  createEntity,
  getEntity,
  listEntities,
  removeEntity,
  render,
  touchItem,
  updateEntity,
  type EntityItem,
  type TransactItem,
} from '../db/repository.ts';
import { resolveIdList } from '../db/references.ts';
import { listRemovalUnit, netCountChanges } from '../db/writes.ts';
import { invalid } from '../errors.ts';
import { activeWindowFor, isWindowActive } from './active.ts';
import type { MaintenanceWindowData, WindowCreateInput, WindowUpdateInput } from './schema.ts';
import { formatInZone, readWindowSpan } from './time.ts';
import { entityCollection } from '../db/pages.ts';
import { cachedEntities } from '../db/config-reads.ts';

export type WindowItem = EntityItem<MaintenanceWindowData>;

/** The API object, with `active` computed for the given instant (start ≤ now < end). */
export function renderWindow(item: WindowItem, atMs: number = nowMs()): Record<string, unknown> {
  return { ...render(item), active: isWindowActive(item.data, atMs) };
}

export const getWindow = (accountId: string, id: string) => getEntity<MaintenanceWindowData>('MAINTENANCE_WINDOW', accountId, id);
export const listWindows = (accountId: string) => listEntities<MaintenanceWindowData>('MAINTENANCE_WINDOW', accountId);
export const windowListSource = (accountId: string, atMs: number) =>
  entityCollection('MAINTENANCE_WINDOW', accountId, (items: WindowItem[]) => items.map((w) => renderWindow(w, atMs)));

interface Draft {
  time_zone: string;
  /** Client text to read, or the stored instant to keep. */
  start: { text: string } | { ms: number };
  end: { text: string } | { ms: number };
  /** Only a window whose end is being set must end in the future. */
  endChanged: boolean;
  integration_ids: readonly string[];
}

/** Checks zone, datetimes and integrations together, so one 422 lists every problem. */
async function checkedTimes(accountId: string, draft: Draft) {
  const problems: string[] = [];
  const { iana, startMs, endMs } = readWindowSpan(draft.time_zone, draft.start, draft.end, { start: 'start_datetime', end: 'end_datetime' }, problems);
  const ordered = startMs === undefined || endMs === undefined || endMs > startMs;
  if (ordered && endMs !== undefined && draft.endChanged && endMs <= nowMs()) {
    problems.push('end_datetime must be in the future: a window that has ended never silences anything');
  }
  const integrations = await resolveIdList('INTEGRATION', accountId, 'integration_ids', 'integration', draft.integration_ids);
  problems.push(...integrations.problems);
  if (problems.length) throw invalid(problems);
  return {
    start_datetime: formatInZone(startMs!, iana!),
    end_datetime: formatInZone(endMs!, iana!),
    integration_ids: integrations.ids,
    // A window write touches its integrations, so it cannot race an integration's delete into a dangling id.
    touches: integrations.items.map((integration) => touchItem(integration)),
  };
}

export async function createWindow(accountId: string, input: WindowCreateInput): Promise<WindowItem> {
  const checked = await checkedTimes(accountId, {
    time_zone: input.time_zone,
    start: { text: input.start_datetime },
    end: { text: input.end_datetime },
    endChanged: true,
    integration_ids: input.integration_ids,
  });
  const data: MaintenanceWindowData = {
    name: input.name,
    description: input.description ?? null,
    start_datetime: checked.start_datetime,
    end_datetime: checked.end_datetime,
    time_zone: input.time_zone,
    integration_ids: checked.integration_ids,
  };
  return createEntity<MaintenanceWindowData>('MAINTENANCE_WINDOW', accountId, data, { meta: input.meta ?? {}, extraItems: checked.touches });
}

/**
 * Partial update. Datetimes sent without an offset are wall clocks in the time_zone of the same request, or
 * the stored one. A new time_zone alone keeps the window's instants and shows them with the new zone's offset.
 */
export async function updateWindow(accountId: string, id: string, input: WindowUpdateInput): Promise<WindowItem> {
  return updateEntity<MaintenanceWindowData>('MAINTENANCE_WINDOW', accountId, id, async (current) => {
    const checked = await checkedTimes(accountId, {
      time_zone: input.time_zone ?? current.data.time_zone,
      start: input.start_datetime !== undefined ? { text: input.start_datetime } : { ms: Date.parse(current.data.start_datetime) },
      end: input.end_datetime !== undefined ? { text: input.end_datetime } : { ms: Date.parse(current.data.end_datetime) },
      endChanged: input.end_datetime !== undefined,
      integration_ids: input.integration_ids ?? current.data.integration_ids,
    });
    return {
      data: {
        name: input.name ?? current.data.name,
        description: input.description !== undefined ? input.description : current.data.description,
        start_datetime: checked.start_datetime,
        end_datetime: checked.end_datetime,
        time_zone: input.time_zone ?? current.data.time_zone,
        integration_ids: checked.integration_ids,
      },
      ...(input.meta !== undefined ? { meta: input.meta } : {}),
      extraItems: () => checked.touches,
    };
  });
}

export async function deleteWindow(accountId: string, id: string): Promise<void> {
  await removeEntity<MaintenanceWindowData>('MAINTENANCE_WINDOW', accountId, id);
}

/** The windows that name an integration (canonical id). */
export async function windowsOfIntegration(accountId: string, integrationId: string): Promise<WindowItem[]> {
  return (await listWindows(accountId)).filter((w) => w.data.integration_ids.includes(integrationId));
}

/**
 * Transaction writes that take an integration out of these windows (for the integration's delete): the id
 * leaves each window's integration_ids, and a window that named nothing else is deleted (one net count change).
 * Each write checks only that the id is still where it was read, so edits of other fields meanwhile do not
 * fail the delete; a changed list does (the delete reads again).
 */
export function detachIntegrationItems(windows: readonly WindowItem[], integrationId: string): TransactItem[] {
  const units = windows.flatMap((w) => listRemovalUnit(w, ['data', 'integration_ids'], integrationId, w.data.integration_ids) ?? []);
  return [...units.flatMap((u) => u.writes), ...netCountChanges(units.flatMap((u) => u.counts ?? []))];
}

/**
 * For the worker: the window silencing this integration at `atMs`, if any (one Query of the account's
 * windows, a bounded collection, from the short configuration cache, then the pure check).
 */
export async function activeMaintenanceWindow(accountId: string, integrationId: string, atMs: number = nowMs()): Promise<WindowItem | undefined> {
  const windows = await cachedEntities<MaintenanceWindowData>('MAINTENANCE_WINDOW', accountId);
  const active = activeWindowFor(
    integrationId,
    windows.map((w) => ({ ...w.data, item: w })),
    atMs,
  );
  return active?.item;
}
