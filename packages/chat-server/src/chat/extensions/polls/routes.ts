import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../../http/context.ts';
import { bodyOf, queryOf } from '../../../http/params.ts';
import type { PollsService } from './service.ts';
import type { PollVotesService } from './votes.ts';

export function registerPollRoutes(
  app: FastifyInstance,
  services: { polls: PollsService; pollVotes: PollVotesService },
): void {
  const { polls, pollVotes } = services;
  app.post('/polls', async (request) => polls.create(actorOf(request), bodyOf(request.body)));
  app.put('/polls', async (request) => polls.update(actorOf(request), bodyOf(request.body)));
  app.post('/polls/query', async (request) =>
    pollVotes.queryPolls(actorOf(request), bodyOf(request.body)),
  );
  app.get<{ Params: { id: string } }>('/polls/:id', async (request) =>
    polls.get(actorOf(request), request.params.id),
  );
  app.patch<{ Params: { id: string } }>('/polls/:id', async (request) =>
    polls.partialUpdate(actorOf(request), request.params.id, bodyOf(request.body)),
  );
  app.delete<{ Params: { id: string } }>('/polls/:id', async (request) =>
    polls.remove(actorOf(request), request.params.id),
  );
  app.post<{ Params: { id: string } }>('/polls/:id/options', async (request) =>
    polls.createOption(actorOf(request), request.params.id, bodyOf(request.body)),
  );
  app.put<{ Params: { id: string } }>('/polls/:id/options', async (request) =>
    polls.updateOption(actorOf(request), request.params.id, bodyOf(request.body)),
  );
  app.get<{ Params: { id: string; optionId: string } }>(
    '/polls/:id/options/:optionId',
    async (request) =>
      polls.getOption(actorOf(request), request.params.id, request.params.optionId),
  );
  app.delete<{ Params: { id: string; optionId: string } }>(
    '/polls/:id/options/:optionId',
    async (request) =>
      polls.removeOption(actorOf(request), request.params.id, request.params.optionId),
  );
  app.post<{ Params: { id: string } }>('/polls/:id/votes', async (request) =>
    pollVotes.queryVotes(actorOf(request), request.params.id, bodyOf(request.body)),
  );
  app.post<{ Params: { id: string; pollId: string } }>(
    '/messages/:id/polls/:pollId/vote',
    async (request) =>
      pollVotes.cast(
        actorOf(request),
        request.params.id,
        request.params.pollId,
        bodyOf(request.body),
      ),
  );
  app.delete<{ Params: { id: string; pollId: string; voteId: string } }>(
    '/messages/:id/polls/:pollId/vote/:voteId',
    async (request) =>
      pollVotes.remove(
        actorOf(request),
        request.params.id,
        request.params.pollId,
        request.params.voteId,
        queryOf(request.query).user_id,
      ),
  );
}
