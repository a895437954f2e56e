//! Request bodies and their checks, shared by every handler.
//!
//! Each route that takes a JSON body has one typed body struct (`#[derive(Deserialize,
//! utoipa::ToSchema)]`, declared with `Routes::body`, so the OpenAPI document carries its schema).
//! Bodies checked field by field (deals, meetings, invoices, sequences) keep the seed's behaviour:
//! - [`Body`] reads the request as a JSON object first, exactly as before (same rejections for a body
//!   that is not an object; a repeated key keeps its last value), then into the struct;
//! - their fields are [`Field`]s, whose deserialization never fails: a field records whether it was
//!   absent (`#[serde(default)]`), `null`, a value of its type, or of another type. So an absent field
//!   is told from a null one, and a value of the wrong type gets the seed's message for that field
//!   (through [`Fields`]) instead of serde's generic rejection of the whole body;
//! - [`Text`] and [`Number`] accept what the seed's forms send (numbers as text, amounts as digits).
//!
//! [`Fields`] collects one error per field; the first one recorded becomes the 422's `message`.

use std::collections::BTreeMap;

use axum::extract::{FromRequest, Request};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, Type};

use crate::error::{ApiError, ApiResult};
use crate::extract::Json;

pub(crate) use jobs::domain::{one_of_or_null_schema as one_of_or_null, one_of_schema as one_of};

/// [`one_of`] or `""`: a query parameter that a blank value leaves unset (`jobs::domain::non_empty`).
pub(crate) fn one_of_or_empty(values: &[&str]) -> ObjectBuilder {
    let mut all: Vec<&str> = vec![""];
    all.extend_from_slice(values);
    one_of(&all)
}

/// A comma-separated list of `values` (or blank), as list filters take several at once.
pub(crate) fn comma_list_of(values: &[&str]) -> ObjectBuilder {
    let one = values
        .iter()
        .map(|v| regex::escape(v))
        .collect::<Vec<_>>()
        .join("|");
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(format!("^(({one})(,({one}))*)?$")))
}

/// An integer schema within `min`..=`max`.
pub(crate) fn integer(min: Option<i64>, max: Option<i64>) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(utoipa::openapi::schema::SchemaFormat::KnownFormat(
            utoipa::openapi::schema::KnownFormat::Int64,
        )))
        .minimum(min.map(|m| m as f64))
        .maximum(max.map(|m| m as f64))
}

/// A query parameter written by hand (an `IntoParams` whose derive cannot say it all).
pub(crate) fn query_param(
    parameter_in: Option<utoipa::openapi::path::ParameterIn>,
    name: &str,
    required: bool,
    description: &str,
    schema: impl Into<RefOr<Schema>>,
) -> utoipa::openapi::path::Parameter {
    use utoipa::openapi::Required;
    utoipa::openapi::path::ParameterBuilder::new()
        .name(name)
        .parameter_in(parameter_in.unwrap_or_default())
        .required(if required {
            Required::True
        } else {
            Required::False
        })
        .description((!description.is_empty()).then(|| description.to_string()))
        .schema(Some(schema))
        .build()
}

/// The pattern of free text in an address: no NUL (`crate::extract::reject_nul` refuses one).
pub(crate) const NO_NUL: &str = r"^[^\x00]*$";

/// A character that is neither NUL nor one `str::trim` removes (Unicode `White_Space`), spelled out
/// because `\s` differs between regex dialects (ECMA's leaves out U+0085, Python's adds U+001C–F).
pub(crate) const NOT_SPACE: &str =
    r"[^\x00\t\n\x0B\f\r \x85\xA0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]";

/// Text that is not blank once trimmed (and holds no NUL).
pub(crate) fn not_blank() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(format!("^[^\\x00]*{NOT_SPACE}[^\\x00]*$")))
}

/// Text of `min`–`max` characters once trimmed (`min` at least 2), and no NUL: spaces or tabs
/// around them (a subset of what `str::trim` removes).
pub(crate) fn trimmed_length(min: usize, max: usize) -> ObjectBuilder {
    let (inner_min, inner_max) = (min - 2, max - 2);
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(format!(
            "^[ \\t]*{NOT_SPACE}[^\\n\\x00]{{{inner_min},{inner_max}}}{NOT_SPACE}[ \\t]*$"
        )))
}

