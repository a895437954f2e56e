import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { FileDrop } from '@/components/ui/file-drop';
import { Card } from '@/components/ui/states';
import { formatUsd } from '@/lib/invoice-math';
import { toast } from '@/stores/toasts';

import { useAnalyzeDocument } from '../api/document-analyze';
import { useExtractInvoice } from '../api/invoice-extract';
import type { AiSource, AnalyzeResult, DocumentAnalysis, ExtractResult, ExtractedInvoice } from '../api/types';

import { SourceLine } from './ai-source';

/** Seed 002 §5: the accepted documents and the stated maximum, the api's `MAX_DOCUMENT_BYTES`. */
const DOCUMENT_ACCEPT = {
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
  'application/pdf': ['.pdf'],
  'application/msword': ['.doc'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['.docx'],
};
const DOCUMENT_MAX_BYTES = 15 * 1024 * 1024;

const money = (v: number | string | null | undefined) => {
  if (v === null || v === undefined || v === '') return '—';
  const n = Number(v);
  return Number.isFinite(n) ? formatUsd(n) : String(v);
};
const shown = (v: unknown): string => {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
};

function ExtractedView({ data }: { data: ExtractedInvoice }) {
  return (
    <div className="space-y-3">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-slate-500">Invoice number</dt>
        <dd className="break-words">{shown(data.invoiceNumber)}</dd>
        <dt className="text-slate-500">Customer</dt>
        <dd className="break-words">{shown(data.customerName)}</dd>
        <dt className="text-slate-500">Total</dt>
        <dd className="tabular-nums">{money(data.totalAmount)}</dd>
        <dt className="text-slate-500">Due date</dt>
        <dd>{data.dueDate ?? 'N/A'}</dd>
        <dt className="text-slate-500">Confidence</dt>
        <dd className="tabular-nums">{Math.round(data.confidence)}%</dd>
      </dl>
      {data.lineItems.length > 0 ? (
        <div className="relative overflow-x-auto">
          <table className="w-full text-sm" aria-label="Extracted line items">
            <thead className="text-left text-xs text-slate-500 uppercase">
              <tr>
                <th scope="col" className="py-1 pr-3">Description</th>
                <th scope="col" className="py-1 text-right">Total</th>
              </tr>
            </thead>
            <tbody>
              {data.lineItems.map((l, i) => (
                <tr key={i} className="border-t border-slate-100">
                  <td className="py-1 pr-3 break-words">{l.description}</td>
                  <td className="py-1 text-right tabular-nums">{money(l.totalPrice)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="text-slate-500">No line items found.</p>
      )}
    </div>
  );
}

function AnalysisView({ data }: { data: DocumentAnalysis }) {
  const rows = Object.entries(data.keyData);
  return (
    <div className="space-y-3">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-slate-500">Document type</dt>
        <dd className="break-words">{data.documentType}</dd>
        <dt className="text-slate-500">Confidence</dt>
        <dd className="tabular-nums">{Math.round(data.confidence)}%</dd>
      </dl>
      <p className="break-words whitespace-pre-wrap text-slate-700">{data.summary}</p>
      {rows.length > 0 ? (
        <div className="relative overflow-x-auto">
          <table className="w-full text-sm" aria-label="Key data">
            <tbody>
              {rows.map(([k, v]) => (
                <tr key={k} className="border-t border-slate-100">
                  <th scope="row" className="py-1 pr-3 text-left font-medium text-slate-600">
                    {k}
                  </th>
                  <td className="py-1 break-words">{shown(v)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}

/** Document AI: choose or drop a document, then extract invoice data or analyze it. */
export function DocumentAi({ onResult }: { onResult: (r: AiSource) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [extracted, setExtracted] = useState<ExtractResult | null>(null);
  const [analysis, setAnalysis] = useState<AnalyzeResult | null>(null);

  const extract = useExtractInvoice({
    onSuccess: (r) => {
      setExtracted(r);
      onResult(r);
      toast({ title: 'Invoice Extracted Successfully!', description: r.message, variant: 'success' });
    },
    onError: (message) => toast({ title: 'Extraction Failed', description: message, variant: 'destructive' }),
    fallback: 'Failed to extract invoice data',
  });
  const analyze = useAnalyzeDocument({
    onSuccess: (r) => {
      setAnalysis(r);
      onResult(r);
      toast({ title: 'Document Analyzed!', description: r.message, variant: 'success' });
    },
    onError: (message) => toast({ title: 'Analysis Failed', description: message, variant: 'destructive' }),
    fallback: 'Failed to analyze document',
  });
  const pending = extract.pending || analyze.pending;

  // A new document clears the results of the last one (seed 002 §4); removing it keeps them.
  const choose = (f: File | null) => {
    setFile(f);
    if (!f) return;
    setExtracted(null);
    setAnalysis(null);
  };

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card title="Upload a Document">
        <FileDrop
          inputLabel="Choose a document"
          prompt="Drop a document here, or choose a file"
          file={file}
          onChange={choose}
          accept={DOCUMENT_ACCEPT}
          maxSize={DOCUMENT_MAX_BYTES}
          types="JPG, PNG, PDF, DOC or DOCX"
        />
        <div className="mt-4 flex flex-wrap gap-2">
          <Button disabled={!file || pending} onClick={() => file && extract.run(file)}>
            {extract.pending ? 'Extracting...' : 'Extract Invoice Data'}
          </Button>
          <Button variant="secondary" disabled={!file || pending} onClick={() => file && analyze.run(file)}>
            {analyze.pending ? 'Analyzing...' : 'Analyze Document'}
          </Button>
        </div>
      </Card>
      <Card title="Results">
        {!extracted && !analysis ? (
          <p className="text-sm text-slate-500">Choose a document and extract or analyze it to see the results here.</p>
        ) : (
          <div className="space-y-6 text-sm">
            {extracted ? (
              <section aria-label="Extracted invoice" className="space-y-2">
                <h3 className="font-semibold text-slate-900">Extracted invoice</h3>
                <SourceLine result={extracted} />
                <ExtractedView data={extracted.extractedData} />
              </section>
            ) : null}
            {analysis ? (
              <section aria-label="Document analysis" className="space-y-2">
                <h3 className="font-semibold text-slate-900">Document analysis</h3>
                <SourceLine result={analysis} />
                <AnalysisView data={analysis.analysis} />
              </section>
            ) : null}
          </div>
        )}
      </Card>
    </div>
  );
}
