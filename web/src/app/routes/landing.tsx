import * as Accordion from '@radix-ui/react-accordion';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';

import { SiteFooter } from '@/components/layouts/site-footer';
import { toast } from '@/stores/toasts';

/** Both calls to action start the sign-in flow on the server (seed 000 §2.3). */
export const LOGIN_URL = '/api/login';

const FEATURES = [
  {
    title: 'Smart lead discovery',
    text: 'AI finds your ideal customers around the clock.',
  },
  {
    title: 'Personalised email outreach',
    text: 'Automated, personalised sequences that follow up for you.',
  },
  {
    title: 'AI voice calls',
    text: 'Voice agents qualify leads and book meetings.',
  },
  {
    title: 'Track what works',
    text: 'See hot leads, winning campaigns and revenue in one place.',
  },
];

const FAQ = [
  {
    q: 'How quickly will I see results?',
    a: 'Most teams book 2-3x more qualified meetings within 30 days.',
  },
  {
    q: 'How much time does it save?',
    a: 'Teams report saving 15-20 hours per week on prospecting and follow-up.',
  },
  {
    q: 'How long does setup take?',
    a: 'Setup takes under 30 minutes.',
  },
  {
    q: 'Will my emails reach the inbox?',
    a: 'Outreach follows sender best practices; customers see an 89% email delivery rate.',
  },
  {
    q: 'Who uses the platform?',
    a: 'Hundreds of businesses use it to grow their pipeline.',
  },
  {
    q: 'Is there a contract?',
    a: 'No setup fees, free trial, cancel anytime.',
  },
];

export function LandingRoute() {
  const [searchParams] = useSearchParams();
  const unauthorized = searchParams.has('unauthorized');

  useEffect(() => {
    if (unauthorized) {
      toast({
        title: 'Authentication Required',
        description: 'Please log in to access the CRM platform.',
        variant: 'destructive',
      });
    }
  }, [unauthorized]);

  const cta = (label: string, primary: boolean) => (
    <a
      href={LOGIN_URL}
      className={`inline-flex items-center justify-center rounded-md px-5 py-3 text-sm font-semibold shadow-xs focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 ${
        primary ? 'bg-indigo-600 text-white hover:bg-indigo-500' : 'bg-white text-indigo-700 ring-1 ring-indigo-200 hover:bg-indigo-50'
      }`}
    >
      {label}
    </a>
  );

  return (
    <div className="flex min-h-screen flex-col">
      <title>Prospector · AI-assisted sales CRM</title>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
          <span className="text-lg font-bold tracking-tight text-indigo-700">Prospector</span>
          {cta('Access Platform', false)}
        </div>
      </header>
      <main id="main" className="flex-1">
        <section className="mx-auto max-w-6xl px-4 py-14 text-center">
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-5xl">Prospector</h1>
          <p className="mt-4 text-lg text-slate-600 sm:text-xl">Turn More Prospects Into Paying Customers</p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            {cta('Start Growing Your Business Today', true)}
          </div>
        </section>
        <section aria-labelledby="features" className="mx-auto max-w-6xl px-4 pb-12">
          <h2 id="features" className="sr-only">
            Features
          </h2>
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {FEATURES.map((f) => (
              <li key={f.title} className="rounded-xl bg-white p-5 shadow-xs ring-1 ring-slate-200">
                <h3 className="font-semibold text-slate-900">{f.title}</h3>
                <p className="mt-2 text-sm text-slate-600">{f.text}</p>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="faq" className="mx-auto max-w-3xl px-4 pb-16">
          <h2 id="faq" className="mb-4 text-xl font-bold text-slate-900">
            Frequently asked questions
          </h2>
          {/* One item open at a time; clicking the open one closes it (seed 000 §2.3). */}
          <Accordion.Root type="single" collapsible className="divide-y divide-slate-200 rounded-xl bg-white ring-1 ring-slate-200">
            {FAQ.map((item) => (
              <Accordion.Item key={item.q} value={item.q}>
                <Accordion.Header>
                  <Accordion.Trigger className="flex w-full items-center justify-between px-4 py-3 text-left text-sm font-medium text-slate-900 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600">
                    {item.q}
                    <span aria-hidden="true">+</span>
                  </Accordion.Trigger>
                </Accordion.Header>
                <Accordion.Content className="px-4 pb-3 text-sm text-slate-600">{item.a}</Accordion.Content>
              </Accordion.Item>
            ))}
          </Accordion.Root>
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}
