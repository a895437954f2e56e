-- CRM core: companies, contacts, deals, meetings, activities (seeds 000 §3, 001 §3).
-- Money is integer dollars; times are integer milliseconds since the epoch; dates are 'YYYY-MM-DD' text.

CREATE TABLE companies (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL CHECK (length(trim(name)) > 0),
    industry TEXT,
    company_type TEXT,
    status TEXT NOT NULL DEFAULT 'discovered'
        CHECK (status IN ('discovered','prospect','qualified','contacted','interested','partner','not_interested')),
    revenue BIGINT CHECK (revenue IS NULL OR revenue >= 0),
    employees INTEGER CHECK (employees IS NULL OR employees >= 0),
    founded INTEGER,
    score INTEGER NOT NULL DEFAULT 0 CHECK (score BETWEEN 0 AND 100),
    prospect_score INTEGER NOT NULL DEFAULT 0 CHECK (prospect_score BETWEEN 0 AND 100),
    is_deal BOOLEAN NOT NULL DEFAULT FALSE,
    website TEXT,
    domain TEXT,
    phone TEXT,
    address TEXT,
    city TEXT,
    state TEXT,
    zip_code TEXT,
    growth_rate DOUBLE PRECISION,
    description TEXT,
    competitor_alignment INTEGER CHECK (competitor_alignment IS NULL OR competitor_alignment BETWEEN 0 AND 100),
    discovered_at BIGINT,
    last_contacted_at BIGINT,
    discovery_source TEXT CHECK (discovery_source IS NULL OR discovery_source IN ('city_state_search','region_search','dealer_form','import','manual')),
    discovery_city TEXT,
    discovery_state TEXT,
    discovery_region TEXT,
    discovery_metadata JSONB,
    competitive_analysis JSONB,
    lead_qualification JSONB,
    has_enhanced_data BOOLEAN NOT NULL DEFAULT FALSE,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX companies_domain ON companies(domain) WHERE domain IS NOT NULL;
CREATE INDEX companies_state ON companies(state, score);
CREATE INDEX companies_status ON companies(status);
CREATE INDEX companies_score ON companies(score);
CREATE INDEX companies_created ON companies(created_at);
CREATE INDEX companies_name ON companies(lower(name), state);

CREATE TABLE contacts (
    id TEXT PRIMARY KEY,
    company_id TEXT REFERENCES companies(id) ON DELETE SET NULL,
    first_name TEXT NOT NULL CHECK (length(trim(first_name)) > 0),
    -- May be empty: the public lead form takes one name field.
    last_name TEXT NOT NULL,
    email TEXT,
    phone TEXT,
    title TEXT,
    department TEXT,
    linkedin_url TEXT,
    status TEXT NOT NULL DEFAULT 'discovered'
        CHECK (status IN ('discovered','verified','contacted','qualified','new_lead','email_sent','meeting_scheduled',
                          'customer','lost','responded','hot','warm','cold')),
    score INTEGER NOT NULL DEFAULT 50 CHECK (score BETWEEN 0 AND 100),
    source TEXT,
    tags JSONB NOT NULL DEFAULT '[]',
    notes TEXT,
    is_verified BOOLEAN NOT NULL DEFAULT FALSE,
    verification_score INTEGER CHECK (verification_score IS NULL OR verification_score BETWEEN 0 AND 100),
    verified_by JSONB NOT NULL DEFAULT '[]',
    verified_at BIGINT,
    verification_warnings JSONB NOT NULL DEFAULT '[]',
    discovery_metadata JSONB,
    last_contacted_at BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX contacts_email ON contacts(lower(email)) WHERE email IS NOT NULL;
CREATE INDEX contacts_company ON contacts(company_id);
CREATE INDEX contacts_status ON contacts(status, score);
CREATE INDEX contacts_created ON contacts(created_at);

CREATE TABLE deals (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL CHECK (length(trim(title)) > 0),
    description TEXT,
    value BIGINT NOT NULL CHECK (value >= 0),
    stage TEXT CHECK (stage IS NULL OR stage IN ('qualification','proposal','negotiation','decision','closed_won','closed_lost')),
    probability INTEGER NOT NULL DEFAULT 25 CHECK (probability BETWEEN 0 AND 100),
    expected_close_date TEXT,
    actual_close_date TEXT,
    contact_id TEXT REFERENCES contacts(id) ON DELETE SET NULL,
    company_id TEXT REFERENCES companies(id) ON DELETE SET NULL,
    notes TEXT,
    stage_changed_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX deals_stage ON deals(stage);
CREATE INDEX deals_contact ON deals(contact_id);
CREATE INDEX deals_company ON deals(company_id);
CREATE INDEX deals_created ON deals(created_at);

CREATE TABLE meetings (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL CHECK (length(trim(title)) > 0),
    description TEXT,
    company_id TEXT REFERENCES companies(id) ON DELETE SET NULL,
    contact_id TEXT REFERENCES contacts(id) ON DELETE SET NULL,
    scheduled_at BIGINT NOT NULL,
    duration INTEGER NOT NULL DEFAULT 60 CHECK (duration > 0),
    location TEXT,
    meeting_type TEXT NOT NULL DEFAULT 'discovery'
        CHECK (meeting_type IN ('discovery','demo','proposal','closing','follow-up')),
    agenda TEXT,
    attendees TEXT,
    status TEXT NOT NULL DEFAULT 'scheduled'
        CHECK (status IN ('scheduled','confirmed','completed','cancelled','no_show')),
    sync_status TEXT NOT NULL DEFAULT 'pending' CHECK (sync_status IN ('pending','synced','failed')),
    google_calendar_event_id TEXT,
    google_meet_link TEXT,
    last_synced_at BIGINT,
    google_calendar_sync_enabled BOOLEAN NOT NULL DEFAULT TRUE,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX meetings_scheduled ON meetings(scheduled_at);
CREATE INDEX meetings_status ON meetings(status, scheduled_at);

CREATE TABLE activities (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    description TEXT NOT NULL,
    entity_type TEXT,
    entity_id TEXT,
    actor_id TEXT,
    created_at BIGINT NOT NULL
);
CREATE INDEX activities_created ON activities(created_at DESC, id DESC);
CREATE INDEX activities_entity ON activities(entity_type, entity_id);