/// Query parameters as `crate::extract::reject_nul` lets them through: a text parameter that is
/// neither one of a list nor of a format or pattern of its own gets [`NO_NUL`].
pub(crate) fn without_nul(
    mut params: Vec<utoipa::openapi::path::Parameter>,
) -> Vec<utoipa::openapi::path::Parameter> {
    use utoipa::openapi::schema::SchemaType;
    for p in &mut params {
        if let Some(RefOr::T(Schema::Object(o))) = &mut p.schema {
            let text = match &o.schema_type {
                SchemaType::Type(t) => *t == Type::String,
                SchemaType::Array(ts) => ts.contains(&Type::String),
                SchemaType::AnyValue => false,
            };
            if text && o.enum_values.is_none() && o.pattern.is_none() && o.format.is_none() {
                o.pattern = Some(NO_NUL.to_string());
            }
        }
    }
    params
}

/// A JSON object body read into `T` (see the module's notes).
pub(crate) struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let Json(map) = Json::<Map<String, Value>>::from_request(req, state).await?;
        // Only a body field that is not a `Field` can fail here; it is the same 422 axum gives.
        serde_json::from_value(Value::Object(map))
            .map(Body)
            .map_err(|e| {
                ApiError::unprocessable(format!(
                    "Failed to deserialize the JSON body into the target type: {e}"
                ))
            })
    }
}

/// One field of a body; see the module's notes.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) enum Field<T> {
    #[default]
    Absent,
    Null,
    Value(T),
    /// Present, but neither `null` nor a `T`.
    Wrong,
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Field<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match Value::deserialize(d)? {
            Value::Null => Self::Null,
            v => serde_json::from_value(v).map_or(Self::Wrong, Self::Value),
        })
    }
}

impl<T> Field<T> {
    pub(crate) fn is_present(&self) -> bool {
        !matches!(self, Self::Absent)
    }
}

/// A nested object of a body read into `T`: only a JSON object is one (a list is not read
/// positionally, as serde would a struct).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Object<T>(pub T);

impl<'de, T: DeserializeOwned> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = Map::<String, Value>::deserialize(d)?;
        serde_json::from_value(Value::Object(map))
            .map(Object)
            .map_err(serde::de::Error::custom)
    }
}

/// Text as forms send it: a string, or a number taken as its text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Text(pub String);

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::String(s) => Ok(Self(s)),
            Value::Number(n) => Ok(Self(n.to_string())),
            other => Err(serde::de::Error::custom(format!(
                "expected text, found {other}"
            ))),
        }
    }
}

/// A number as forms send it: a JSON number, or text (digits) the handler parses.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub(crate) enum Number {
    Number(serde_json::Number),
    Text(String),
}

impl Number {
    /// The number's text: a JSON number as serde_json writes it, text as sent.
    pub(crate) fn text(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Self::Number(n) => n.to_string().into(),
            Self::Text(s) => s.as_str().into(),
        }
    }
}

impl utoipa::PartialSchema for Number {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::Number))
            .item(ObjectBuilder::new().schema_type(Type::String))
            .description(Some("A number, or its digits as text"))
            .into()
    }
}

impl utoipa::ToSchema for Number {
    fn name() -> std::borrow::Cow<'static, str> {
        "NumberOrText".into()
    }
}

/// Field errors collected while checking a body.
#[derive(Default)]
pub(crate) struct Fields {
    errors: BTreeMap<String, String>,
    first: Option<String>,
}

impl Fields {
    pub(crate) fn error(&mut self, field: &str, message: impl Into<String>) {
        let message = message.into();
        if self.first.is_none() {
            self.first = Some(message.clone());
        }
        self.errors.entry(field.to_string()).or_insert(message);
    }

    /// Absent → `None`; `null` or blank → `Some(None)`; text → `Some(Some(trimmed))`; a number is
    /// its text; anything else is a field error.
    pub(crate) fn text(&mut self, key: &str, field: &Field<Text>) -> Option<Option<String>> {
        match field {
            Field::Absent => None,
            Field::Null => Some(None),
            Field::Value(Text(s)) => {
                let t = s.trim();
                Some((!t.is_empty()).then(|| t.to_string()))
            }
            Field::Wrong => {
                self.error(key, format!("{key} must be text"));
                Some(None)
            }
        }
    }

