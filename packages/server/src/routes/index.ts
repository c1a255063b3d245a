// Every implemented operation's handler, by operationId. Operations of the document without a
// handler answer 404 like an unknown route until they are implemented.
import type { Routes } from '../http/context.ts';
import { authRoutes } from './auth.ts';

export const routes: Routes = {
  ...authRoutes,
};
