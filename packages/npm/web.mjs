// Browsers and bundlers: the `web` build. Call `await init()` (it fetches the .wasm beside this
// file) or `initSync({ module: bytes })` once, then the functions.
import initWasm, * as raw from './dist/web/mcp_triage.js';
import { makeAdapters } from './adapters.mjs';
import { wrap } from './wrap.mjs';

const api = wrap(raw);
export const { classify, classifyOutcome, shouldRetry, messageForModel } = api;
export const { withTriage, triageFetch, triageStep, raisedOf } = makeAdapters(api);
export default function init(input) {
  return initWasm(input === undefined ? undefined : { module_or_path: input });
}
export function initSync(bytes) {
  return raw.initSync({ module: bytes });
}