    /// 422 with every field error, if there are any.
    pub(crate) fn finish(self) -> ApiResult<()> {
        match self.first {
            Some(message) => Err(ApiError::fields(message, self.errors)),
            None => Ok(()),
        }
    }
}

/// A 422 about one field: the message, repeated under `errors`.
pub(crate) fn field_error(field: &str, message: impl Into<String>) -> ApiError {
    let message = message.into();
    ApiError::fields(
        message.clone(),
        BTreeMap::from([(field.to_string(), message)]),
    )
}

/// `Some(value)` for a field that is present (even `null`), so `None` means "absent".
pub(crate) fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// An optional text field of a body: absent keeps `current`, null or blank clears it.
pub(crate) fn merge_text(
    field: &Option<Option<String>>,
    current: Option<String>,
) -> Option<String> {
    match field {
        None => current,
        Some(v) => jobs::domain::non_empty(v.as_deref()),
    }
}

/// 422 when a referenced company or contact does not exist.
pub(crate) async fn check_refs(
    tx: &mut jobs::db::Tx,
    company_id: Option<&str>,
    contact_id: Option<&str>,
) -> ApiResult<()> {
    let mut errors = BTreeMap::new();
    let mut message = None;
    if let Some(id) = company_id
        && tx.prospect_company_get(id).await?.is_none()
    {
        message.get_or_insert("Company not found");
        errors.insert("companyId".to_string(), "Company not found".to_string());
    }
    if let Some(id) = contact_id
        && tx.prospect_contact_get(id).await?.is_none()
    {
        message.get_or_insert("Contact not found");
        errors.insert("contactId".to_string(), "Contact not found".to_string());
    }
    match message {
        Some(m) => Err(ApiError::fields(m, errors)),
        None => Ok(()),
    }
}

/// A character `str::trim` removes (Unicode `White_Space`): what [`NOT_SPACE`] leaves out but NUL.
pub(crate) const SPACE: &str =
    r"[\t\n\x0B\f\r \x85\xA0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]";

/// The pattern of text of `min`..=`max` characters once trimmed (`min` at least 1, `max` at least
/// 2 or none), without NUL: exactly what a handler that trims and counts characters takes.
fn trimmed_pattern(min: usize, max: Option<usize>) -> String {
    // The first and the last character that are not space, and any between them.
    let between = |low: usize| match max {
        Some(max) => format!("[^\\x00]{{{low},{}}}", max - 2),
        None => format!("[^\\x00]{{{low},}}"),
    };
    let text = if min <= 1 {
        format!("{NOT_SPACE}({}{NOT_SPACE})?", between(0))
    } else {
        format!("{NOT_SPACE}{}{NOT_SPACE}", between(min - 2))
    };
    format!("^{SPACE}*{text}{SPACE}*$")
}

/// Text of `min`..=`max` characters once trimmed ([`trimmed_pattern`]).
pub(crate) fn trimmed_text(min: usize, max: Option<usize>) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(trimmed_pattern(min, max)))
}

/// [`trimmed_text`], or `null`.
pub(crate) fn trimmed_text_or_null(min: usize, max: Option<usize>) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            Type::String,
            Type::Null,
        ]))
        .pattern(Some(trimmed_pattern(min, max)))
}

/// `base` (an object's schema) described as `description`, with `fields` required, each described
/// as given: the body of a create, which requires what the body of an update (`base`) may leave out.
pub(crate) fn requiring(
    base: RefOr<Schema>,
    description: &str,
    fields: Vec<(&str, RefOr<Schema>)>,
) -> RefOr<Schema> {
    match base {
        RefOr::T(Schema::Object(mut o)) => {
            o.description = Some(description.to_string());
            for (name, schema) in fields {
                o.properties.insert(name.to_string(), schema);
                if !o.required.iter().any(|r| r == name) {
                    o.required.push(name.to_string());
                }
            }
            RefOr::T(Schema::Object(o))
        }
        other => other,
    }
}

/// A nested object read as [`Object`] (a list is refused, not read positionally as serde reads a
/// struct): `#[serde(default, deserialize_with = "crate::validate::object")]`.
pub(crate) fn object<'de, D: Deserializer<'de>, T: DeserializeOwned>(d: D) -> Result<T, D::Error> {
    Object::<T>::deserialize(d).map(|Object(t)| t)
}

