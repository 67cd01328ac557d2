// Browsers and bundlers: initialise once, then the same functions as in Node.
export * from './index.js';
/** Fetches and instantiates the WebAssembly beside this module (or from `input`). */
export default function init(input?: RequestInfo | URL | Response | BufferSource | WebAssembly.Module): Promise<unknown>;
/** Instantiates the WebAssembly from bytes already at hand. */
export function initSync(bytes: BufferSource | WebAssembly.Module): unknown;
