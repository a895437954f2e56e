-- A bulk campaign written in the composer carries its own body; without one it sends its template's
-- (issue 21). NULL for every campaign made before.
ALTER TABLE campaigns ADD COLUMN body TEXT;