/// [`object`], or `null` (`None`).
pub(crate) fn object_or_null<'de, D: Deserializer<'de>, T: DeserializeOwned>(
    d: D,
) -> Result<Option<T>, D::Error> {
    Option::<Object<T>>::deserialize(d).map(|o| o.map(|Object(t)| t))
}

/// A body read exactly as `$base` but documented as `$edit` makes `$base`'s schema, under a name of
/// its own: a create that requires what an update of the same body leaves out, or a rule across
/// fields that no field's schema can say.
macro_rules! body_variant {
    ($(#[$doc:meta])* $name:ident($base:ty), $edit:expr) => {
        $(#[$doc])*
        #[derive(serde::Deserialize)]
        #[serde(transparent)]
        struct $name($base);

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                let edit: fn(
                    utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
                ) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> = $edit;
                edit(<$base as utoipa::PartialSchema>::schema())
            }
        }

        impl utoipa::ToSchema for $name {
            fn name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn schemas(
                schemas: &mut Vec<(
                    String,
                    utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
                )>,
            ) {
                <$base as utoipa::ToSchema>::schemas(schemas);
            }
        }
    };
}
pub(crate) use body_variant;

/// Text that is blank once trimmed: what leaves a field unset, or at its default.
pub(crate) fn blank() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(format!("^{SPACE}*$")))
}

/// `schema` or `null`: `null` joins its types and, if it lists values, its values.
pub(crate) fn or_null(schema: ObjectBuilder) -> utoipa::openapi::schema::Object {
    use utoipa::openapi::schema::SchemaType;
    let mut o = schema.build();
    o.schema_type = match o.schema_type {
        SchemaType::Type(t) => SchemaType::from_iter([t, Type::Null]),
        SchemaType::Array(mut ts) => {
            ts.push(Type::Null);
            SchemaType::Array(ts)
        }
        SchemaType::AnyValue => SchemaType::AnyValue,
    };
    if let Some(values) = &mut o.enum_values {
        values.push(Value::Null);
    }
    o
}

/// [`Text`] as `Fields::text` reads it: a string or a number (its text), or `null`.
pub(crate) fn text_or_null() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(utoipa::openapi::schema::SchemaType::from_iter([
        Type::String,
        Type::Number,
        Type::Null,
    ]))
}

/// [`Text`] that is not blank once trimmed (a number's text never is).
pub(crate) fn not_blank_text() -> ObjectBuilder {
    let mut o = not_blank().build();
    o.schema_type = utoipa::openapi::schema::SchemaType::from_iter([Type::String, Type::Number]);
    o.into()
}

/// A character of an email address in [`email`]'s ASCII: printable, neither space nor `@`.
const EMAIL_CHAR: &str = r"[\x21-\x3F\x41-\x7E]";
/// [`EMAIL_CHAR`] but `.`: a character of a label of the domain.
const DOMAIN_CHAR: &str = r"[\x21-\x2D\x2F-\x3F\x41-\x7E]";

/// An email address as `jobs::domain::contacts::is_valid_email` takes it (one `@`, a local part, a
/// dotted domain, no spaces, at most 254 bytes), in ASCII: the part of what it takes whose length
/// in characters is its length in bytes.
pub(crate) fn email() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(format!(
            "^{EMAIL_CHAR}+@{DOMAIN_CHAR}+(\\.{DOMAIN_CHAR}+)+$"
        )))
        .max_length(Some(254))
}

/// Any JSON value: a field the handler reads whatever it holds (its description says how). Text
/// holds no NUL (`crate::extract::reject_nul`; a pattern applies to strings only).
pub(crate) fn any_value() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::AnyValue)
        .pattern(Some(NO_NUL))
}

/// `base` (an object's schema) with `fields` described as given, still optional: a create that
/// takes for a field what an update (`base`) refuses, such as a blank that picks the default.
pub(crate) fn describing(base: RefOr<Schema>, fields: Vec<(&str, RefOr<Schema>)>) -> RefOr<Schema> {
    match base {
        RefOr::T(Schema::Object(mut o)) => {
            for (name, schema) in fields {
                o.properties.insert(name.to_string(), schema);
            }
            RefOr::T(Schema::Object(o))
        }
        other => other,
    }
}

