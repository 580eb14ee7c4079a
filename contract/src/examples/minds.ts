import { ERROR_MESSAGES } from '../errors/messages.js';
import { example, notFound, type RouteErrors } from './shared.js';

/** The minds routes' own causes of their error statuses. */
export const MINDS_ERRORS: Record<string, RouteErrors> = {
  'minds.createMind': {
    400: { summary: 'No name', body: { description: 'Keeps notes for the literature review' } },
    409: [example('The user has MIND_MAX_MINDS_PER_USER minds', 'minds_limit_reached', ERROR_MESSAGES.mindsLimitReached(100))],
  },
  'minds.listMinds': { 400: { summary: 'A limit over 100', query: { limit: '500' } }, codes: ['cursor_invalid'] },
  'minds.createMindKey': {
    400: { summary: 'No label', body: { scope: 'read' } },
    404: [notFound('Mind', "No such mind (or another user's)")],
    409: [example('The mind has 100 keys', 'mind_keys_limit_reached', ERROR_MESSAGES.mindKeysLimitReached(100))],
  },
  'minds.listMindKeys': {
    404: [notFound('Mind', "No such mind (or another user's)")],
  },
  'minds.revokeMindKey': {
    404: [notFound('Mind', "No such mind (or another user's)"), notFound('Key', 'No such key of this mind (or revoked already)')],
  },
  'minds.deleteMind': {
    403: [example("Another user's mind", 'mind_not_owned', ERROR_MESSAGES.mindNotOwned)],
    404: [notFound('Mind', 'No such mind')],
  },
};
