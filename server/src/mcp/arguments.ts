// A tool's arguments and the route's request, both ways: the arguments to the route's path, query and
// body (`task_id` is the path's `id`), and the route's complaints about its request back in the
// names the model used (`params.id: is required` becomes `task_id: is required`).
import { ApiError } from '../http/api-error.js';
import { apiErrorOf } from '../http/errors.js';
import type { RouteInput } from '../http/pipeline.js';
import type { ArgumentPlaces } from './schemas.js';

/** A query value as the URL would carry it: the route's query schema reads text (numbers as their decimal digits). */
const asQueryText = (value: unknown): unknown =>
  typeof value === 'number' || typeof value === 'boolean' ? String(value) : Array.isArray(value) ? value.map(asQueryText) : value;

/** The route's request parts from a tool call's arguments. */
export function routeInputOf(places: ArgumentPlaces, args: Record<string, unknown>): RouteInput {
  const input: RouteInput = { params: {}, query: {}, body: places.body ? {} : undefined };
  for (const [name, value] of Object.entries(args)) {
    const param = Object.hasOwn(places.path, name) ? places.path[name] : undefined;
    if (param !== undefined) input.params[param] = value;
    else if (places.query.includes(name)) {
      if (value !== undefined) input.query[name] = asQueryText(value);
    } else if (places.body) (input.body as Record<string, unknown>)[name] = value;
  }
  return input;
}

/** `err` with the request's paths (`params.id`, `query.verified`, `body.payload.y`) as the tool's argument names. */
export function inToolTerms(err: unknown, places: ArgumentPlaces): unknown {
  const error = apiErrorOf(err);
  const details = error instanceof ApiError ? error.extra.details : undefined;
  if (!(error instanceof ApiError) || !details?.length) return err;
  const argumentOf = (path: string) =>
    path
      .replace(/^params\.(\w+)/, (whole, param: string) => Object.keys(places.path).find((name) => places.path[name] === param) ?? whole)
      .replace(/^(?:query|body)\./, '');
  let message = error.message;
  for (const { path } of details) message = message.split(`${path}:`).join(`${argumentOf(path)}:`);
  const renamed = details.map((detail) => ({ ...detail, path: argumentOf(detail.path) }));
  return new ApiError(error.statusCode, message, { ...error.extra, details: renamed });
}
