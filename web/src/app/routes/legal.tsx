import { PublicLayout } from '@/components/layouts/public-layout';

/** Both legal pages carry this date (seed 002). */
export const LEGAL_DATE = 'December 10, 2024';

export function PrivacyPolicyRoute() {
  return (
    <PublicLayout title="Privacy Policy">
      <article className="space-y-4 text-slate-700">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">Privacy Policy</h1>
        <p className="text-sm text-slate-500">Last updated: {LEGAL_DATE}</p>
        <p>
          We collect the business contact details you give us and those our staff record while working with your
          company, and use them only to run our partnership and sales programmes.
        </p>
        <p>Every email we send has an unsubscribe link; once you unsubscribe, we stop emailing you.</p>
        <p>We answer requests to see, correct or delete your data within 30 days.</p>
      </article>
    </PublicLayout>
  );
}

export function TermsOfServiceRoute() {
  return (
    <PublicLayout title="Terms of Service">
      <article className="space-y-4 text-slate-700">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">Terms of Service</h1>
        <p className="text-sm text-slate-500">Last updated: {LEGAL_DATE}</p>
        <p>You must be at least 18 years old to use the service.</p>
        <p>We give 30 days' notice before these terms change.</p>
        <p>Our liability is limited to the amount you paid us in the 12 months before a claim.</p>
      </article>
    </PublicLayout>
  );
}
