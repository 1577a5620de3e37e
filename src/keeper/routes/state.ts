import type { FastifyPluginAsync } from 'fastify'
import type { DashboardState } from '../state/dashboard.js'
import type { EventLog } from '../state/events.js'
import { performanceView, stateView } from './views.js'

/** GET /api/state and GET /api/performance (shapes in openapi.ts). */
export const stateRoutes: FastifyPluginAsync<{ state: DashboardState; events: EventLog }> = async (app, opts) => {
  app.get('/api/state', async () => stateView(opts.state, opts.events))
  app.get('/api/performance', async () => performanceView(opts.state))
}
