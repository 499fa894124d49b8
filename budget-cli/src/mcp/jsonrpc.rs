//! JSON-RPC 2.0 over stdio as MCP frames it: one message per line. Reading
//! is bounded (a line longer than [`MAX_MESSAGE_BYTES`] is dropped and
//! answered with an error), and every message that fails to parse is
//! answered, with its id when one can be found.

use std::io::{BufRead, Write};
use std::sync::mpsc::Sender;

use serde_json::{Value, json};

/// The longest message read (bytes): 8 MiB.
pub const MAX_MESSAGE_BYTES: usize = 8 * 1024 * 1024;

/// JSON-RPC's error codes, and MCP's for a request before `initialize`.
pub mod code {
    /// The message is not JSON.
    pub const PARSE_ERROR: i64 = -32700;
    /// The message is JSON but not a request, notification or response.
    pub const INVALID_REQUEST: i64 = -32600;
    /// No such method.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// The parameters are wrong.
    pub const INVALID_PARAMS: i64 = -32602;
    /// A request other than `initialize` or `ping` came first.
    pub const NOT_INITIALIZED: i64 = -32002;
}

/// What the reader thread hands the server.
#[derive(Debug)]
pub enum Incoming {
    /// One line (without its newline).
    Line(Vec<u8>),
    /// A line longer than [`MAX_MESSAGE_BYTES`], dropped.
    TooLong,
    /// The client closed stdin (or it failed).
    Closed,
}

/// Reads `input` line by line into `sender` until it closes; a line over
/// [`MAX_MESSAGE_BYTES`] is skipped to its end without being kept.
pub fn read_lines(mut input: impl BufRead, sender: &Sender<Incoming>) {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let (done, used) = match input.fill_buf() {
            Ok([]) | Err(_) => {
                let _ = sender.send(Incoming::Closed);
                return;
            }
            Ok(buffer) => match buffer.iter().position(|&b| b == b'\n') {
                Some(end) => {
                    if !too_long {
                        line.extend_from_slice(&buffer[..end]);
                    }
                    (true, end + 1)
                }
                None => {
                    if !too_long {
                        line.extend_from_slice(buffer);
                    }
                    (false, buffer.len())
                }
            },
        };
        input.consume(used);
        if line.len() > MAX_MESSAGE_BYTES {
            too_long = true;
            line = Vec::new();
        }
        if done {
            let message = if too_long {
                Incoming::TooLong
            } else {
                Incoming::Line(std::mem::take(&mut line))
            };
            too_long = false;
            if sender.send(message).is_err() {
                return;
            }
        }
    }
}

/// A response carrying `result`.
pub fn result(id: &Value, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

/// A response carrying an error.
pub fn error(id: &Value, code: i64, message: impl Into<String>) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message.into() } })
}

/// Writes `message` as one line and flushes.
///
/// # Errors
/// The write's I/O error (the client is gone).
pub fn send(out: &mut impl Write, message: &Value) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, message)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// The `id` of a top-level JSON object in `text` (a string or number), found
/// without parsing the rest: for answering a message that does not parse
/// (too deep, or broken after its id).
pub fn find_id(text: &[u8]) -> Option<Value> {
    let mut depth = 0usize;
    let mut at = 0;
    let mut expecting_key = false;
    while at < text.len() {
        match text[at] {
            b'"' => {
                let end = string_end(text, at)?;
                if depth == 1 && expecting_key {
                    let key = &text[at + 1..end];
                    let mut next = end + 1;
                    while next < text.len() && text[next].is_ascii_whitespace() {
                        next += 1;
                    }
                    if key == b"id" && text.get(next) == Some(&b':') {
                        return value_at(text, next + 1);
                    }
                }
                expecting_key = false;
                at = end + 1;
                continue;
            }
            b'{' => {
                depth += 1;
                expecting_key = depth == 1;
            }
            b'[' => depth += 1,
            b'}' | b']' => depth = depth.checked_sub(1)?,
            b',' => expecting_key = depth == 1,
            _ => {}
        }
        at += 1;
    }
    None
}

/// The index of the quote closing the string that opens at `start`.
fn string_end(text: &[u8], start: usize) -> Option<usize> {
    let mut at = start + 1;
    while at < text.len() {
        match text[at] {
            b'\\' => at += 2,
            b'"' => return Some(at),
            _ => at += 1,
        }
    }
    None
}

/// A string or number value starting at (or after white space from) `at`.
fn value_at(text: &[u8], mut at: usize) -> Option<Value> {
    while at < text.len() && text[at].is_ascii_whitespace() {
        at += 1;
    }
    let end = if text.get(at) == Some(&b'"') {
        string_end(text, at)? + 1
    } else {
        at + text[at..]
            .iter()
            .take_while(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'))
            .count()
    };
    let value: Value = serde_json::from_slice(&text[at..end]).ok()?;
    (value.is_string() || value.is_number()).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_found_in_messages_that_do_not_parse() {
        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}}}"#,
            "[".repeat(10_000)
        );
        assert!(serde_json::from_str::<Value>(&deep).is_err());
        assert_eq!(find_id(deep.as_bytes()), Some(json!(7)));
        let late = format!(
            r#"{{"params":{{"id":1,"x":"}}"}},"id" : "a\"b","m":{}"#,
            "{".repeat(300)
        );
        assert_eq!(find_id(late.as_bytes()), Some(json!("a\"b")));
        assert_eq!(find_id(br#"{"params":{"id":1}}"#), None);
        assert_eq!(find_id(b"not json"), None);
    }

    #[test]
    fn long_lines_are_dropped_and_reading_goes_on() {
        let (sender, receiver) = std::sync::mpsc::channel();
        let mut input = vec![b'x'; MAX_MESSAGE_BYTES + 10];
        input.extend_from_slice(b"\n{}\n");
        read_lines(std::io::Cursor::new(input), &sender);
        let got: Vec<Incoming> = receiver.try_iter().collect();
        assert!(matches!(got[0], Incoming::TooLong));
        assert!(matches!(&got[1], Incoming::Line(line) if line == b"{}"));
        assert!(matches!(got[2], Incoming::Closed));
    }
}
