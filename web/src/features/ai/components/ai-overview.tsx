import { Card } from '@/components/ui/states';

import { useMcpStatus } from '../api/get-mcp-status';
import type { AiSource, McpConnection } from '../api/types';

const FEATURES = [
  {
    title: 'Document AI',
    items: [
      'Extracts invoice number, customer, total, due date and line items from a JPG, PNG, PDF, DOC or DOCX file (15MB max)',
      'Analyzes any document: its type, a summary and the key data it holds',
      'Reads the text of PDF, DOC and DOCX files itself; photos and scans need a vision-capable model',
    ],
  },
  {
    title: 'Content Gen',
    items: ['Writes an email, a proposal or a report from your description', 'Saves the result as a text file'],
  },
  {
    title: 'Insights',
    items: ['Finds trends, outliers and next steps in a JSON array of up to 5,000 rows', 'Saves the insights as a text file'],
  },
] as const;

/** The integration that answers AI tasks, as /api/mcp/status lists it. */
export const aiConnection = (connections: McpConnection[]) =>
  connections.find((c) => ['ai', 'llm'].includes(c.type.toLowerCase()) || /\bai\b/i.test(c.name));

/** Which engine answers: the last result's `source`, else the AI connection's health. */
function engine(last: AiSource | null, connection: McpConnection | undefined, loading: boolean): string {
  if (last) {
    return last.fallback
      ? 'The last answer came from the template fallback (computed from your CRM data): no AI model is configured.'
      : `The last answer came from the configured AI model${last.model ? ` (${last.model})` : ''}.`;
  }
  if (loading) return 'Checking the AI connection…';
  if (!connection) return 'The AI connection could not be read.';
  if (connection.status === 'operational') return `These features run on the configured AI model${connection.detail ? ` (${connection.detail})` : ''}.`;
  if (connection.status === 'degraded') return `The AI model is degraded${connection.detail ? `: ${connection.detail}` : ''}. Answers may fail until it recovers.`;
  return 'No AI model is configured: every feature answers with templates computed from your CRM data, marked "Template fallback".';
}

/** AI Overview: what each feature does and what answers it. */
export function AiOverview({ last }: { last: AiSource | null }) {
  const mcp = useMcpStatus();
  const connection = mcp.data ? aiConnection(mcp.data.activeConnections) : undefined;
  return (
    <div className="space-y-6">
      <p role="note" className="rounded-lg bg-slate-50 p-3 text-sm text-slate-700 ring-1 ring-slate-200">
        {engine(last, connection, mcp.isPending)}
      </p>
      <div className="grid gap-6 lg:grid-cols-3">
        {FEATURES.map((f) => (
          <Card key={f.title} title={f.title}>
            <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
              {f.items.map((i) => (
                <li key={i}>{i}</li>
              ))}
            </ul>
          </Card>
        ))}
      </div>
    </div>
  );
}
