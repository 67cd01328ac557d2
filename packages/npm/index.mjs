// Node, ESM: the same `nodejs` build as require() gives, ready on import (no init call).
import { createRequire } from 'node:module';
import { makeAdapters } from './adapters.mjs';
import { wrap } from './wrap.mjs';

const api = wrap(createRequire(import.meta.url)('./dist/node/mcp_triage.js'));
export const { classify, classifyOutcome, shouldRetry, messageForModel } = api;
export const { withTriage, triageFetch, triageStep, raisedOf } = makeAdapters(api);
