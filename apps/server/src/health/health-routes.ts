import type { FastifyInstance } from 'fastify';

export interface HealthResponse {
  status: 'ok';
  uptimeSeconds: number;
}

/** GET /api/health: answers while the process serves requests; load balancers and `npm start` checks poll it. */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const startedAt = Date.now();
  app.get('/api/health', async (): Promise<HealthResponse> => ({
    status: 'ok',
    uptimeSeconds: Math.floor((Date.now() - startedAt) / 1000),
  }));
}
