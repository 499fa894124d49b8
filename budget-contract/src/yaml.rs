//! A YAML document as a tree whose every node and key remembers its file,
//! line and column, with the deep merge that `extends` uses.

use std::fmt;
use std::path::Path;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;

use crate::{ContractError, SourceLocation};

/// One YAML value with where it was written.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Node {
    pub(crate) value: Value,
    pub(crate) location: SourceLocation,
}

/// A mapping key with where it was written.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Key {
    pub(crate) name: String,
    pub(crate) location: SourceLocation,
}

/// The value of a [`Node`]. Mappings keep their order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    /// Digits with a leading zero (`013560`): YAML 1.1 (PyYAML, which the
    /// LocalAI-RAG runtime uses) reads them as octal, YAML 1.2 as decimal,
    /// so no reading is safe.
    LeadingZero(String),
    Str(String),
    Seq(Vec<Node>),
    Map(Vec<(Key, Node)>),
}

impl Value {
    /// What kind of value this is, for error messages.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a float",
            Value::LeadingZero(_) => {
                "a number with a leading zero, which YAML 1.1 (PyYAML) reads as octal and YAML 1.2 as decimal: write it without the zero"
            }
            Value::Str(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }
}

impl Node {
    /// Parses `text` as read from `path`; an empty document is `Null`.
    pub(crate) fn parse(text: &str, path: &Path) -> Result<Node, ContractError> {
        let raw: Option<Spanned<RawValue>> =
            serde_saphyr::from_str(text).map_err(|e| yaml_error(&e, path))?;
        Ok(match raw {
            Some(raw) => located(raw, path, text),
            None => Node {
                value: Value::Null,
                location: SourceLocation::file(path),
            },
        })
    }

    /// The entries of a mapping, `None` for any other value.
    pub(crate) fn as_map(&self) -> Option<&[(Key, Node)]> {
        match &self.value {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// The entry `name` of a mapping, with its key.
    pub(crate) fn entry(&self, name: &str) -> Option<(&Key, &Node)> {
        self.as_map()?
            .iter()
            .find(|(key, _)| key.name == name)
            .map(|(key, node)| (key, node))
    }

    /// The value of entry `name`, treating an explicit `null` as absent.
    pub(crate) fn get(&self, name: &str) -> Option<&Node> {
        self.entry(name)
            .map(|(_, node)| node)
            .filter(|node| node.value != Value::Null)
    }

    /// Deep merge: mappings merge key by key (a parent's key keeps its
    /// position, new child keys are appended); any other child value, `null`
    /// included, replaces the parent's.
    pub(crate) fn merged_over(self, parent: Node) -> Node {
        match (self.value, parent.value) {
            (Value::Map(child), Value::Map(mut merged)) => {
                for (key, node) in child {
                    match merged.iter().position(|(k, _)| k.name == key.name) {
                        Some(index) => {
                            let (_, old) = merged.remove(index);
                            merged.insert(index, (key, node.merged_over(old)));
                        }
                        None => merged.push((key, node)),
                    }
                }
                Node {
                    value: Value::Map(merged),
                    location: self.location,
                }
            }
            (value, _) => Node {
                value,
                location: self.location,
            },
        }
    }
}

/// A value as deserialized, before locations get their file.
enum RawValue {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    Seq(Vec<Spanned<RawValue>>),
    Map(Vec<(Spanned<RawKey>, Spanned<RawValue>)>),
}

/// A scalar mapping key, as text.
struct RawKey(String);

fn location_of<T>(spanned: &Spanned<T>, path: &Path) -> SourceLocation {
    SourceLocation::at(path, spanned.referenced.line(), spanned.referenced.column())
}

fn located(raw: Spanned<RawValue>, path: &Path, text: &str) -> Node {
    let location = location_of(&raw, path);
    let value = match raw.value {
        RawValue::Null => Value::Null,
        RawValue::Bool(b) => Value::Bool(b),
        RawValue::Int(i) => Value::Int(i),
        RawValue::Float(f) => match leading_zero_digits(text, &raw) {
            Some(digits) => Value::LeadingZero(digits.to_owned()),
            None => Value::Float(f),
        },
        RawValue::Str(s) => Value::Str(s),
        RawValue::Seq(items) => {
            Value::Seq(items.into_iter().map(|i| located(i, path, text)).collect())
        }
        RawValue::Map(entries) => Value::Map(
            entries
                .into_iter()
                .map(|(key, node)| {
                    let key = Key {
                        location: location_of(&key, path),
                        name: key.value.0,
                    };
                    (key, located(node, path, text))
                })
                .collect(),
        ),
    };
    Node { value, location }
}

/// The scalar written at `spanned`'s position in `text` when it is digits
/// with a leading zero (`013560`, `-07`), which the parser read as a float.
fn leading_zero_digits<'t, T>(text: &'t str, spanned: &Spanned<T>) -> Option<&'t str> {
    let index = |n: u64| usize::try_from(n.checked_sub(1)?).ok();
    let line = text.lines().nth(index(spanned.referenced.line())?)?;
    let start = line
        .char_indices()
        .nth(index(spanned.referenced.column())?)
        .map(|(i, _)| i)?;
    let token = line[start..]
        .split(|c: char| c.is_whitespace() || c == '#' || c == ',')
        .next()?;
    let digits = token.strip_prefix(['-', '+']).unwrap_or(token);
    (digits.len() > 1 && digits.starts_with('0') && digits.bytes().all(|b| b.is_ascii_digit()))
        .then_some(token)
}

