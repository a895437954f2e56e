//! Schemas of the request bodies that are not a JSON type of ours: file uploads (multipart forms
//! and CSV) and the providers' callbacks, declared with `Routes::body_as`. Each handler reads its
//! body by hand (bounded before it parses), so these describe what it reads.

use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, Schema, Type};
use utoipa::openapi::{Ref, RefOr};

/// Largest CSV upload (only `POST /api/contacts/import` accepts more than the API-wide limit).
pub(crate) const IMPORT_LIMIT: usize = 50 * 1024 * 1024;

/// A catalog file may be large, but not unbounded.
pub(crate) const CATALOG_LIMIT: usize = 10 * 1024 * 1024;

type Named = (RefOr<Schema>, Vec<(String, RefOr<Schema>)>);

/// `schema` as the named component `name`.
fn named(name: &str, schema: impl Into<RefOr<Schema>>) -> Named {
    (
        Ref::from_schema_name(name).into(),
        vec![(name.to_string(), schema.into())],
    )
}

/// A file part of a multipart form.
fn file(description: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .content_media_type("application/octet-stream")
        .description(Some(description))
}

fn text(description: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(description))
}

/// `POST /api/ai/invoice-extract` and `/api/ai/document-analyze`.
pub(crate) fn document_upload() -> Named {
    named(
        "DocumentUpload",
        ObjectBuilder::new()
            .property(
                "document",
                file(&format!(
                    "A JPG, PNG, PDF, DOC or DOCX file of at most {} MB",
                    jobs::ai::documents::MAX_DOCUMENT_BYTES / 1024 / 1024
                )),
            )
            .required("document")
            .additional_properties(Some(AdditionalProperties::FreeForm(false))),
    )
}

/// `POST /api/catalog/upload`.
pub(crate) fn catalog_upload() -> Named {
    named(
        "CatalogUpload",
        ObjectBuilder::new()
            .property(
                "file",
                file(&format!(
                    "The product catalog as CSV or XLSX, at most {} MiB (the part may also be named \
                     `catalog` or `document`)",
                    CATALOG_LIMIT / 1024 / 1024
                )),
            )
            .required("file")
            .additional_properties(Some(AdditionalProperties::FreeForm(false))),
    )
}

/// `POST /api/contacts/import`: the file itself.
pub(crate) fn contact_csv() -> Named {
    named(
        "ContactCsv",
        text(&format!(
            "A CSV file of at most {} MiB whose header row names the columns (first name, last \
             name and email at least)",
            IMPORT_LIMIT / 1024 / 1024
        )),
    )
}

/// `POST /api/email/inbound`: SendGrid Inbound Parse's form (parsed, or the raw message).
pub(crate) fn inbound_parse() -> Named {
    named(
        "InboundParse",
        ObjectBuilder::new()
            .property("headers", text("The message's header lines"))
            .property("from", text("The sender"))
            .property("to", text("The recipients"))
            .property("subject", text("The subject"))
            .property("text", text("The plain-text body"))
            .property("html", text("The HTML body"))
            .property(
                "email",
                text("The whole MIME message, when the parse is set to send it raw"),
            )
            // SendGrid sends more parts (envelope, charsets, SPF, attachments), which are
            // ignored; a part's name is a header parameter, so no control or non-ASCII text.
            .property_names(Some(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .pattern(Some("^[A-Za-z0-9_.-]+$")),
            )),
    )
}

/// `POST /api/webhooks/stripe`: a Stripe event (payment intents are read, others acknowledged).
pub(crate) fn stripe_event() -> Named {
    named(
        "StripeEvent",
        ObjectBuilder::new()
            .property(
                "type",
                text("The event type, e.g. `payment_intent.succeeded`"),
            )
            .required("type")
            .property(
                "data",
                ObjectBuilder::new().property(
                    "object",
                    ObjectBuilder::new().property("id", text("The payment intent's id")),
                ),
            ),
    )
}
