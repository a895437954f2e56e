//! The OpenAPI document at `/api/openapi.json`, built from the route table the router is built
//! from (so no route can be missing) and the request bodies' schemas (`Routes::body`). Clients and
//! the fuzz pass of the reliability suite read it.

use std::sync::LazyLock;

use axum::http::Method;
use axum::response::{IntoResponse, Response};
use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::path::{
    HttpMethod, OperationBuilder, ParameterBuilder, ParameterIn, PathItem, PathsBuilder,
};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::schema::{ArrayBuilder, KnownFormat, Schema, SchemaFormat};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{
    ComponentsBuilder, ContentBuilder, InfoBuilder, ObjectBuilder, OpenApi, OpenApiBuilder, Ref,
    RefOr, Required, Response as DocResponse, ResponseBuilder, Type,
};
use utoipa::{PartialSchema, ToSchema};

use crate::error::ErrorBody;
use crate::extract::SESSION_COOKIE;
use crate::{Access, RouteInfo, Routes};

const SESSION_SCHEME: &str = "session";

pub fn routes() -> Routes {
    Routes::new()
        .get("/api/openapi.json", Access::Public, document_json)
        .returns::<serde_json::Value>()
}

static DOCUMENT: LazyLock<String> = LazyLock::new(|| {
    document(&crate::route_table())
        .to_json()
        .unwrap_or_default()
});

/// The document as the web app keeps it (`web/openapi.json`, `prospector openapi`).
pub fn pretty_document() -> Result<String, serde_json::Error> {
    document(&crate::route_table()).to_pretty_json()
}

async fn document_json() -> Response {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        DOCUMENT.as_str(),
    )
        .into_response()
}

fn http_method(m: &Method) -> Option<HttpMethod> {
    Some(match *m {
        Method::GET => HttpMethod::Get,
        Method::POST => HttpMethod::Post,
        Method::PUT => HttpMethod::Put,
        Method::PATCH => HttpMethod::Patch,
        Method::DELETE => HttpMethod::Delete,
        Method::HEAD => HttpMethod::Head,
        Method::OPTIONS => HttpMethod::Options,
        _ => return None,
    })
}

/// `{id}` segments of an axum path.
fn path_params(path: &str) -> impl Iterator<Item = &str> {
    path.split('/')
        .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
}

