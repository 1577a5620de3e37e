import type { FastifyPluginAsync } from 'fastify'
import type { DashboardState } from '../state/dashboard.js'
import type { EventLog } from '../state/events.js'
import { hasToken } from './access.js'
import { performanceView, stateView } from './views.js'

/**
 * GET /api/state and GET /api/performance (shapes in openapi.ts). /api/state carries the
 * strategy details (planned executions, plan and progress events) only for a request with
 * `Authorization: Bearer <API_TOKEN>` (routes/access.ts).
 */
export const stateRoutes: FastifyPluginAsync<{ state: DashboardState; events: EventLog; token?: string | undefined }> = async (app, opts) => {
  app.get('/api/state', async (req) => stateView(opts.state, opts.events, { details: hasToken(req.headers, opts.token) }))
  app.get('/api/performance', async () => performanceView(opts.state))
}
