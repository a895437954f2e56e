import { Link } from 'react-router';

import { PublicLayout } from '@/components/layouts/public-layout';
import { paths } from '@/config/paths';

export function ThankYouRoute() {
  return (
    <PublicLayout title="Thank you">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Thank you!</h1>
      <p className="mt-3 text-slate-600">Our team will contact you within 1-2 business days.</p>
      <h2 className="mt-8 text-xl font-semibold">What happens next</h2>
      <ol className="mt-3 list-decimal space-y-1 pl-5 text-slate-700">
        <li>We review your company's information.</li>
        <li>We schedule a discovery call to learn about your business.</li>
        <li>We share the partnership details that fit you.</li>
      </ol>
      <Link to={paths.public.dealers} className="mt-8 inline-block font-semibold text-indigo-700 hover:underline">
        Back to the dealer page
      </Link>
    </PublicLayout>
  );
}
