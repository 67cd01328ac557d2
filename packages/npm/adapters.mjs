// Adapters over the package's API, with no SDK dependency of their own.
//   withTriage(client): an MCP client (the TypeScript SDK's `Client`, v1; anything with `callTool`
//     and `listTools`) whose callTool resolves to { result, verdict } or { error, verdict }, never
//     throwing for the call's failure: results and thrown errors alike get their verdict. The
//     tools listed through it are remembered, so a verdict knows each tool's annotations.
//   triageStep(step): for one step of the Vercel AI SDK's agent loop (`result.steps[i]` of
//     generateText or streamText), a verdict for each MCP tool call in it: from its tool-result
//     (the MCP CallToolResult, isError included: the SDK hands it on as the output) or its
//     tool-error (what the tool threw; for a call the SDK refused before any request, such as a
//     tool that does not exist, the error object it keeps on the tool-call part).
//   raisedOf(error): a thrown error as classifyOutcome reads it (`raised`): its class, code, message
//     and data, and the errors it was raised from.
//   triageFetch(fetch, onExchange): a fetch for the SDK transport's `fetch` option that records each
//     POST as an exchange (mcp-exchange/1, without the Authorization header's value) and hands it
//     to onExchange with its verdict from classify.
// What a thrown error stands for (the server's error, the transport's, the library's own) is the
// core's decision: the adapter hands over its class, code, message and data as they are.
export function makeAdapters({ classify, classifyOutcome }) {
  // One link: its class, its code (a number, or a name such as Node's 'ECONNRESET' or the v2
  // client's 'REQUEST_TIMEOUT'), its message and data.
  const linkOf = (e) => ({
    name: e?.constructor?.name || e?.name || 'Error',
    ...(Number.isInteger(e?.code) || typeof e?.code === 'string' ? { code: e.code } : {}),
    message: String(e?.message ?? e),
    ...(e?.data !== undefined ? { data: e.data } : {}),
  });
  // The error with what it was raised from (`cause`, at most 8 links): a bare `fetch failed` says
  // what broke only in its cause (undici's 'UND_ERR_SOCKET': the connection closed mid-call).
  const raisedOf = (e) => {
    const causes = [];
    for (let c = e?.cause; c != null && causes.length < 8; c = c?.cause) causes.push(linkOf(c));
    return { ...linkOf(e), ...(causes.length ? { causes } : {}) };
  };

  function withTriage(client) {
    const definitions = new Map();
    return new Proxy(client, {
      get(target, prop, receiver) {
        if (prop === 'listTools') {
          return async (...args) => {
            const listed = await target.listTools(...args);
            for (const tool of listed?.tools ?? []) definitions.set(tool.name, tool);
            return listed;
          };
        }
        if (prop === 'callTool') {
          return async (params, ...rest) => {
            const call = { tool: params.name, arguments: params.arguments ?? {} };
            if (definitions.has(params.name)) call.definition = definitions.get(params.name);
            try {
              const result = await target.callTool(params, ...rest);
              return { result, verdict: classifyOutcome({ ...call, result }) };
            } catch (error) {
              return { error, verdict: classifyOutcome({ ...call, raised: raisedOf(error) }) };
            }
          };
        }
        const value = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  // A tool-result's output that is an MCP CallToolResult (an MCP tool's, not an app's own tool).
  const isToolResult = (o) => o !== null && typeof o === 'object' && (Array.isArray(o.content) || 'structuredContent' in o || 'isError' in o);

  function triageStep(step) {
    const parts = Array.isArray(step?.content) ? step.content : [];
    const out = [];
    for (const call of parts.filter((p) => p?.type === 'tool-call')) {
      const ended = parts.find((p) => (p?.type === 'tool-result' || p?.type === 'tool-error') && p.toolCallId === call.toolCallId);
      const base = { tool: String(call.toolName), arguments: call.input ?? {} };
      const annotations = (ended ?? call).toolMetadata?.annotations;
      if (annotations) base.definition = { name: base.tool, annotations };
      let outcome;
      if (call.invalid && call.error !== undefined) outcome = { raised: raisedOf(call.error) };
      else if (ended?.type === 'tool-result' && isToolResult(ended.output)) outcome = { result: ended.output };
      else if (ended?.type === 'tool-error') outcome = { raised: raisedOf(ended.error) };
      else continue; // not an MCP tool's outcome, or none yet (approval pending)
      out.push({ toolCallId: call.toolCallId, toolName: base.tool, verdict: classifyOutcome({ ...base, ...outcome }) });
    }
    return out;
  }

  function triageFetch(inner = globalThis.fetch, onExchange = () => {}) {
    return async (input, init = {}) => {
      const request = new Request(input, init);
      const body = request.method === 'POST' ? await request.clone().text() : null;
      const response = await inner(input, init);
      if (request.method !== 'POST') return response;
      const headers = [...request.headers].filter(([k]) => k.toLowerCase() !== 'authorization');
      const exchange = {
        format: 'mcp-exchange/1',
        vantage: 'direct',
        request: { method: 'POST', url: request.url, headers, body },
        response: { status: response.status, headers: [...response.headers], body: await response.clone().text() },
      };
      onExchange(exchange, classify(exchange));
      return response;
    };
  }

  return { withTriage, triageFetch, triageStep, raisedOf };
}