pub fn document(table: &[RouteInfo]) -> OpenApi {
    let mut paths = PathsBuilder::new();
    let mut schemas = Vec::new();
    let mut bodies = Vec::new();
    for route in table {
        let Some(method) = http_method(&route.method) else {
            continue;
        };
        let mut op = OperationBuilder::new().operation_id(Some(format!(
            "{}{}",
            route.method.as_str().to_lowercase(),
            route.path.replace(['/', '{', '}', '-', '.'], "_")
        )));
        op = match route.returns {
            Some(returns) => {
                let ok = match (returns.body, returns.file) {
                    (Some(body), _) => {
                        let (schema, nested) = body();
                        schemas.extend(nested);
                        success(returns.status, schema, returns.page)
                    }
                    (None, Some(content_type)) => file(content_type),
                    (None, None) => ResponseBuilder::new().description("Done; no body").build(),
                };
                let ok = if returns.location {
                    with_location(ok)
                } else {
                    ok
                };
                let op = if returns.or_ok {
                    op.response("200", ok.clone())
                } else {
                    op
                };
                let op = op.response(returns.status.to_string(), ok);
                let op = match returns.also {
                    Some((status, body)) => {
                        let (schema, nested) = body();
                        schemas.extend(nested);
                        op.response(status.to_string(), success(status, schema, false))
                    }
                    None => op,
                };
                if returns.html_errors {
                    op.response("4XX", html_error())
                        .response("5XX", error_response("The server failed or is busy"))
                } else {
                    op.response("4XX", error_response("The request cannot be served"))
                        .response("5XX", error_response("The server failed or is busy"))
                }
            }
            // Not described yet: any answer (issue 24 §1 describes every route).
            None => op.response(
                "default",
                ResponseBuilder::new().description("JSON, or {\"message\"} on an error"),
            ),
        };
        for name in path_params(route.path) {
            op = op.parameter(
                ParameterBuilder::new()
                    .name(name)
                    .parameter_in(ParameterIn::Path)
                    .required(Required::True)
                    // `extract::reject_nul` refuses NUL anywhere in a request.
                    .schema(Some(
                        ObjectBuilder::new()
                            .schema_type(Type::String)
                            .pattern(Some("^[^\\u0000]+$")),
                    )),
            );
        }
        if let Some(header) = route.signed_by {
            op = op.parameter(
                ParameterBuilder::new()
                    .name(header)
                    .parameter_in(ParameterIn::Header)
                    .required(Required::True)
                    .description(Some(
                        "The provider's signature of the body with the shared secret",
                    ))
                    .schema(Some(ObjectBuilder::new().schema_type(Type::String))),
            );
        }
        if let Some(query) = route.query {
            for param in query() {
                op = op.parameter(param);
            }
        }
        if route.access != Access::Public {
            op = op.security(SecurityRequirement::new::<_, _, String>(SESSION_SCHEME, []));
        }
        // A route without a declared body reads none (a test holds every JSON reader to one).
        if let Some(body) = route.body {
            let (schema, nested) = body();
            schemas.extend(nested);
            if route.body_content == "application/json" {
                bodies.push(schema.clone());
            }
            op = op.request_body(Some(
                RequestBodyBuilder::new()
                    .content(
                        route.body_content,
                        ContentBuilder::new().schema(Some(schema)).build(),
                    )
                    .required(Some(Required::True))
                    .build(),
            ));
        }
        paths = paths.path(route.path, PathItem::new(method, op));
    }
    let mut errors = Vec::new();
    ErrorBody::schemas(&mut errors);
    schemas.extend(errors);
    schemas.push((ErrorBody::name().into_owned(), ErrorBody::schema()));
    refuse_nul_in_bodies(&mut schemas, &bodies);
    OpenApiBuilder::new()
        .info(
            InfoBuilder::new()
                .title("Prospector API")
                .version(env!("CARGO_PKG_VERSION"))
                .description(Some(
                    "No text of a request holds a NUL character: the address, and every key and \
                     value of a JSON body, free-form ones included (400 \"Text must not contain \
                     NUL characters.\"). Declared text fields say so with their pattern.",
                )),
        )
        .paths(paths)
        .components(Some(
            ComponentsBuilder::new()
                .schemas_from_iter(schemas)
                .security_scheme(
                    SESSION_SCHEME,
                    SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::new(SESSION_COOKIE))),
                )
                .build(),
        ))
        .build()
}

/// `extract::reject_nul` refuses a NUL anywhere in a JSON body, so every text of a JSON request
/// body (the bodies `bodies` names and the components they reach) that has no pattern, list or format
/// of its own gets [`validate::NO_NUL`]. Answers are left as they are: a component that is both a
/// body and an answer is a body here, and we store no NUL (the bodies refuse it).
fn refuse_nul_in_bodies(schemas: &mut [(String, RefOr<Schema>)], bodies: &[RefOr<Schema>]) {
    let mut pending: Vec<String> = Vec::new();
    for body in bodies {
        pending.extend(refs_in(body));
    }
    let mut seen = std::collections::BTreeSet::new();
    while let Some(name) = pending.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        for (_, schema) in schemas.iter().filter(|(n, _)| *n == name) {
            pending.extend(refs_in(schema));
        }
    }
    for (name, schema) in schemas.iter_mut() {
        if seen.contains(name.as_str())
            && let RefOr::T(schema) = schema
        {
            refuse_nul(schema);
        }
    }
}

