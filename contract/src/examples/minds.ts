import { example, notFound, type RouteErrors } from './shared.js';

/** The minds routes' own causes of their error statuses. */
export const MINDS_ERRORS: Record<string, RouteErrors> = {
  'minds.createMind': {
    400: { summary: 'No name', body: { description: 'Keeps notes for the literature review' } },
    409: [
      example('The user has MIND_MAX_MINDS_PER_USER minds', 409, 'A user can have at most 100 minds; delete one before creating another'),
    ],
  },
  'minds.deleteMind': {
    403: [example("Another user's mind", 403, 'This mind belongs to another user')],
    404: [notFound('Mind', 'No such mind')],
  },
};
