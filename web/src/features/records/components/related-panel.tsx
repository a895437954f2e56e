import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';

import { StatusPill } from '@/components/ui/score-badge';
import { Card, ErrorState, Skeleton } from '@/components/ui/states';
import { recordHref, screenHref, type RecordType } from '@/config/paths';
import { stageInfo } from '@/features/deals/api/stages';
import { formatRelativeTime } from '@/lib/format';
import { formatDollars } from '@/lib/rules';

import { useRelated } from '../api/get-related';
import type { CompanyRelated, ContactRelated, DealRelated, RelatedDeal, RelatedMeeting } from '../api/types';

const linkClass = 'font-medium text-indigo-700 hover:underline';

function Section({ title, count, children }: { title: string; count?: number; children: ReactNode }) {
  return (
    <section aria-label={title} className="border-t border-slate-100 pt-3 first:border-t-0 first:pt-0">
      <h3 className="mb-1 text-sm font-semibold text-slate-700">
        {title}
        {count !== undefined ? <span className="font-normal text-slate-500"> ({count.toLocaleString()})</span> : null}
      </h3>
      {children}
    </section>
  );
}

const None = ({ children }: { children: ReactNode }) => <p className="text-sm text-slate-500">{children}</p>;

function Deals({ deals, pathname }: { deals: RelatedDeal[]; pathname: string }) {
  return (
    <Section title="Deals" count={deals.length}>
      {deals.length === 0 ? (
        <None>No deals.</None>
      ) : (
        <ul className="space-y-1">
          {deals.map((d) => (
            <li key={d.id} className="flex flex-wrap items-baseline justify-between gap-x-2 text-sm">
              <Link to={recordHref('deal', d.id, pathname)} className={linkClass}>
                {d.title}
              </Link>
              <span className="text-slate-500">
                {formatDollars(d.value)} · {stageInfo(d.stage).label}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function Meetings({ meetings, pathname }: { meetings: RelatedMeeting[]; pathname: string }) {
  return (
    <Section title="Meetings" count={meetings.length}>
      {meetings.length === 0 ? (
        <None>No meetings.</None>
      ) : (
        <ul className="space-y-1">
          {meetings.map((m) => (
            <li key={m.id} className="flex flex-wrap items-baseline justify-between gap-x-2 text-sm">
              <Link to={screenHref('meetings', pathname)} className="text-slate-900 hover:underline">
                {m.title}
              </Link>
              <span className="text-slate-500">
                <time dateTime={m.scheduledAt}>{formatRelativeTime(m.scheduledAt)}</time> · {m.status}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function CompanyPanel({ data, pathname }: { data: CompanyRelated; pathname: string }) {
  return (
    <>
      <Section title="Contacts" count={data.contactCount}>
        {data.contacts.length === 0 ? (
          <None>No contacts.</None>
        ) : (
          <ul className="space-y-1.5">
            {data.contacts.map((c) => (
              <li key={c.id} className="text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <Link to={recordHref('contact', c.id, pathname)} className={linkClass}>
                    {c.name}
                  </Link>
                  <StatusPill status={c.status} />
                </div>
                <p className="truncate text-xs text-slate-500">{[c.title, c.email].filter(Boolean).join(' · ') || '—'}</p>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Deals deals={data.deals} pathname={pathname} />
      <Meetings meetings={data.meetings} pathname={pathname} />
    </>
  );
}

function ContactPanel({ data, pathname }: { data: ContactRelated; pathname: string }) {
  return (
    <>
      <Section title="Company">
        {data.company ? (
          <Link to={recordHref('company', data.company.id, pathname)} className={`${linkClass} text-sm`}>
            {data.company.name}
          </Link>
        ) : (
          <None>No company.</None>
        )}
      </Section>
      <Deals deals={data.deals} pathname={pathname} />
      <Meetings meetings={data.meetings} pathname={pathname} />
      <Section title="Sequences" count={data.enrollments.length}>
        {data.enrollments.length === 0 ? (
          <None>Not in a sequence.</None>
        ) : (
          <ul className="space-y-1">
            {data.enrollments.map((e) => (
              <li key={e.id} className="flex flex-wrap items-baseline justify-between gap-x-2 text-sm">
                <Link to={screenHref('emailSequences', pathname, `?sequence=${encodeURIComponent(e.sequenceId)}`)} className={linkClass}>
                  {e.sequenceName}
                </Link>
                <span className="text-slate-500">
                  {e.status} · step {e.currentStep}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}

function DealPanel({ data, pathname }: { data: DealRelated; pathname: string }) {
  return (
    <>
      <Section title="Company">
        {data.company ? (
          <Link to={recordHref('company', data.company.id, pathname)} className={`${linkClass} text-sm`}>
            {data.company.name}
          </Link>
        ) : (
          <None>No company.</None>
        )}
      </Section>
      <Section title="Contact">
        {data.contact ? (
          <p className="text-sm">
            <Link to={recordHref('contact', data.contact.id, pathname)} className={linkClass}>
              {data.contact.name}
            </Link>
            {data.contact.email ? <span className="block text-xs text-slate-500">{data.contact.email}</span> : null}
          </p>
        ) : (
          <None>No contact.</None>
        )}
      </Section>
      <Meetings meetings={data.meetings} pathname={pathname} />
    </>
  );
}

/** The records linked to this one, each a link to its page. */
export function RelatedPanel({ type, id }: { type: RecordType; id: string }) {
  const { pathname } = useLocation();
  const related = useRelated(type, id);
  return (
    <Card title="Related">
      {related.isPending ? (
        <Skeleton rows={2} label="Loading related records" />
      ) : related.isError ? (
        <ErrorState title="Unable to load related records" error={related.error} onRetry={() => void related.refetch()} />
      ) : (
        <div className="space-y-3">
          {type === 'company' ? (
            <CompanyPanel data={related.data as CompanyRelated} pathname={pathname} />
          ) : type === 'contact' ? (
            <ContactPanel data={related.data as ContactRelated} pathname={pathname} />
          ) : (
            <DealPanel data={related.data} pathname={pathname} />
          )}
        </div>
      )}
    </Card>
  );
}
