import type { TestProject } from 'vitest/node';
import { startE2EServer } from './offline.global';

/** The `e2e-user` project: the same service with ACCESS_MODE=user (a bearer token on every route but sign-in and token exchange). */
export default (project: TestProject) => startE2EServer(project, { workFolder: '.esbuild-e2e-user', env: { ACCESS_MODE: 'user' } });