/// The component names `schema` refers to, directly or in its parts.
fn refs_in(schema: &RefOr<Schema>) -> Vec<String> {
    let text = serde_json::to_value(schema).unwrap_or_default();
    let mut names = Vec::new();
    let mut stack = vec![&text];
    while let Some(v) = stack.pop() {
        match v {
            serde_json::Value::Object(map) => {
                if let Some(name) = map
                    .get("$ref")
                    .and_then(|r| r.as_str())
                    .and_then(|r| r.strip_prefix("#/components/schemas/"))
                {
                    names.push(name.to_string());
                }
                stack.extend(map.values());
            }
            serde_json::Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    names
}

fn refuse_nul(schema: &mut Schema) {
    use utoipa::openapi::schema::{AdditionalProperties, ArrayItems, SchemaType};
    let parts: Vec<&mut RefOr<Schema>> = match schema {
        Schema::Object(o) => {
            let text = match &o.schema_type {
                SchemaType::Type(t) => *t == Type::String,
                SchemaType::Array(ts) => ts.contains(&Type::String),
                SchemaType::AnyValue => false,
            };
            if text && o.enum_values.is_none() && o.pattern.is_none() && o.format.is_none() {
                o.pattern = Some(crate::validate::NO_NUL.to_string());
            }
            let mut parts: Vec<&mut RefOr<Schema>> = o.properties.values_mut().collect();
            if let Some(extra) = o.additional_properties.as_deref_mut()
                && let AdditionalProperties::RefOr(extra) = extra
            {
                parts.push(extra);
            }
            parts
        }
        Schema::Array(a) => match &mut a.items {
            ArrayItems::RefOrSchema(item) => vec![item.as_mut()],
            ArrayItems::False => Vec::new(),
        },
        Schema::OneOf(o) => o.items.iter_mut().collect(),
        Schema::AnyOf(o) => o.items.iter_mut().collect(),
        Schema::AllOf(o) => o.items.iter_mut().collect(),
        _ => Vec::new(),
    };
    for part in parts {
        if let RefOr::T(part) = part {
            refuse_nul(part);
        }
    }
}

/// A success answer: `schema` as JSON, or an array of it with its `X-Total-Count` for a page.
fn success(status: u16, schema: RefOr<Schema>, page: bool) -> DocResponse {
    let description = match status {
        201 => "Created",
        _ => "OK",
    };
    let mut response = ResponseBuilder::new().description(description);
    let schema = if page {
        response = response.header(
            "X-Total-Count",
            HeaderBuilder::new()
                .schema(
                    ObjectBuilder::new()
                        .schema_type(Type::Integer)
                        .minimum(Some(0)),
                )
                .description(Some(
                    "Rows that match; a floor when X-Total-Count-Exact is false",
                ))
                .build(),
        );
        ArrayBuilder::new().items(schema).into()
    } else {
        schema
    };
    response
        .content(
            "application/json",
            ContentBuilder::new().schema(Some(schema)).build(),
        )
        .build()
}

/// A file download.
fn file(content_type: &str) -> DocResponse {
    ResponseBuilder::new()
        .description("A file")
        .content(
            content_type,
            ContentBuilder::new()
                .schema(Some(
                    ObjectBuilder::new()
                        .schema_type(Type::String)
                        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary))),
                ))
                .build(),
        )
        .build()
}

/// The errors of a page a person opens: an HTML page, or `ErrorBody` when the request was refused
/// before the page (`extract::reject_nul`, the body limit).
fn html_error() -> DocResponse {
    let mut response = file("text/html");
    response.description = "An error page, or {message} when refused before the page".into();
    response.content.insert(
        "application/json".into(),
        ContentBuilder::new()
            .schema(Some(Ref::from_schema_name(ErrorBody::name())))
            .build(),
    );
    response
}

/// The answer with its `Location` (the job, the record or the page it names).
fn with_location(mut response: DocResponse) -> DocResponse {
    response.headers.insert(
        "Location".into(),
        HeaderBuilder::new()
            .schema(ObjectBuilder::new().schema_type(Type::String))
            .description(Some("Where the job, record or page is"))
            .build(),
    );
    response
}

