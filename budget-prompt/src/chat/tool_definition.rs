//! [`ToolDefinition`]: a function the model may call, with the full JSON
//! schema of its parameters.

use std::borrow::Cow;

use serde_json::{Map, Value};

/// One parameter, for writing a [`ToolDefinition`]'s schema in code: a
/// property of the parameters' object schema and whether it is required.
/// [`ToolDefinition::parameter`] adds it to the schema; a schema with nested
/// objects, arrays or `$defs` is given whole with
/// [`ToolDefinition::with_parameters`].
///
/// ```
/// use budget::chat::ToolParameter;
/// let unit = ToolParameter::new("unit", "string", "The unit of temperature to return")
///     .with_enum(["celsius", "fahrenheit"]);
/// assert_eq!(unit.enum_values.len(), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ToolParameter {
    /// The property name.
    pub name: String,
    /// Its JSON-schema type (`string`, `integer`, `object`, …).
    pub kind: String,
    /// Its description.
    pub description: String,
    /// The allowed values, when the schema has an `enum`.
    pub enum_values: Vec<String>,
    /// Whether the schema lists it as required.
    pub required: bool,
}

impl ToolParameter {
    /// An optional parameter without an enum.
    pub fn new(
        name: impl Into<String>,
        kind: impl Into<String>,
        description: impl Into<String>,
    ) -> Self {
        Self {
            name: name.into(),
            kind: kind.into(),
            description: description.into(),
            enum_values: Vec::new(),
            required: false,
        }
    }

    /// This parameter restricted to `values`.
    #[must_use]
    pub fn with_enum<I, S>(mut self, values: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.enum_values = values.into_iter().map(Into::into).collect();
        self
    }

    /// This parameter marked required.
    ///
    /// ```
    /// use budget::chat::ToolParameter;
    /// assert!(ToolParameter::new("path", "string", "File to read").required().required);
    /// ```
    #[must_use]
    pub fn required(mut self) -> Self {
        self.required = true;
        self
    }

    /// The property's own schema: `type`, `description` (when not empty)
    /// and `enum` (when restricted).
    fn schema(&self) -> Value {
        let mut schema = Map::new();
        schema.insert("type".into(), Value::String(self.kind.clone()));
        if !self.description.is_empty() {
            schema.insert(
                "description".into(),
                Value::String(self.description.clone()),
            );
        }
        if !self.enum_values.is_empty() {
            let values = self.enum_values.iter().cloned().map(Value::String);
            schema.insert("enum".into(), Value::Array(values.collect()));
        }
        Value::Object(schema)
    }
}

/// A tool (function) the model may call: what a request's `tools` list
/// holds, with the JSON schema of its parameters kept whole, so a request
/// built from it sends the schema it was given (nested objects, array
/// `items`, `enum`s, `$defs`).
///
/// [`ChatFormat`](crate::chat::ChatFormat) counts its name, description and
/// the top-level properties of the schema, as the OpenAI cookbook does.
/// With the `serde` feature it reads and writes OpenAI's wire format,
/// `{"type": "function", "function": {"name", "description", "parameters",
/// "strict"}}`.
///
/// ```
/// use budget::chat::{ToolDefinition, ToolParameter};
///
/// let weather = ToolDefinition::new("get_current_weather", "Get the current weather in a given location")
///     .parameter(ToolParameter::new("location", "string", "The city and state, e.g. San Francisco, CA").required())?;
/// assert_eq!(weather.parameters["properties"]["location"]["type"], "string");
/// assert_eq!(weather.parameters["required"][0], "location");
/// # Ok::<(), budget::chat::DuplicateParameter>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ToolDefinition {
    /// The function name.
    pub name: String,
    /// What it does.
    pub description: String,
    /// The JSON schema of its parameters, as a request sends it;
    /// [`Value::Null`] for a tool that takes none.
    pub parameters: Value,
    /// OpenAI's `strict` flag (schema adherence), when the request sets it.
    pub strict: Option<bool>,
}

