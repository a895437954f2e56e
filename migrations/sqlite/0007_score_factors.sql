-- Why a contact or company has its score: the scorer's factors, kept with the score. A contact
-- without factors has never been scored (bulk scoring picks those up).
ALTER TABLE contacts ADD COLUMN score_factors TEXT;
ALTER TABLE companies ADD COLUMN score_factors TEXT;