impl<'de> Deserialize<'de> for RawKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = RawKey;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a scalar mapping key")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawKey, E> {
                Ok(RawKey(v.to_owned()))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<RawKey, E> {
                Ok(RawKey(v.to_string()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<RawKey, E> {
                Ok(RawKey(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawKey, E> {
                Ok(RawKey(v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<RawKey, E> {
                Ok(RawKey(v.to_string()))
            }
            fn visit_unit<E: de::Error>(self) -> Result<RawKey, E> {
                Ok(RawKey("null".to_owned()))
            }
        }
        // As text, so that `y`, `on` or `1` stay the keys they are written as.
        deserializer.deserialize_str(KeyVisitor)
    }
}

impl<'de> Deserialize<'de> for RawValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ValueVisitor;
        impl<'de> Visitor<'de> for ValueVisitor {
            type Value = RawValue;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any YAML value")
            }
            fn visit_unit<E: de::Error>(self) -> Result<RawValue, E> {
                Ok(RawValue::Null)
            }
            fn visit_none<E: de::Error>(self) -> Result<RawValue, E> {
                Ok(RawValue::Null)
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<RawValue, E> {
                Ok(RawValue::Bool(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<RawValue, E> {
                Ok(RawValue::Int(i128::from(v)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawValue, E> {
                Ok(RawValue::Int(i128::from(v)))
            }
            fn visit_i128<E: de::Error>(self, v: i128) -> Result<RawValue, E> {
                Ok(RawValue::Int(v))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<RawValue, E> {
                Ok(RawValue::Float(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawValue, E> {
                Ok(RawValue::Str(v.to_owned()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawValue, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(RawValue::Seq(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawValue, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(RawValue::Map(entries))
            }
        }
        deserializer.deserialize_any(ValueVisitor)
    }
}

/// A [`ContractError::Yaml`] with the file, line and column of the problem.
fn yaml_error(error: &serde_saphyr::Error, path: &Path) -> ContractError {
    let plain = error.render_with_options(serde_saphyr::render_options! {
        snippets: serde_saphyr::SnippetMode::Off,
    });
    let (location, message) = match error.location() {
        Some(at) => {
            let prefix = format!("line {} column {}: ", at.line(), at.column());
            let message = plain
                .strip_prefix("error: ")
                .unwrap_or(&plain)
                .strip_prefix(&prefix)
                .unwrap_or(&plain)
                .to_owned();
            (SourceLocation::at(path, at.line(), at.column()), message)
        }
        None => (SourceLocation::file(path), plain),
    };
    ContractError::Yaml { location, message }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Node {
        Node::parse(text, Path::new("p.yaml")).unwrap()
    }

    #[test]
    fn keys_and_values_carry_lines() {
        let doc = parse("a:\n  b: 5\n  c: \"7\"\n");
        let (key, b) = doc.get("a").unwrap().entry("b").unwrap();
        assert_eq!(key.location.to_string(), "p.yaml:2:3");
        assert_eq!(b.value, Value::Int(5));
        assert_eq!(
            doc.get("a").unwrap().get("c").unwrap().value,
            Value::Str("7".into())
        );
    }

    #[test]
    fn deep_merge_keeps_parent_order_and_child_values() {
        let parent = parse("a: 1\nm:\n  x: 1\n  y: 2\nl: [1, 2]\n");
        let child = parse("m:\n  y: 3\n  z: 4\nl: [9]\nb: 2\n");
        let merged = child.merged_over(parent);
        let names: Vec<_> = merged
            .as_map()
            .unwrap()
            .iter()
            .map(|(k, _)| k.name.as_str())
            .collect();
        assert_eq!(names, ["a", "m", "l", "b"]);
        let m = merged.get("m").unwrap();
        assert_eq!(m.get("x").unwrap().value, Value::Int(1));
        assert_eq!(m.get("y").unwrap().value, Value::Int(3));
        assert_eq!(m.get("z").unwrap().location.line, Some(3));
        assert!(matches!(&merged.get("l").unwrap().value, Value::Seq(v) if v.len() == 1));
    }

    #[test]
    fn malformed_yaml_names_line_and_column() {
        let err = Node::parse("a: [1\n", Path::new("p.yaml")).unwrap_err();
        let ContractError::Yaml { location, message } = &err else {
            panic!("{err:?}")
        };
        assert_eq!(location.line, Some(1));
        assert!(message.contains("unclosed"), "{message}");
    }

    #[test]
    fn duplicate_keys_are_errors() {
        assert!(Node::parse("a: 1\na: 2\n", Path::new("p.yaml")).is_err());
    }
}
