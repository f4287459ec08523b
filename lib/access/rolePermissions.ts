import * as roles from '#lib/access/repository/roles';
import { BUILT_IN_PERMISSIONS, isPermission, type Permission } from '#lib/shared/access';

/**
 * The permissions a role grants now: a built-in role's from code, a created role's read by key
 * (strongly consistent), so a change of its permissions applies to its holders' next request.
 * A role deleted meanwhile grants nothing; a stored name outside the vocabulary grants nothing.
 */
export const permissionsOf = async (roleid: string): Promise<readonly Permission[]> => {
  if (Object.hasOwn(BUILT_IN_PERMISSIONS, roleid)) return BUILT_IN_PERMISSIONS[roleid as keyof typeof BUILT_IN_PERMISSIONS];
  const role = await roles.find(roleid);
  return (role?.permissions ?? []).filter(isPermission);
};
