// The package's API over the binding (any of its builds): values cross as JSON text, so this only
// turns objects into text and back. Every decision is the core's.
const text = (value) => (typeof value === 'string' ? value : JSON.stringify(value));

// An agent's call with no JSON form (a cycle, a BigInt, nothing) gets the core's `unknown` verdict,
// as a call the core cannot read does: never an exception on the agent's error path.
export function outcomeText(raw, call) {
  let json;
  try {
    json = text(call);
  } catch (e) {
    json = undefined;
    return raw.unreadable(typeof call?.tool === 'string' ? call.tool : undefined, `not JSON: ${e?.message ?? e}`);
  }
  if (json === undefined) return raw.unreadable(undefined, 'not JSON: nothing was handed over');
  return raw.classifyOutcome(json);
}

export function wrap(raw) {
  return {
    classify: (exchange, { intent, protocolVersion } = {}) => JSON.parse(raw.classify(text(exchange), intent, protocolVersion)),
    classifyOutcome: (call) => JSON.parse(outcomeText(raw, call)),
    shouldRetry: (verdict, attempt, maxAttempts) => JSON.parse(raw.shouldRetry(text(verdict), attempt, maxAttempts)),
    messageForModel: (verdict) => raw.messageForModel(text(verdict)),
  };
}
