// Server-sent events as the MCP Streamable HTTP transport uses them: each `message` event (or one without
// an event name) carries one JSON-RPC message in its `data:` lines. Ids, retry hints and comments are
// not needed by a bridge that never resumes a stream.

/** The `data` of each message event in an event stream, in order. */
export async function* sseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  for await (const chunk of body.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    // A long data line (a screenshot) arrives in many chunks: split only when a line can have ended.
    if (!/[\r\n]/.test(chunk)) continue;
    // A '\r' at the very end may be the first half of '\r\n': it waits for the next chunk.
    const complete = buffer.endsWith('\r') ? buffer.length - 1 : buffer.length;
    const lines = buffer.slice(0, complete).split(/\r\n|\r|\n/);
    buffer = (lines.pop() ?? '') + buffer.slice(complete);
    for (const line of lines) {
      if (line === '') {
        // A blank line ends an event.
        if (data.length > 0 && (event === '' || event === 'message')) yield data.join('\n');
        event = '';
        data = [];
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') data.push(value);
      else if (field === 'event') event = value;
    }
  }
  // An event the stream ended in the middle of is not delivered (as EventSource does).
}
