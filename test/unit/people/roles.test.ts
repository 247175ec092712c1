import { describe, expect, it } from 'vitest';
import { NO_ROLES, parseRoles } from '#lib/people/schema.ts';

describe('parseRoles', () => {
  it('an object changes the named roles and keeps the others', () => {
    expect(parseRoles({ admin: true })).toEqual({ roles: { ...NO_ROLES, admin: true } });
    expect(parseRoles({ broadcaster: true }, { ...NO_ROLES, admin: true, billing: true })).toEqual({
      roles: { admin: true, billing: true, broadcaster: true, communicator: false },
    });
    expect(parseRoles({}, { ...NO_ROLES, admin: true })).toEqual({ roles: { ...NO_ROLES, admin: true } });
  });

  it('a list of names sets exactly those roles', () => {
    expect(parseRoles(['billing', 'communicator'], { ...NO_ROLES, admin: true })).toEqual({
      roles: { admin: false, billing: true, broadcaster: false, communicator: true },
    });
    expect(parseRoles([], { ...NO_ROLES, admin: true })).toEqual({ roles: NO_ROLES });
  });

  it('names each problem', () => {
    expect(parseRoles({ admin: 'yes', owner: true })).toEqual({
      problems: ['roles.admin must be true or false', 'roles.owner is not a role; roles are admin, billing, broadcaster, communicator'],
    });
    expect(parseRoles(['admin', 'root', 3])).toEqual({
      problems: ['roles[1] "root" is not a role; roles are admin, billing, broadcaster, communicator', 'roles[2] 3 is not a role; roles are admin, billing, broadcaster, communicator'],
    });
    expect(parseRoles('admin')).toEqual({
      problems: ['roles must be an object of booleans (admin, billing, broadcaster, communicator) or a list of role names'],
    });
    expect(parseRoles(null)).toMatchObject({ problems: [expect.stringMatching(/^roles must be/)] });
  });
});