/// A shape of [`one_shape_of`]: `fields` present and as described.
pub(crate) fn shape(fields: Vec<(&str, RefOr<Schema>)>) -> ObjectBuilder {
    fields
        .into_iter()
        .fold(ObjectBuilder::new(), |o, (name, schema)| {
            o.property(name, schema).required(name)
        })
}

/// `base` (a body's schema) that also has one of `shapes`, each fields present and as described: a
/// body that must name its target one way or another ([`one_of_shapes`]).
pub(crate) fn one_shape_of(
    base: RefOr<Schema>,
    shapes: Vec<Vec<(&str, RefOr<Schema>)>>,
) -> RefOr<Schema> {
    one_of_shapes(base, shapes.into_iter().map(shape).collect())
}

/// `base` (a body's schema) that also has one of `shapes` (`anyOf`). An object stays one, its
/// properties where clients read them: utoipa's object has no `allOf`, so the rule goes in as that
/// keyword by its extensions (written in place); another schema (a flattened body's `allOf`) gets
/// the rule as one more part.
pub(crate) fn one_of_shapes(base: RefOr<Schema>, shapes: Vec<ObjectBuilder>) -> RefOr<Schema> {
    use utoipa::openapi::schema::{AllOf, AnyOf};
    let mut any = AnyOf::new();
    any.items = shapes.into_iter().map(Into::into).collect();
    match base {
        RefOr::T(Schema::Object(mut o)) => {
            let rule = serde_json::to_value(Schema::AnyOf(any)).unwrap_or_default();
            let extensions = o.extensions.get_or_insert_with(Default::default);
            match extensions.get_mut("allOf") {
                Some(Value::Array(rules)) => rules.push(rule),
                _ => {
                    extensions.insert("allOf".to_string(), Value::Array(vec![rule]));
                }
            }
            RefOr::T(Schema::Object(o))
        }
        RefOr::T(Schema::AllOf(mut all)) => {
            all.items.push(Schema::AnyOf(any).into());
            RefOr::T(Schema::AllOf(all))
        }
        other => {
            let mut all = AllOf::new();
            all.items.push(other);
            all.items.push(Schema::AnyOf(any).into());
            RefOr::T(Schema::AllOf(all))
        }
    }
}

/// `schema` (a string's) as a [`Text`] takes it: a number, read as its text, also passes. Only for
/// rules that every number's text meets (not blank, a pattern of it, a length past 25 or so).
pub(crate) fn text_like(schema: ObjectBuilder) -> ObjectBuilder {
    let mut o = schema.build();
    o.schema_type = utoipa::openapi::schema::SchemaType::from_iter([Type::String, Type::Number]);
    o.into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, Deserialize)]
    struct Sample {
        #[serde(default)]
        a: Field<Text>,
        #[serde(default)]
        b: Field<Number>,
        #[serde(default)]
        c: Field<bool>,
    }

    fn sample(v: Value) -> Sample {
        serde_json::from_value(v).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn fields_tell_absent_null_value_and_wrong_apart() {
        let s = sample(json!({ "a": 12, "b": "15", "c": null }));
        assert_eq!(s.a, Field::Value(Text("12".into())));
        assert_eq!(s.b, Field::Value(Number::Text("15".into())));
        assert_eq!(s.c, Field::Null);
        let s = sample(json!({ "a": [1], "b": {}, "c": "yes" }));
        assert_eq!((s.a, s.b, s.c), (Field::Wrong, Field::Wrong, Field::Wrong));
        let s = sample(json!({}));
        assert!(!s.a.is_present() && !s.b.is_present() && !s.c.is_present());
        match sample(json!({ "b": 1.5 })).b {
            Field::Value(n) => assert_eq!(n.text(), "1.5"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn text_checks_collect_the_first_message() {
        let mut f = Fields::default();
        assert_eq!(f.text("a", &Field::Absent), None);
        assert_eq!(f.text("a", &Field::Null), Some(None));
        assert_eq!(f.text("a", &Field::Value(Text("  ".into()))), Some(None));
        assert_eq!(
            f.text("a", &Field::Value(Text(" x ".into()))),
            Some(Some("x".into()))
        );
        assert_eq!(f.text("title", &Field::Wrong), Some(None));
        f.error("b", "second");
        match f.finish() {
            Err(ApiError::Invalid { message, errors }) => {
                assert_eq!(message, "title must be text");
                assert_eq!(errors.len(), 2);
            }
            other => panic!("{other:?}"),
        }
    }
}
