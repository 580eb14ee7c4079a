// Raw POSTs to /mcp for the batch tests: a JSON-RPC message or array, its revision header, and the
// answer read whole (an event stream's messages, or a JSON body).

export const ACCEPT = 'application/json, text/event-stream';

export interface McpAnswer {
  status: number;
  requestId: string;
  bytes: number;
  /** The JSON-RPC messages of the answer, in order. */
  messages: Array<{
    id?: unknown;
    result?: { content?: Array<{ type: string; text?: string }> } & Record<string, unknown>;
    error?: { code: number; message: string; data?: unknown };
  }>;
}

let nextId = 1;

/** A `tools/call` request. */
export const toolCall = (name: string, args: Record<string, unknown> = {}, id: number = nextId++) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

export async function postMcp(url: URL, mindKey: string, body: unknown, revision?: string): Promise<McpAnswer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${mindKey}`,
      'content-type': 'application/json',
      accept: ACCEPT,
      ...(revision ? { 'mcp-protocol-version': revision } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    requestId: res.headers.get('x-request-id') ?? '',
    bytes: Buffer.byteLength(text),
    messages: messagesOf(res.headers.get('content-type') ?? '', text),
  };
}

function messagesOf(contentType: string, text: string): McpAnswer['messages'] {
  if (text === '') return [];
  if (!contentType.startsWith('text/event-stream')) {
    const body = JSON.parse(text);
    return Array.isArray(body) ? body : [body];
  }
  return text
    .split('\n\n')
    .map((event) => event.split('\n').filter((line) => line.startsWith('data: ')))
    .filter((data) => data.length > 0)
    .map((data) => JSON.parse(data.map((line) => line.slice(6)).join('\n')));
}

/** A message's tool result data: the JSON of its last text block (the first is a line about it). */
export function resultData(message: McpAnswer['messages'][number] | undefined): Record<string, unknown> | undefined {
  const text = message?.result?.content?.filter((block) => block.type === 'text').at(-1)?.text;
  return text === undefined ? undefined : (JSON.parse(text) as Record<string, unknown>);
}