impl ToolDefinition {
    /// A tool without parameters.
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            parameters: Value::Null,
            strict: None,
        }
    }

    /// This tool with `schema` as the JSON schema of its parameters,
    /// replacing any schema it had.
    ///
    /// ```
    /// use budget::chat::ToolDefinition;
    /// use serde_json::json;
    ///
    /// let edit = ToolDefinition::new("edit", "Apply edits.").with_parameters(json!({
    ///     "type": "object",
    ///     "properties": {"edits": {"type": "array", "items": {"type": "object",
    ///         "properties": {"line": {"type": "integer"}, "text": {"type": "string"}}}}},
    ///     "required": ["edits"],
    /// }));
    /// assert_eq!(edit.parameters["properties"]["edits"]["items"]["properties"]["line"]["type"], "integer");
    /// ```
    #[must_use]
    pub fn with_parameters(mut self, schema: Value) -> Self {
        self.parameters = schema;
        self
    }

    /// This tool with one more top-level parameter: `parameter` becomes a
    /// property of the object schema (created when the tool had none) and,
    /// when required, is listed in `required`.
    ///
    /// # Errors
    /// [`DuplicateParameter`] when the schema has a property of that name
    /// already: a JSON schema cannot hold both, and replacing one would send
    /// a tool other than the one written.
    ///
    /// ```
    /// use budget::chat::{DuplicateParameter, ToolDefinition, ToolParameter};
    ///
    /// let read = ToolDefinition::new("read", "Read a file.")
    ///     .parameter(ToolParameter::new("path", "string", "The path").required())?;
    /// let again = read.parameter(ToolParameter::new("path", "integer", "A line"));
    /// assert_eq!(
    ///     again.unwrap_err(),
    ///     DuplicateParameter { tool: "read".into(), parameter: "path".into() }
    /// );
    /// # Ok::<(), DuplicateParameter>(())
    /// ```
    pub fn parameter(mut self, parameter: ToolParameter) -> Result<Self, DuplicateParameter> {
        if self
            .parameters
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|properties| properties.contains_key(&parameter.name))
        {
            return Err(DuplicateParameter {
                tool: self.name,
                parameter: parameter.name,
            });
        }
        if !self.parameters.is_object() {
            self.parameters =
                serde_json::json!({"type": "object", "properties": {}, "required": []});
        }
        if let Value::Object(schema) = &mut self.parameters {
            let properties = schema
                .entry("properties")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(properties) = properties {
                properties.insert(parameter.name.clone(), parameter.schema());
            }
            if parameter.required {
                let required = schema
                    .entry("required")
                    .or_insert_with(|| Value::Array(Vec::new()));
                if let Value::Array(required) = required {
                    required.push(Value::String(parameter.name));
                }
            }
        }
        Ok(self)
    }

    /// The top-level properties of the parameters' schema (in the order of
    /// `serde_json`'s map: by name),
    /// as the chat format counts them.
    pub(crate) fn properties(&self) -> impl Iterator<Item = Property<'_>> {
        self.parameters
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(name, schema)| Property {
                name,
                kind: text(schema.get("type")),
                description: text(schema.get("description")),
                enum_values: schema
                    .get("enum")
                    .and_then(Value::as_array)
                    .map(|values| values.iter().map(|v| text(Some(v))).collect())
                    .unwrap_or_default(),
            })
    }
}

/// [`ToolDefinition::parameter`] was given a name the schema already has.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("tool `{tool}` already has a parameter `{parameter}`: a JSON schema cannot hold two")]
pub struct DuplicateParameter {
    /// The tool's name.
    pub tool: String,
    /// The parameter's name.
    pub parameter: String,
}

/// One top-level property of a tool's parameters, as text.
pub(crate) struct Property<'a> {
    /// The property name.
    pub(crate) name: &'a str,
    /// Its `type` (a string as written, anything else as compact JSON).
    pub(crate) kind: Cow<'a, str>,
    /// Its `description`, empty when it has none.
    pub(crate) description: Cow<'a, str>,
    /// Its `enum` values, each as text.
    pub(crate) enum_values: Vec<Cow<'a, str>>,
}

