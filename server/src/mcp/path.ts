/** `/mcp`, as the pipeline matches paths: any case, an optional trailing slash, the query and a #fragment ignored. */
export const isMcpPath = (url: string | undefined) => /^\/mcp\/?(?:[?#]|$)/i.test(url ?? '');
