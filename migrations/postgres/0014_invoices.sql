-- Invoices and their line items; money in whole cents, the tax rate in thousandths of a percent.
CREATE TABLE invoices (
    id TEXT PRIMARY KEY,
    invoice_number TEXT NOT NULL UNIQUE CHECK (length(trim(invoice_number)) > 0),
    customer_name TEXT NOT NULL CHECK (length(trim(customer_name)) > 0),
    customer_email TEXT,
    customer_phone TEXT,
    billing_address TEXT,
    notes TEXT,
    tax_milli INTEGER NOT NULL CHECK (tax_milli BETWEEN 0 AND 100000),
    discount_cents BIGINT NOT NULL CHECK (discount_cents >= 0),
    subtotal_cents BIGINT NOT NULL CHECK (subtotal_cents >= 0),
    tax_cents BIGINT NOT NULL CHECK (tax_cents >= 0),
    total_cents BIGINT NOT NULL CHECK (total_cents >= 0),
    status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft','sent','paid','overdue')),
    invoice_date TEXT NOT NULL,
    due_date TEXT NOT NULL,
    paid_at BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX invoices_created ON invoices(created_at DESC, id DESC);
CREATE INDEX invoices_status ON invoices(status);

CREATE TABLE invoice_items (
    id TEXT PRIMARY KEY,
    invoice_id TEXT NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    product_id TEXT,
    description TEXT NOT NULL CHECK (length(trim(description)) > 0),
    quantity INTEGER NOT NULL CHECK (quantity >= 1),
    unit_price_cents BIGINT NOT NULL CHECK (unit_price_cents >= 0),
    total_cents BIGINT NOT NULL CHECK (total_cents >= 0)
);
CREATE INDEX invoice_items_invoice ON invoice_items(invoice_id, position);

-- The rendered PDF of an invoice, for the version (updated_at) it was rendered from.
CREATE TABLE invoice_pdfs (
    invoice_id TEXT PRIMARY KEY REFERENCES invoices(id) ON DELETE CASCADE,
    version BIGINT NOT NULL,
    pdf BYTEA NOT NULL,
    created_at BIGINT NOT NULL
);

-- Payments asked of the payment provider (Stripe PaymentIntents) or recorded in demo mode.
CREATE TABLE payments (
    id TEXT PRIMARY KEY,
    invoice_id TEXT NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
    provider TEXT NOT NULL CHECK (provider IN ('stripe','demo')),
    provider_ref TEXT UNIQUE,
    amount_cents BIGINT NOT NULL CHECK (amount_cents > 0),
    currency TEXT NOT NULL,
    status TEXT NOT NULL,
    error TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX payments_invoice ON payments(invoice_id, created_at);

-- The product catalog invoices pick line items from.
CREATE TABLE catalog_items (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL CHECK (length(trim(name)) > 0),
    description TEXT,
    price_cents BIGINT NOT NULL CHECK (price_cents >= 0),
    category TEXT,
    sku TEXT,
    created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX catalog_items_name ON catalog_items(lower(name));
