// The package's API over the binding (any of its builds): values cross as JSON text, so this only
// turns objects into text and back. Every decision is the core's.
const text = (value) => (typeof value === 'string' ? value : JSON.stringify(value));

export function wrap(raw) {
  return {
    classify: (exchange, { intent, protocolVersion } = {}) => JSON.parse(raw.classify(text(exchange), intent, protocolVersion)),
    classifyOutcome: (call) => JSON.parse(raw.classifyOutcome(text(call))),
    shouldRetry: (verdict, attempt, maxAttempts) => JSON.parse(raw.shouldRetry(text(verdict), attempt, maxAttempts)),
    messageForModel: (verdict) => raw.messageForModel(text(verdict)),
  };
}
