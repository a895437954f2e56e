import { Link, useLocation, useParams } from 'react-router';

import { StatusPill } from '@/components/ui/score-badge';
import { DemoBadge, SourceBadges } from '@/components/ui/source-badges';
import { recordHref } from '@/config/paths';
import { useCompany } from '@/features/companies/api/get-company';
import { useUpdateCompany, type CompanyUpdate } from '@/features/companies/api/update-company';
import { COMPANY_STATUSES } from '@/features/companies/components/company-filters';
import { EnrichWebsiteButton } from '@/features/companies/components/enrich-website-button';
import { useContact } from '@/features/contacts/api/get-contact';
import { useUpdateContact, type ContactInput } from '@/features/contacts/api/save-contact';
import { ALL_STATUSES } from '@/features/contacts/components/contact-form-dialog';
import type { DealInput } from '@/features/deals/api/create-deal';
import { useDeal } from '@/features/deals/api/get-deal';
import { DEAL_STAGES, stageInfo } from '@/features/deals/api/stages';
import { useUpdateDeal } from '@/features/deals/api/update-deal';
import { CompanySourcesPanel } from '@/features/discovery/components/company-sources-panel';
import { EditableField } from '@/features/records/components/editable-field';
import { RecordPage, useFieldSave } from '@/features/records/components/record-page';
import { ScorePanel, WebsitePanel } from '@/features/records/components/score-panel';
import { formatDay } from '@/lib/format';
import { formatDollars, statusLabel } from '@/lib/rules';

const actionClass =
  'inline-flex items-center rounded-md bg-indigo-600 px-3.5 py-2 text-sm font-semibold text-white shadow-xs hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

