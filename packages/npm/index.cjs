// Node, CommonJS: the `nodejs` build loads its WebAssembly synchronously on require, no init call.
const raw = require('./dist/node/mcp_triage.js');

const text = (value) => (typeof value === 'string' ? value : JSON.stringify(value));
exports.classify = (exchange, { intent, protocolVersion } = {}) => JSON.parse(raw.classify(text(exchange), intent, protocolVersion));
// As wrap.mjs's outcomeText (CommonJS cannot import it): a call with no JSON form gets the core's
// `unknown` verdict, never an exception.
exports.classifyOutcome = (call) => {
  let json;
  try {
    json = text(call);
  } catch (e) {
    return JSON.parse(raw.unreadable(typeof call?.tool === 'string' ? call.tool : undefined, `not JSON: ${e?.message ?? e}`));
  }
  return JSON.parse(json === undefined ? raw.unreadable(undefined, 'not JSON: nothing was handed over') : raw.classifyOutcome(json));
};
exports.shouldRetry = (verdict, attempt, maxAttempts) => JSON.parse(raw.shouldRetry(text(verdict), attempt, maxAttempts));
exports.messageForModel = (verdict) => raw.messageForModel(text(verdict));
