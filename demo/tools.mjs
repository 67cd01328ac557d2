// The demo's tools, shared by the Streamable HTTP server (server.mjs) and the stdio server
// (stdio-server.mjs): they reproduce the seed's failures. `hooks.onCall(name)` runs first in every
// tools/call handler (the stdio server's test switches use it: log to stdout, crash the process).
import { z } from 'zod';

export function registerDemoTools(server, { unannotated = false, writeLike = false, pause = async () => {}, onCall = () => {} } = {}) {
  const readOnly = unannotated ? undefined : { readOnlyHint: true, openWorldHint: false };
  if (writeLike) {
    const done = (text) => async () => ({ content: [{ type: 'text', text: `${text} (demo server: nothing changed)` }] });
    server.registerTool('delete_lead', { description: 'Delete a lead by id.', inputSchema: { id: z.string() } }, done('deleted'));
    server.registerTool('sendEmail', { description: 'Send an email.', inputSchema: { to: z.string() } }, done('sent'));
    server.registerTool('crm-sync', { description: 'Push local changes to the CRM.', inputSchema: {} }, done('synced'));
    return;
  }
  server.registerTool(
    'lead_get',
    {
      description: "Get a lead by id (always fails, like the seed's backend).",
      inputSchema: { id: z.string() },
      annotations: readOnly,
    },
    async () => {
      await onCall('lead_get');
      await pause();
      throw new Error('lead not found in this organization');
    },
  );
  server.registerTool(
    'icp_list',
    {
      description: 'List ideal customer profiles.',
      inputSchema: {},
      annotations: readOnly,
    },
    async () => {
      await onCall('icp_list');
      await pause();
      return { content: [{ type: 'text', text: JSON.stringify({ ok: true }) }] };
    },
  );
  server.registerTool(
    'echo',
    {
      description: 'Echo back the text.',
      inputSchema: { text: z.string() },
      annotations: readOnly,
    },
    async ({ text }) => {
      await onCall('echo');
      return { content: [{ type: 'text', text }] };
    },
  );
  // No annotations at all: by the spec's defaults it may write and may be destructive, so probes must
  // never pick it on their own (it needs no arguments, which would make it a tempting probe D).
  server.registerTool(
    'crm_sync',
    {
      description: 'Push local changes to the CRM (a demo: changes nothing).',
      inputSchema: {},
    },
    async () => ({ content: [{ type: 'text', text: 'synced 0 records (demo server)' }] }),
  );
  server.registerTool(
    'lead_delete_all',
    {
      description: 'Delete every lead in the organization (a demo: deletes nothing).',
      inputSchema: {},
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async () => ({ content: [{ type: 'text', text: 'deleted 0 leads (demo server: nothing to delete)' }] }),
  );
}