/** A site as a link target: "acme.com" gets https://. */
const siteHref = (site: string) => (/^https?:\/\//i.test(site) ? site : `https://${site}`);

/** '' → null: an emptied field is cleared on the server. */
const orNull = (v: string): string | null => (v.trim() === '' ? null : v.trim());
const statusOptions = (statuses: readonly string[]) => statuses.map((s) => [s, statusLabel(s)] as const);

/** `/companies/:id` (and under /admin): a company's record. */
export function CompanyRecordRoute() {
  const id = useParams().id ?? '';
  const company = useCompany(id);
  const update = useUpdateCompany({});
  const { save, errors, clear } = useFieldSave<CompanyUpdate>('company', id, (change) =>
    update.mutateAsync({ id, update: change }),
  );
  const c = company.data;
  const text = (field: 'industry' | 'phone' | 'website' | 'city' | 'state', label: string, kind: 'text' | 'tel' = 'text') =>
    c ? (
      <EditableField
        label={label}
        value={c[field] ?? ''}
        input={{ kind }}
        error={errors[field]}
        onEdit={() => clear(field)}
        onSave={(v) => save(field, orNull(v))}
      />
    ) : null;
  return (
    <RecordPage
      type="company"
      id={id}
      query={company}
      name={c?.name}
      description={
        c ? (
          <>
            {[c.industry, c.location].filter(Boolean).join(' · ')}
            <SourceBadges sources={c.sources} />
          </>
        ) : undefined
      }
      action={
        c?.website ? (
          <div className="flex flex-wrap gap-2">
            <EnrichWebsiteButton companyId={id} />
            <a href={siteHref(c.website)} target="_blank" rel="noreferrer" className={actionClass}>
              Visit website
            </a>
          </div>
        ) : undefined
      }
      aside={
        c ? (
          <>
            <ScorePanel score={c.score} factors={c.enrichment?.scoreFactors} />
            {c.website ? <WebsitePanel facts={c.enrichment?.websiteFacts} enrichedAt={c.enrichment?.enrichedAt} /> : null}
            <CompanySourcesPanel companyId={id} />
          </>
        ) : undefined
      }
      fields={
        c ? (
          <>
            <EditableField
              label="Status"
              value={c.status}
              display={<StatusPill status={c.status} />}
              input={{ kind: 'select', options: statusOptions(COMPANY_STATUSES) }}
              error={errors.status}
              onEdit={() => clear('status')}
              onSave={(v) => save('status', v)}
            />
            {text('industry', 'Industry')}
            {text('phone', 'Phone', 'tel')}
            {text('website', 'Website')}
            {text('city', 'City')}
            {text('state', 'State')}
          </>
        ) : null
      }
    />
  );
}

/** `/contacts/:id` (and under /admin): a contact's record. */
export function ContactRecordRoute() {
  const id = useParams().id ?? '';
  const { pathname } = useLocation();
  const contact = useContact(id);
  const update = useUpdateContact({});
  const { save, errors, clear } = useFieldSave<ContactInput>('contact', id, (change) =>
    update.mutateAsync({ id, input: change }),
  );
  const c = contact.data;
  const text = (field: 'title' | 'email' | 'phone', label: string, kind: 'text' | 'email' | 'tel') =>
    c ? (
      <EditableField
        label={label}
        value={c[field] ?? ''}
        input={{ kind }}
        error={errors[field]}
        onEdit={() => clear(field)}
        // The email may not be emptied (the server requires it): send it as typed.
        onSave={(v) => save(field, field === 'email' ? v.trim() : orNull(v))}
      />
    ) : null;
  return (
    <RecordPage
      type="contact"
      id={id}
      query={contact}
      name={c ? `${c.firstName} ${c.lastName}`.trim() : undefined}
      action={
        c?.email ? (
          <a href={`mailto:${c.email}`} className={actionClass}>
            Send email
          </a>
        ) : undefined
      }
      aside={c ? <ScorePanel score={c.score} factors={c.scoreFactors} /> : undefined}
      description={
        c ? (
          <>
            {c.title ?? 'No title'}
            {c.companyId && c.companyName ? (
              <>
                {' at '}
                <Link to={recordHref('company', c.companyId, pathname)} className="font-medium text-indigo-700 hover:underline">
                  {c.companyName}
                </Link>
              </>
            ) : null}
            <DemoBadge demo={c.demo} />
          </>
        ) : undefined
      }
      fields={
        c ? (
          <>
            <EditableField
              label="Status"
              value={c.status}
              display={<StatusPill status={c.status} />}
              input={{ kind: 'select', options: statusOptions(ALL_STATUSES) }}
              error={errors.status}
              onEdit={() => clear('status')}
              onSave={(v) => save('status', v)}
            />
            {text('title', 'Title', 'text')}
            {text('email', 'Email', 'email')}
            {text('phone', 'Phone', 'tel')}
          </>
        ) : null
      }
    />
  );
}

/** `/deals/:id` (and under /admin): a deal's record. */
export function DealRecordRoute() {
  const id = useParams().id ?? '';
  const deal = useDeal(id);
  const update = useUpdateDeal({});
  const { save, errors, clear } = useFieldSave<DealInput>('deal', id, (change) => update.mutateAsync({ id, ...change }));
  const d = deal.data;
  const number = (v: string) => (v.trim() === '' ? null : Number(v));
  return (
    <RecordPage
      type="deal"
      id={id}
      query={deal}
      name={d?.title}
      description={d ? `${formatDollars(d.value)} · ${stageInfo(d.stage).label}` : undefined}
      fields={
        d ? (
          <>
            <EditableField
              label="Stage"
              value={stageInfo(d.stage).stage}
              display={stageInfo(d.stage).label}
              input={{ kind: 'select', options: DEAL_STAGES.map((s) => [s.stage, s.label] as const) }}
              error={errors.stage}
              onEdit={() => clear('stage')}
              onSave={(v) => save('stage', v)}
            />
            <EditableField
              label="Value"
              value={String(Number(d.value) || 0)}
              display={formatDollars(d.value)}
              input={{ kind: 'number', min: 0, step: 1 }}
              error={errors.value}
              onEdit={() => clear('value')}
              onSave={(v) => save('value', number(v))}
            />
            <EditableField
              label="Probability"
              value={String(d.probability)}
              display={`${d.probability}%`}
              input={{ kind: 'number', min: 0, max: 100, step: 1 }}
              error={errors.probability}
              onEdit={() => clear('probability')}
              onSave={(v) => save('probability', number(v))}
            />
            <EditableField
              label="Expected close date"
              value={d.expectedCloseDate ?? ''}
              display={d.expectedCloseDate ? formatDay(d.expectedCloseDate) : '—'}
              input={{ kind: 'date' }}
              error={errors.expectedCloseDate}
              onEdit={() => clear('expectedCloseDate')}
              onSave={(v) => save('expectedCloseDate', orNull(v))}
            />
          </>
        ) : null
      }
    />
  );
}
