// The public module of lib/access: what other domains, functions, contracts and bindings use of it.
// Anything outside lib/access/ imports it from here ('#lib/access'), never a file inside (tests/unit/layers.test.ts).
export { changeOwnPassword, createUser, setPassword } from './accounts';
export { AUDIT_CSV, AUDIT_CSV_COLUMNS } from './audit/csv';
export { auditFilterOf, auditLog, auditPage } from './audit/log';
export { routeAudit } from './audit/routes';
export { ACTOR_KINDS, AUDIT_EVENTS, requestFacts } from './audit/types';
export { authorize } from './authenticate';
export { accessScopeField } from './entities';
export { changeService, deleteRole, removeService, removeUser } from './membership';
export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password';
export { SERVICE_HAS_NO_ACCOUNT, mayDeleteUser, mayReadUser, requireUser } from './policy';
export { services } from './repository/services';
export { revokedTokens } from './repository/sessions';
export { get as getUser, list as listUsers } from './repository/users';
export { roleCatalog, roleIdOf } from './roles';
export { registerService, rotateSecret } from './serviceAccounts';
export { exchangeServiceSecretRecorded } from './serviceToken';
export { signInRecorded } from './signin';