/// A JSON value as text: a string as written, nothing as empty, anything
/// else as compact JSON.
fn text(value: Option<&Value>) -> Cow<'_, str> {
    match value {
        None | Some(Value::Null) => Cow::Borrowed(""),
        Some(Value::String(s)) => Cow::Borrowed(s),
        Some(other) => Cow::Owned(other.to_string()),
    }
}

#[cfg(feature = "serde")]
mod wire {
    //! OpenAI's wire format of a tool definition.

    use serde::{Deserialize, Serialize};
    use serde_json::Value;

    use super::ToolDefinition;
    use crate::chat::wire::FunctionType;

    /// `{"type": "function", "function": {…}}`.
    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(super) struct WireTool {
        #[serde(rename = "type")]
        kind: FunctionType,
        function: WireFunction,
    }

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct WireFunction {
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        description: Option<String>,
        #[serde(default, skip_serializing_if = "Value::is_null")]
        parameters: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        strict: Option<bool>,
    }

    impl From<WireTool> for ToolDefinition {
        fn from(tool: WireTool) -> Self {
            let f = tool.function;
            Self {
                name: f.name,
                description: f.description.unwrap_or_default(),
                parameters: f.parameters,
                strict: f.strict,
            }
        }
    }

    impl From<ToolDefinition> for WireTool {
        fn from(tool: ToolDefinition) -> Self {
            Self {
                kind: FunctionType::Function,
                function: WireFunction {
                    name: tool.name,
                    description: (!tool.description.is_empty()).then_some(tool.description),
                    parameters: tool.parameters,
                    strict: tool.strict,
                },
            }
        }
    }

    impl Serialize for ToolDefinition {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            WireTool::from(self.clone()).serialize(serializer)
        }
    }

    impl<'de> Deserialize<'de> for ToolDefinition {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            WireTool::deserialize(deserializer).map(Self::from)
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn parameters_build_an_object_schema_with_required_names() {
        let tool = ToolDefinition::new("read", "Read a file.")
            .parameter(ToolParameter::new("path", "string", "The path").required())
            .and_then(|t| {
                t.parameter(ToolParameter::new("mode", "string", "").with_enum(["text", "bytes"]))
            })
            .unwrap();
        // A second parameter of one name is refused, and so is one a whole
        // schema already has.
        let error = tool
            .clone()
            .parameter(ToolParameter::new("path", "integer", "A line"))
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "tool `read` already has a parameter `path`: a JSON schema cannot hold two"
        );
        let whole = ToolDefinition::new("w", "")
            .with_parameters(json!({"type": "object", "properties": {"q": {"type": "string"}}}));
        assert!(
            whole
                .parameter(ToolParameter::new("q", "string", ""))
                .is_err()
        );
        assert_eq!(
            tool.parameters,
            json!({
                "type": "object",
                "properties": {
                    "path": {"type": "string", "description": "The path"},
                    "mode": {"type": "string", "enum": ["text", "bytes"]},
                },
                "required": ["path"],
            })
        );
    }

    #[test]
    fn properties_read_types_descriptions_and_enums_as_text() {
        let tool = ToolDefinition::new("t", "").with_parameters(json!({
            "type": "object",
            "properties": {
                "n": {"type": ["integer", "null"], "enum": [1, 2]},
                "s": {"type": "string", "description": "text"},
            },
        }));
        let seen: Vec<(String, String, String, Vec<String>)> = tool
            .properties()
            .map(|p| {
                let values = p.enum_values.iter().map(|v| v.to_string()).collect();
                (
                    p.name.to_owned(),
                    p.kind.into_owned(),
                    p.description.into_owned(),
                    values,
                )
            })
            .collect();
        assert_eq!(
            seen,
            [
                (
                    "n".into(),
                    r#"["integer","null"]"#.into(),
                    String::new(),
                    vec!["1".into(), "2".into()]
                ),
                ("s".into(), "string".into(), "text".into(), vec![]),
            ]
        );
        assert_eq!(ToolDefinition::new("t", "").properties().count(), 0);
    }
}
