//! [`ToolDefinition`]: a function the model may call, as the chat format
//! counts it.

/// One parameter of a [`ToolDefinition`] (a property of its JSON schema).
///
/// ```
/// use budget::prompt::ToolParameter;
/// let unit = ToolParameter::new("unit", "string", "The unit of temperature to return")
///     .with_enum(["celsius", "fahrenheit"]);
/// assert_eq!(unit.enum_values.len(), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct ToolParameter {
    /// The property name.
    pub name: String,
    /// Its JSON-schema type (`string`, `integer`, `object`, …).
    pub kind: String,
    /// Its description.
    pub description: String,
    /// The allowed values, when the schema has an `enum`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub enum_values: Vec<String>,
    /// Whether the schema lists it as required.
    #[cfg_attr(feature = "serde", serde(default))]
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
    /// use budget::prompt::ToolParameter;
    /// assert!(ToolParameter::new("path", "string", "File to read").required().required);
    /// ```
    #[must_use]
    pub fn required(mut self) -> Self {
        self.required = true;
        self
    }
}

/// A tool (function) the model may call: what the request's `tools` list
/// holds. The chat format counts its name, description and top-level
/// parameters as the OpenAI cookbook does; nested object schemas are counted
/// by their top-level property only.
///
/// ```
/// use budget::prompt::{ToolDefinition, ToolParameter};
///
/// let weather = ToolDefinition::new("get_current_weather", "Get the current weather in a given location")
///     .parameter(ToolParameter::new("location", "string", "The city and state, e.g. San Francisco, CA").required());
/// assert_eq!(weather.parameters[0].name, "location");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct ToolDefinition {
    /// The function name.
    pub name: String,
    /// What it does.
    pub description: String,
    /// Its parameters, in schema order.
    #[cfg_attr(feature = "serde", serde(default))]
    pub parameters: Vec<ToolParameter>,
}

impl ToolDefinition {
    /// A tool without parameters.
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            parameters: Vec::new(),
        }
    }

    /// This tool with one more parameter.
    #[must_use]
    pub fn parameter(mut self, parameter: ToolParameter) -> Self {
        self.parameters.push(parameter);
        self
    }
}
