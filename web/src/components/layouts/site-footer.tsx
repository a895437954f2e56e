/** The footer of the landing page and the app shell: a contact line. */
export function SiteFooter() {
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto max-w-7xl px-4 py-5 text-sm text-slate-500">
        <p>Questions about Prospector? Contact your account administrator.</p>
      </div>
    </footer>
  );
}
