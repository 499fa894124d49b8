//! Reading vector fields out of parsed TOML, with errors that name the field.

use budget_runtime::{ContextKind, Item, model::Timestamp};
use toml::Value;
use toml::value::{Datetime, Table};

pub type Outcome<T> = Result<T, String>;

pub fn table<'a>(parent: &'a Table, key: &str) -> Outcome<&'a Table> {
    parent
        .get(key)
        .and_then(Value::as_table)
        .ok_or_else(|| format!("missing table [{key}]"))
}

pub fn opt_table<'a>(parent: &'a Table, key: &str) -> Option<&'a Table> {
    parent.get(key).and_then(Value::as_table)
}

pub fn array_of_tables<'a>(parent: &'a Table, key: &str) -> Vec<&'a Table> {
    parent
        .get(key)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_table).collect())
        .unwrap_or_default()
}

pub fn string<'a>(parent: &'a Table, key: &str) -> Outcome<&'a str> {
    opt_string(parent, key).ok_or_else(|| format!("missing string `{key}`"))
}

pub fn opt_string<'a>(parent: &'a Table, key: &str) -> Option<&'a str> {
    parent.get(key).and_then(Value::as_str)
}

pub fn int(parent: &Table, key: &str) -> Outcome<i64> {
    opt_int(parent, key).ok_or_else(|| format!("missing integer `{key}`"))
}

pub fn opt_int(parent: &Table, key: &str) -> Option<i64> {
    parent.get(key).and_then(Value::as_integer)
}

/// A token count, which must be `>= 0`.
pub fn count(parent: &Table, key: &str) -> Outcome<u64> {
    opt_count(parent, key)?.ok_or_else(|| format!("missing integer `{key}`"))
}

/// An optional token count, which must be `>= 0` when present.
pub fn opt_count(parent: &Table, key: &str) -> Outcome<Option<u64>> {
    opt_int(parent, key)
        .map(|n| u64::try_from(n).map_err(|_| format!("`{key}` = {n} must be >= 0")))
        .transpose()
}

/// A float; integers are accepted too.
pub fn opt_float(parent: &Table, key: &str) -> Option<f64> {
    match parent.get(key)? {
        Value::Float(f) => Some(*f),
        Value::Integer(i) => Some(*i as f64),
        _ => None,
    }
}

pub fn float(parent: &Table, key: &str) -> Outcome<f64> {
    opt_float(parent, key).ok_or_else(|| format!("missing number `{key}`"))
}

pub fn opt_bool(parent: &Table, key: &str) -> Option<bool> {
    parent.get(key).and_then(Value::as_bool)
}

pub fn strings(parent: &Table, key: &str) -> Vec<String> {
    parent
        .get(key)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

pub fn kind(label: &str) -> Outcome<ContextKind> {
    ContextKind::new(label.to_owned()).map_err(|e| format!("kind {label:?}: {e}"))
}

pub fn timestamp(value: &Datetime) -> Outcome<Timestamp> {
    let date = value.date.ok_or("datetime without a date")?;
    let time = value.time.unwrap_or(toml::value::Time {
        hour: 0,
        minute: 0,
        second: Some(0),
        nanosecond: Some(0),
    });
    let base = Timestamp::from_ymd_hms(
        i64::from(date.year),
        u32::from(date.month),
        u32::from(date.day),
        u32::from(time.hour),
        u32::from(time.minute),
        u32::from(time.second.unwrap_or(0)),
    )
    .ok_or_else(|| format!("invalid datetime {value}"))?;
    let offset_minutes = match value.offset {
        Some(toml::value::Offset::Custom { minutes }) => i128::from(minutes),
        _ => 0,
    };
    let nanos = base.unix_nanos() + i128::from(time.nanosecond.unwrap_or(0))
        - offset_minutes * 60 * 1_000_000_000;
    Ok(Timestamp::from_unix_nanos(nanos))
}

pub fn opt_timestamp(parent: &Table, key: &str) -> Outcome<Option<Timestamp>> {
    match parent.get(key) {
        None => Ok(None),
        Some(Value::Datetime(dt)) => timestamp(dt).map(Some),
        Some(other) => Err(format!("`{key}` is not a datetime: {other}")),
    }
}

/// An [`Item`] from an `[[items]]` / `[[scored_items]]` table.
pub fn item(t: &Table) -> Outcome<Item> {
    let content = string(t, "content")?;
    // Vectors may declare negative counts: `signed_tokens` takes them as
    // the specification defines them.
    let mut builder = Item::builder(content).signed_tokens(int(t, "tokens")?);
    if let Some(k) = opt_string(t, "kind") {
        builder = builder.kind(kind(k)?);
    }
    if let Some(ts) = opt_timestamp(t, "timestamp")? {
        builder = builder.timestamp(ts);
    }
    if let Some(p) = opt_int(t, "priority") {
        builder = builder.priority(p);
    }
    builder = builder.tags(strings(t, "tags"));
    if let Some(h) = opt_float(t, "futureRelevanceHint") {
        builder = builder.relevance_hint(h);
    }
    if let Some(pinned) = opt_bool(t, "pinned") {
        builder = builder.pinned(pinned);
    }
    if let Some(meta) = opt_table(t, "metadata") {
        for (key, value) in meta {
            builder = match value {
                Value::String(s) => builder.metadata(key.clone(), s.clone()),
                Value::Float(f) => builder.metadata(key.clone(), *f),
                Value::Integer(i) => builder.metadata(key.clone(), *i),
                Value::Boolean(b) => builder.metadata(key.clone(), *b),
                other => builder.metadata(key.clone(), other.to_string()),
            };
        }
    }
    builder
        .build()
        .map_err(|e| format!("item {content:?}: {e}"))
}
