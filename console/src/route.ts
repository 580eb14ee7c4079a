// Routing by the URL's hash (#/minds/<id>/tasks): the server serves one page, and no credential is
// ever part of a URL.
import { useEffect, useState } from 'preact/hooks';

export type Route = { page: 'minds' } | { page: 'mind'; mindId: string; tab: string } | { page: 'authorize'; query: string };

export function parseRoute(hash: string): Route {
  // The OAuth consent page: /oauth/authorize redirects here with the request's parameters.
  const consent = /^#\/oauth\/authorize\?(.*)$/.exec(hash);
  if (consent) return { page: 'authorize', query: consent[1]! };
  const [, page, mindId, tab] = hash.replace(/^#/, '').split('/');
  if (page === 'minds' && mindId) return { page: 'mind', mindId: decodeURIComponent(mindId), tab: tab ?? 'memories' };
  return { page: 'minds' };
}

export const mindHref = (mindId: string, tab = 'memories') => `#/minds/${encodeURIComponent(mindId)}/${tab}`;

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
