-- Website enrichment (issue 25 §2, docs/providers.md "Website enrichment"): what the company's own
-- site showed when last read. `website_services` is the JSON array of service keys the score reads
-- (NULL: the site was never read); `website_facts` the rest (pages, emails, phones, social links,
-- people, what was skipped); `enriched_at` when.
ALTER TABLE companies ADD COLUMN website_services JSONB;
ALTER TABLE companies ADD COLUMN website_facts JSONB;
ALTER TABLE companies ADD COLUMN enriched_at BIGINT;
