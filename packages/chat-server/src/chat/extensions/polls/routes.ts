import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import {
  cursor,
  filter,
  idParams,
  jsonObject,
  loose,
  noFields,
  optionalBoolean,
  optionalString,
  pageNumber,
  partialUpdate,
  queryValue,
  sort,
} from '../../../http/schemas.ts';
import type { PollsService } from './service.ts';
import type { PollVotesService } from './votes.ts';

/** The poll fields of client.createPoll / updatePoll; ranges and the option rules are the service's (input.ts). */
const pollBody = loose({
  id: z.string().optional(),
  name: z.string().optional(),
  description: optionalString,
  voting_visibility: optionalString,
  enforce_unique_vote: optionalBoolean,
  allow_answers: optionalBoolean,
  allow_user_suggested_options: optionalBoolean,
  is_closed: optionalBoolean,
  max_votes_allowed: z.number().nullish(),
  options: z.array(jsonObject).nullish(),
  custom: jsonObject.nullish(),
  user_id: optionalString,
});

/** client.createPollOption / updatePollOption: `{id? (update), text, position?, custom?, user_id?}`. */
const optionBody = loose({
  id: z.string().optional(),
  text: z.string().optional(),
  position: z.number().nullish(),
  user_id: optionalString,
});

/** client.castPollVote / addPollAnswer: `{vote: {option_id} | {answer_text}, user_id?}`. */
const voteBody = loose({
  vote: loose({ option_id: optionalString, answer_text: optionalString }),
  user_id: optionalString,
});

/** client.queryPolls / queryPollVotes. */
const pageBody = loose({ filter, sort, limit: pageNumber, next: cursor, prev: cursor });

const optionParams = idParams.extend({ optionId: z.string() });
const voteParams = idParams.extend({ pollId: z.string() });

export function registerPollRoutes(
  app: FastifyInstance,
  services: { polls: PollsService; pollVotes: PollVotesService },
): void {
  registerPollCrud(app, services.polls);
  registerPollOptions(app, services.polls);
  registerPollVotes(app, services.pollVotes);
}

function registerPollCrud(app: FastifyInstance, polls: PollsService): void {
  defineRoute(app, {
    method: 'POST',
    url: '/polls',
    query: noFields,
    body: pollBody,
    handler: async ({ body }, request) => polls.create(actorOf(request), body),
  });
  defineRoute(app, {
    method: 'PUT',
    url: '/polls',
    query: noFields,
    body: pollBody,
    handler: async ({ body }, request) => polls.update(actorOf(request), body),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/polls/:id',
    params: idParams,
    query: noFields,
    handler: async ({ params }, request) => polls.get(actorOf(request), params.id),
  });
  defineRoute(app, {
    method: 'PATCH',
    url: '/polls/:id',
    params: idParams,
    query: noFields,
    body: loose({ ...partialUpdate, user_id: optionalString }),
    handler: async ({ params, body }, request) =>
      polls.partialUpdate(actorOf(request), params.id, body),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: '/polls/:id',
    params: idParams,
    query: noFields,
    handler: async ({ params }, request) => polls.remove(actorOf(request), params.id),
  });
}

function registerPollOptions(app: FastifyInstance, polls: PollsService): void {
  defineRoute(app, {
    method: 'POST',
    url: '/polls/:id/options',
    params: idParams,
    query: noFields,
    body: optionBody,
    handler: async ({ params, body }, request) =>
      polls.createOption(actorOf(request), params.id, body),
  });
  defineRoute(app, {
    method: 'PUT',
    url: '/polls/:id/options',
    params: idParams,
    query: noFields,
    body: optionBody,
    handler: async ({ params, body }, request) =>
      polls.updateOption(actorOf(request), params.id, body),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/polls/:id/options/:optionId',
    params: optionParams,
    query: noFields,
    handler: async ({ params }, request) =>
      polls.getOption(actorOf(request), params.id, params.optionId),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: '/polls/:id/options/:optionId',
    params: optionParams,
    query: noFields,
    handler: async ({ params }, request) =>
      polls.removeOption(actorOf(request), params.id, params.optionId),
  });
}

function registerPollVotes(app: FastifyInstance, pollVotes: PollVotesService): void {
  defineRoute(app, {
    method: 'POST',
    url: '/polls/query',
    query: noFields,
    body: pageBody,
    handler: async ({ body }, request) => pollVotes.queryPolls(actorOf(request), body),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/polls/:id/votes',
    params: idParams,
    query: noFields,
    body: pageBody,
    handler: async ({ params, body }, request) =>
      pollVotes.queryVotes(actorOf(request), params.id, body),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/messages/:id/polls/:pollId/vote',
    params: voteParams,
    query: noFields,
    body: voteBody,
    handler: async ({ params, body }, request) =>
      pollVotes.cast(actorOf(request), params.id, params.pollId, body),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: '/messages/:id/polls/:pollId/vote/:voteId',
    params: voteParams.extend({ voteId: z.string() }),
    query: loose({ user_id: queryValue }),
    handler: async ({ params, query }, request) =>
      pollVotes.remove(actorOf(request), params.id, params.pollId, params.voteId, query.user_id),
  });
}
