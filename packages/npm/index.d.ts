// The mcp-triage package's API (Node: ready on import or require; browsers: see ./web).
import type { Verdict } from './verdict.js';
export type * from './verdict.js';

/** A captured exchange, `mcp-exchange/1` (see the repository's docs), as an object or JSON text. */
export type Exchange = Record<string, unknown> | string;

/** What an agent's MCP client library handed it after a `tools/call`: exactly one of `result`,
 * `error`, `transport`, `client_error`, `raised`. */
export interface AgentCall {
  tool: string;
  arguments?: unknown;
  /** The tool as `tools/list` described it (`inputSchema`, `annotations`). */
  definition?: {
    inputSchema?: unknown;
    annotations?: { readOnlyHint?: boolean; idempotentHint?: boolean; destructiveHint?: boolean } & Record<string, unknown>;
  } & Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message?: string; data?: unknown };
  transport?: { status?: number; kind?: 'network' | 'timeout' | 'aborted'; message?: string };
  client_error?: { code?: number; code_name?: string; message: string };
  /** Whatever the library threw, as it threw it: the core reads which outcome it stands for. */
  raised?: Raised;
}

/** A thrown error as the adapters hand it on: its class, its code (a number, or a name such as
 * `ECONNRESET` or `REQUEST_TIMEOUT`), its message and data, and what it was raised from. */
export interface Raised {
  name?: string;
  code?: number | string;
  message: string;
  data?: unknown;
  causes?: Raised[];
}

/** Whether to send the same call again, and after how long. */
export interface RetryDecision {
  retry: boolean;
  after_ms: number;
  why: string;
}

/** The verdict for a captured exchange (`intent` A..D and `protocolVersion` add the spec verdict). */
export function classify(exchange: Exchange, options?: { intent?: 'A' | 'B' | 'C' | 'D'; protocolVersion?: string }): Verdict;
/** The verdict for what an agent's MCP client library handed it after a call. Never throws for
 * what it is handed: a call it cannot read gets the `unknown` verdict whose `said` says why. */
export function classifyOutcome(call: AgentCall | string): Verdict;
/** Whether to send the same call again after `attempt` tries (1 for the first) of `maxAttempts`. */
export function shouldRetry(verdict: Verdict | string, attempt: number, maxAttempts: number): RetryDecision;
/** One line for the model in place of "An error occurred". */
export function messageForModel(verdict: Verdict | string): string;

/** What a call through withTriage resolves to: the result or the thrown error, with its verdict. */
export type Triaged<R = Record<string, unknown>> =
  | { result: R; error?: undefined; verdict: Verdict }
  | { result?: undefined; error: unknown; verdict: Verdict };
/** Anything with the TypeScript SDK Client's callTool (and listTools, remembered for annotations). */
export interface ToolClient {
  callTool(params: { name: string; arguments?: Record<string, unknown> }, ...rest: unknown[]): Promise<unknown>;
  listTools(...args: unknown[]): Promise<{ tools?: Array<{ name: string } & Record<string, unknown>> }>;
}
/** The client, whose callTool takes what the client's takes and resolves to { result, verdict } or
 * { error, verdict } (ESM only). */
export function withTriage<C extends ToolClient>(
  client: C,
): Omit<C, 'callTool'> & { callTool(...args: Parameters<C['callTool']>): Promise<Triaged<Awaited<ReturnType<C['callTool']>>>> };
/** A verdict for each MCP tool call in one step of the Vercel AI SDK's agent loop (`result.steps[i]`):
 * its tool result (isError included) or its tool error, the SDK's own refusals before any request
 * (an unknown tool, input that is not JSON) read as not sent (ESM only). */
export function triageStep(step: { content: ReadonlyArray<unknown> }): Array<{ toolCallId: string; toolName: string; verdict: Verdict }>;
/** A thrown error as `classifyOutcome` reads it (`raised`): its class, code, message and data, and
 * the errors it was raised from (`cause`, at most 8) (ESM only). */
export function raisedOf(error: unknown): Raised;
/** A fetch that hands each POST, as an mcp-exchange/1 record, and its verdict to onExchange (ESM only). */
export function triageFetch(inner?: typeof fetch, onExchange?: (exchange: Record<string, unknown>, verdict: Verdict) => void): typeof fetch;
