// Node, CommonJS: the `nodejs` build loads its WebAssembly synchronously on require, no init call.
const raw = require('./dist/node/mcp_triage.js');

const text = (value) => (typeof value === 'string' ? value : JSON.stringify(value));
exports.classify = (exchange, { intent, protocolVersion } = {}) => JSON.parse(raw.classify(text(exchange), intent, protocolVersion));
exports.classifyOutcome = (call) => JSON.parse(raw.classifyOutcome(text(call)));
exports.shouldRetry = (verdict, attempt, maxAttempts) => JSON.parse(raw.shouldRetry(text(verdict), attempt, maxAttempts));
exports.messageForModel = (verdict) => raw.messageForModel(text(verdict));
