-- The deals board's columns (issue 22): each stage's newest deals are one range of this index, so
-- a column's page reads its rows in order instead of filtering the whole table. Stage-less deals
-- count as qualification, as everywhere else; the queries use the same expression.
CREATE INDEX deals_board ON deals ((COALESCE(stage, 'qualification')), created_at DESC, id DESC);