/// Every error answer: `{message, errors?}` ([`ErrorBody`]).
fn error_response(description: &str) -> DocResponse {
    ResponseBuilder::new()
        .description(description)
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name(ErrorBody::name())))
                .build(),
        )
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schema a `$ref` names, else the schema itself.
    fn deref<'a>(
        doc: &'a serde_json::Value,
        schema: &'a serde_json::Value,
    ) -> &'a serde_json::Value {
        match schema["$ref"]
            .as_str()
            .and_then(|r| r.strip_prefix("#/components/schemas/"))
        {
            Some(name) => &doc["components"]["schemas"][name],
            None => schema,
        }
    }

    #[test]
    fn uploads_and_callbacks_describe_their_bodies_and_json_text_refuses_nul() {
        let doc = serde_json::to_value(document(&crate::route_table())).unwrap_or_default();
        let body = |path: &str, content: &str| {
            deref(
                &doc,
                &doc["paths"][path]["post"]["requestBody"]["content"][content]["schema"],
            )
            .clone()
        };
        let document = body("/api/ai/invoice-extract", "multipart/form-data");
        assert_eq!(document["required"], serde_json::json!(["document"]));
        let file = &document["properties"]["document"];
        assert_eq!(
            file["contentMediaType"], "application/octet-stream",
            "{document}"
        );
        assert!(
            file["pattern"].is_null(),
            "a file may hold NUL bytes: {file}"
        );
        assert!(
            body("/api/catalog/upload", "multipart/form-data")["properties"]["file"].is_object()
        );
        assert_eq!(body("/api/contacts/import", "text/csv")["type"], "string");
        assert!(
            body("/api/email/inbound", "multipart/form-data")["properties"]["headers"].is_object()
        );
        assert_eq!(
            body("/api/webhooks/stripe", "application/json")["required"],
            serde_json::json!(["type"])
        );
        for (path, header) in [
            ("/api/webhooks/stripe", "Stripe-Signature"),
            ("/api/webhooks/voice", "X-Voice-Signature"),
        ] {
            let params = doc["paths"][path]["post"]["parameters"].to_string();
            assert!(
                params.contains(header) && params.contains(r#""in":"header""#),
                "{path}: {params}"
            );
        }
        // Text in JSON bodies, including nested components, refuses NUL as `reject_nul` does.
        let voice = body("/api/webhooks/voice", "application/json");
        assert_eq!(
            voice["properties"]["id"]["pattern"],
            crate::validate::NO_NUL,
            "{voice}"
        );
        let answer = &doc["components"]["schemas"]["ContactView"]["properties"]["firstName"];
        assert!(
            answer["pattern"].is_null(),
            "answers are left as they are: {answer}"
        );
    }

    #[test]
    fn every_route_is_in_the_document_with_its_path_parameters_and_bodies() {
        let table = crate::route_table();
        let doc = serde_json::to_value(document(&table)).unwrap_or_default();
        for route in &table {
            let op = &doc["paths"][route.path][route.method.as_str().to_lowercase()];
            assert!(op.is_object(), "{} {} missing", route.method, route.path);
            let params: Vec<&str> = path_params(route.path).collect();
            let in_path = op["parameters"]
                .as_array()
                .map_or(0, |ps| ps.iter().filter(|p| p["in"] == "path").count());
            assert_eq!(in_path, params.len(), "{}", route.path);
        }
        let login = &doc["paths"]["/api/admin/login"]["post"];
        assert!(login["security"].is_null(), "public routes need no session");
        let schema = deref(
            &doc,
            &login["requestBody"]["content"]["application/json"]["schema"],
        );
        assert!(
            schema.to_string().contains("password"),
            "typed bodies carry their schema: {schema}"
        );
        assert!(doc["paths"]["/api/contacts"]["get"]["security"].is_array());
        // Declared query parameters are documented with their types.
        let search = &doc["paths"]["/api/search"]["get"]["parameters"];
        let names: Vec<&str> = search
            .as_array()
            .map(|ps| ps.iter().filter_map(|p| p["name"].as_str()).collect())
            .unwrap_or_default();
        assert_eq!(names, ["q", "limit"], "{search}");
        assert!(
            search[1]["schema"]["type"].to_string().contains("integer"),
            "{search}"
        );
        let timeline = &doc["paths"]["/api/contacts/{id}/timeline"]["get"]["parameters"];
        assert!(timeline.to_string().contains("before"), "{timeline}");
        // The dense tables' sort, direction and picked ids, named as the query spells them.
        for path in [
            "/api/contacts",
            "/api/contacts/export",
            "/api/customers",
            "/api/companies",
            "/api/companies/export",
        ] {
            let params = &doc["paths"][path]["get"]["parameters"];
            let names: Vec<&str> = params
                .as_array()
                .map(|ps| ps.iter().filter_map(|p| p["name"].as_str()).collect())
                .unwrap_or_default();
            assert!(
                names.contains(&"sort") && names.contains(&"dir"),
                "{path}: {names:?}"
            );
            if path != "/api/customers" {
                assert!(names.contains(&"ids"), "{path}: {names:?}");
            }
        }
        let contacts = doc["paths"]["/api/contacts"]["get"]["parameters"].to_string();
        assert!(contacts.contains("companyId"), "{contacts}");
    }

    #[test]
    fn described_answers_carry_their_schemas_headers_and_errors() {
        let table = crate::route_table();
        let doc = serde_json::to_value(document(&table)).unwrap_or_default();
        let list = &doc["paths"]["/api/contacts"]["get"]["responses"];
        let page = &list["200"];
        assert_eq!(
            page["content"]["application/json"]["schema"]["type"], "array",
            "{page}"
        );
        let item = deref(
            &doc,
            &page["content"]["application/json"]["schema"]["items"],
        );
        assert_eq!(
            page["content"]["application/json"]["schema"]["items"]["$ref"],
            "#/components/schemas/ContactView",
            "an answer's type is a named schema"
        );
        let item = item.to_string();
        assert!(
            item.contains("companyName") && item.contains("demo"),
            "{item}"
        );
        assert!(page["headers"]["X-Total-Count"].is_object(), "{page}");
        // Errors are {message, errors?}, defined once.
        let error = &list["4XX"]["content"]["application/json"]["schema"]["$ref"];
        assert_eq!(error, "#/components/schemas/ErrorBody");
        let body = &doc["components"]["schemas"]["ErrorBody"];
        assert_eq!(body["required"], serde_json::json!(["message"]), "{body}");
        assert!(
            list["default"].is_null(),
            "a described route has no catch-all"
        );
        let created = &doc["paths"]["/api/companies"]["post"]["responses"]["201"];
        let created = deref(&doc, &created["content"]["application/json"]["schema"]);
        assert!(created.to_string().contains("contactCount"), "{created}");
        // A page's errors are HTML, or JSON when refused before the page (a NUL in the address).
        let page_errors = &doc["paths"]["/api/calendar/callback"]["get"]["responses"]["4XX"];
        assert!(
            page_errors["content"]["text/html"].is_object()
                && page_errors["content"]["application/json"].is_object(),
            "{page_errors}"
        );
        let deleted = &doc["paths"]["/api/companies/{id}"]["delete"]["responses"];
        assert!(
            deleted["204"].is_object() && deleted["204"]["content"].is_null(),
            "{deleted}"
        );
    }

    /// Every route says what it answers, so clients and Schemathesis can check it.
    #[test]
    fn every_route_declares_its_answer() {
        let missing: Vec<String> = crate::route_table()
            .iter()
            .filter(|r| r.returns.is_none())
            .map(|r| format!("{} {}", r.method, r.path))
            .collect();
        assert!(missing.is_empty(), "routes without an answer: {missing:#?}");
    }

    /// The web app's types are generated from `web/openapi.json`: it must be this document.
    #[test]
    fn the_web_app_types_come_from_this_document() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/openapi.json");
        let kept = std::fs::read_to_string(path).unwrap_or_default();
        let now = pretty_document().unwrap_or_default();
        assert!(
            kept.trim_end() == now.trim_end(),
            "web/openapi.json is not the document the api serves: run `make api-types` and commit \
             web/openapi.json and web/src/types/openapi.gen.ts"
        );
    }

    /// Schemas are shared by name in the document: two types of one name would describe one of
    /// them wrongly.
    #[test]
    fn no_two_schemas_share_a_name() {
        let mut seen: std::collections::HashMap<String, String> = Default::default();
        let mut clashes = std::collections::BTreeSet::new();
        for route in crate::route_table() {
            let bodies = [
                route.body,
                route.returns.and_then(|r| r.body),
                route.returns.and_then(|r| r.also).map(|(_, body)| body),
            ];
            for body in bodies.into_iter().flatten() {
                for (name, schema) in body().1 {
                    let json = serde_json::to_string(&schema).unwrap_or_default();
                    let first = seen.entry(name.clone()).or_insert_with(|| json.clone());
                    if *first != json {
                        clashes.insert(format!("{name} ({})", route.path));
                    }
                }
            }
        }
        assert!(clashes.is_empty(), "two schemas of one name: {clashes:#?}");
        assert!(seen.contains_key("TimelineItem"), "{:?}", seen.keys());
    }

    #[test]
    fn every_route_that_reads_a_json_body_documents_its_schema() {
        let table = crate::route_table();
        let reading: Vec<_> = table
            .iter()
            .filter(|r| r.extractors.contains("Json<") || r.extractors.contains("Body<"))
            .collect();
        assert!(
            reading.len() > 40,
            "the extractors are seen: {}",
            reading.len()
        );
        let missing: Vec<String> = reading
            .iter()
            .filter(|r| r.body.is_none())
            .map(|r| format!("{} {} ({})", r.method, r.path, r.extractors))
            .collect();
        assert!(
            missing.is_empty(),
            "JSON bodies without a schema: {missing:#?}"
        );
        let doc = serde_json::to_value(document(&table)).unwrap_or_default();
        let scan = &doc["paths"]["/api/discovery/scan"]["post"]["requestBody"];
        assert_eq!(
            scan["required"], true,
            "a declared body is required: {scan}"
        );
        let fields = &deref(&doc, &scan["content"]["application/json"]["schema"])["properties"];
        assert!(
            fields["cityState"].is_object() && fields["discoverySource"].is_object(),
            "{scan}"
        );
    }
}
