import { useNavigate } from 'react-router';

import { PublicLayout } from '@/components/layouts/public-layout';
import { paths } from '@/config/paths';
import { LeadForm } from '@/features/dealers/components/lead-form';

const REASONS = [
  'Bath, accessibility and remodeling products your customers ask for',
  'Qualified leads in your territory',
  'Training and marketing support from our partnership team',
];

export function DealersRoute() {
  const navigate = useNavigate();
  return (
    <PublicLayout title="Become a dealer">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Grow with our dealer network</h1>
      <p className="mt-3 text-slate-600">
        We partner with remodeling companies with $5M and more in annual revenue in Texas, Arkansas, New Mexico,
        Louisiana, Mississippi, Oklahoma and Arizona.
      </p>
      <section aria-labelledby="why" className="mt-8">
        <h2 id="why" className="text-xl font-semibold">
          Why Join Our Network
        </h2>
        <ul className="mt-3 list-disc space-y-1 pl-5 text-slate-700">
          {REASONS.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="conversation" className="mt-10 rounded-xl bg-white p-5 shadow-xs ring-1 ring-slate-200">
        <h2 id="conversation" className="mb-4 text-xl font-semibold">
          Schedule a Conversation
        </h2>
        <LeadForm onSubmitted={() => void navigate(paths.public.thankYou)} />
      </section>
    </PublicLayout>
  );
}
