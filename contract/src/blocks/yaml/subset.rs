//! A one-pass reader for the plain YAML that reply documents are written in: a block mapping
//! at the root; block mappings and sequences (compact mappings in sequence items, sequences
//! at their key's indentation); one-line flow collections; single-line double-quoted (JSON
//! escapes), single-quoted and plain scalars; literal block scalars (`|`, `|-`); comments.
//!
//! It answers only when it is sure: anything else (tabs, carriage returns, document markers,
//! anchors, aliases, tags, folded or multi-line scalars, a dash after a space in a flow scalar,
//! other escapes, errors of any kind) is `None`, and the full reader takes the text from the
//! start. Where it answers, it gives the full reader's value.

use serde_json::map::Entry;
use serde_json::{Map, Value};

use super::{MAX_NESTING, YamlDocument, plain_scalar};

pub(super) fn read(text: &str) -> Option<YamlDocument> {
    let lines = plain_lines(text)?;
    // Document markers and directives start at the margin; indented, they are plain text.
    let is_marker = |line: &&str| line.starts_with("---") || line.starts_with("...") || line.starts_with('%');
    if lines.iter().any(is_marker) {
        return None;
    }
    let mut reader = Reader { lines, at: 0, depth: 0 };
    reader.skip_blank_lines();
    let (indent, content) = reader.current()?;
    if indent != 0 || is_sequence_entry(content) {
        return None;
    }
    let mut top_level_keys = Vec::new();
    let value = reader.block_mapping(0, None, Some(&mut top_level_keys))?;
    reader.skip_blank_lines();
    (reader.at == reader.lines.len()).then_some(YamlDocument { value, top_level_keys })
}

/// The text's lines, when it avoids every character this reader leaves to the full one: tabs,
/// carriage returns, other C0 and C1 controls, DEL, the byte order mark, U+2028/U+2029
/// (line breaks to some YAML readers) and the non-characters U+FFFE/U+FFFF.
fn plain_lines(text: &str) -> Option<Vec<&str>> {
    let bytes = text.as_bytes();
    let allowed = |at: usize| match bytes[at] {
        0..0x20 | 0x7f => false,
        0xc2 => !matches!(bytes.get(at + 1), Some(0x80..=0x9f)),
        0xe2 => !(bytes.get(at + 1) == Some(&0x80) && matches!(bytes.get(at + 2), Some(0xa8 | 0xa9))),
        0xef => !matches!(
            (bytes.get(at + 1), bytes.get(at + 2)),
            (Some(0xbb), Some(0xbf)) | (Some(0xbf), Some(0xbe | 0xbf))
        ),
        _ => true,
    };
    // Printable ASCII, most of a document, is skipped in a tight loop that stops at line breaks.
    let mut lines = Vec::with_capacity(text.len() / 24);
    let (mut at, mut line_start) = (0, 0);
    while let Some(offset) = bytes[at..].iter().position(|byte| !(0x20..0x7f).contains(byte)) {
        at += offset;
        if bytes[at] == b'\n' {
            lines.push(&text[line_start..at]);
            line_start = at + 1;
        } else if !allowed(at) {
            return None;
        }
        at += 1;
    }
    lines.push(&text[line_start..]);
    Some(lines)
}

struct Reader<'t> {
    lines: Vec<&'t str>,
    /// The next line to read.
    at: usize,
    depth: usize,
}

/// A line's indentation (spaces) and what follows it.
fn split_indent(line: &str) -> (usize, &str) {
    let content = line.trim_start_matches(' ');
    (line.len() - content.len(), content)
}

/// `-` alone or followed by a space: a block sequence entry.
fn is_sequence_entry(content: &str) -> bool {
    content == "-" || content.starts_with("- ")
}

/// What may follow a finished value on its line: nothing, or spaces and a comment.
fn is_line_end(rest: &str) -> bool {
    let trimmed = rest.trim_start_matches(' ');
    trimmed.is_empty() || (trimmed.len() < rest.len() && trimmed.starts_with('#'))
}

impl<'t> Reader<'t> {
    /// The current line's indentation and content; `None` at the end of the text.
    fn current(&self) -> Option<(usize, &'t str)> {
        self.lines.get(self.at).map(|line| split_indent(line))
    }

    fn skip_blank_lines(&mut self) {
        while let Some((_, content)) = self.current() {
            if !(content.is_empty() || content.starts_with('#')) {
                break;
            }
            self.at += 1;
        }
    }

    /// The next content line's indentation and content, skipping blank and comment lines.
    fn next_content(&mut self) -> Option<(usize, &'t str)> {
        self.skip_blank_lines();
        self.current()
    }

    fn nested<T>(&mut self, read: impl FnOnce(&mut Self) -> Option<T>) -> Option<T> {
        if self.depth >= MAX_NESTING {
            return None;
        }
        self.depth += 1;
        let value = read(self);
        self.depth -= 1;
        value
    }

    /// The block mapping whose entries sit at `indent`. `first` is its first entry's key and
    /// what follows it, when the caller has read that line already; `order` collects the keys
    /// in the order written.
    fn block_mapping(
        &mut self,
        indent: usize,
        first: Option<(String, &'t str)>,
        mut order: Option<&mut Vec<String>>,
    ) -> Option<Value> {
        self.nested(|reader| {
            let mut entries = Map::new();
            let mut pending = first;
            loop {
                let (key, rest) = match pending.take() {
                    Some(entry) => entry,
                    None => match reader.next_content() {
                        Some((line_indent, _)) if line_indent < indent => break,
                        Some((line_indent, content)) if line_indent == indent && !is_sequence_entry(content) => {
                            reader.at += 1;
                            mapping_key(content)?
                        }
                        Some(_) => return None,
                        None => break,
                    },
                };
                // A repeated key is refused, with or without reading its value.
                let Entry::Vacant(slot) = entries.entry(key) else {
                    return None;
                };
                let value = reader.entry_value(indent, rest)?;
                if let Some(order) = order.as_deref_mut() {
                    order.push(slot.key().clone());
                }
                slot.insert(value);
            }
            Some(Value::Object(entries))
        })
    }

    /// The value after `key:` of an entry at `indent`: on the same line, on the lines below,
    /// or null.
    fn entry_value(&mut self, indent: usize, rest: &'t str) -> Option<Value> {
        let value = rest.trim_start_matches(' ');
        if value.is_empty() || value.starts_with('#') {
            return match self.next_content() {
                Some((line_indent, content)) if line_indent > indent => self.block_collection(line_indent, content),
                Some((line_indent, content)) if line_indent == indent && is_sequence_entry(content) => {
                    self.block_sequence(indent)
                }
                _ => Some(Value::Null),
            };
        }
        if let Some(header) = value.strip_prefix('|') {
            return self.literal_scalar(indent, header);
        }
        inline_value(value, self.depth)
    }

    /// A nested block mapping or sequence starting at the current line.
    fn block_collection(&mut self, indent: usize, content: &'t str) -> Option<Value> {
        if is_sequence_entry(content) {
            self.block_sequence(indent)
        } else {
            self.at += 1;
            let first = mapping_key(content)?;
            self.block_mapping(indent, Some(first), None)
        }
    }

    /// The block sequence whose dashes sit at `indent`, from the current line.
    fn block_sequence(&mut self, indent: usize) -> Option<Value> {
        self.nested(|reader| {
            let mut items = Vec::new();
            loop {
                let content = match reader.next_content() {
                    Some((line_indent, content)) if line_indent == indent && is_sequence_entry(content) => content,
                    Some((line_indent, _)) if line_indent > indent => return None,
                    _ => break,
                };
                reader.at += 1;
                let after_dash = &content[1..];
                let item = after_dash.trim_start_matches(' ');
                let item_indent = indent + 1 + (after_dash.len() - item.len());
                let value = if item.is_empty() || item.starts_with('#') {
                    match reader.next_content() {
                        Some((line_indent, content)) if line_indent > indent => {
                            reader.block_collection(line_indent, content)?
                        }
                        _ => Value::Null,
                    }
                } else if let Some(header) = item.strip_prefix('|') {
                    reader.literal_scalar(indent, header)?
                } else if is_sequence_entry(item) || item.starts_with('>') {
                    return None;
                } else if let Some(first) = mapping_key(item) {
                    reader.block_mapping(item_indent, Some(first), None)?
                } else {
                    inline_value(item, reader.depth)?
                };
                items.push(value);
            }
            Some(Value::Array(items))
        })
    }

    /// A literal block scalar below an entry at `indent`; `header` follows the `|`.
    fn literal_scalar(&mut self, indent: usize, header: &str) -> Option<Value> {
        let strip = match header.trim_end_matches(' ') {
            "" => false,
            "-" => true,
            _ => return None,
        };
        let mut content_indent = None;
        let mut lines: Vec<&str> = Vec::new();
        // Blank lines seen since the last content line: kept only if content follows.
        let mut blank_run = 0;
        let mut widest_leading_blank = 0;
        while let Some(line) = self.lines.get(self.at) {
            let (line_indent, content) = split_indent(line);
            if content.is_empty() {
                // A spaces-only line wider than the content's indentation holds spaces of its
                // own; leave that to the full reader.
                match content_indent {
                    Some(content_indent) if line_indent > content_indent => return None,
                    None => widest_leading_blank = widest_leading_blank.max(line_indent),
                    _ => {}
                }
                blank_run += 1;
                self.at += 1;
                continue;
            }
            let content_indent = *content_indent.get_or_insert(line_indent);
            if line_indent < content_indent || line_indent <= indent {
                break;
            }
            if widest_leading_blank > content_indent {
                return None;
            }
            lines.extend(std::iter::repeat_n("", blank_run));
            blank_run = 0;
            lines.push(&line[content_indent..]);
            self.at += 1;
        }
        if lines.is_empty() && widest_leading_blank > 0 {
            return None;
        }
        let mut text = lines.join("\n");
        if !strip && !text.is_empty() {
            text.push('\n');
        }
        Some(Value::String(text))
    }
}

/// A mapping entry's key and what follows its colon, or `None` if `content` is not an entry
/// this reader takes.
fn mapping_key(content: &str) -> Option<(String, &str)> {
    let (key, after_key) = match content.as_bytes().first()? {
        b'"' | b'\'' => {
            let (key, after) = quoted(content)?;
            (key, after.trim_start_matches(' '))
        }
        _ => {
            let colon = find_pair(content, b": ").or_else(|| content.ends_with(':').then(|| content.len() - 1))?;
            let key = content[..colon].trim_end_matches(' ');
            if !is_plain_start(key) || find_pair(key, b" #").is_some() {
                return None;
            }
            (key.to_string(), &content[colon..])
        }
    };
    // YAML caps an implicit key at 1024 characters; stay clear of the edge.
    if content.len() - after_key.len() > 1000 {
        return None;
    }
    let rest = after_key.strip_prefix(':')?;
    (rest.is_empty() || rest.starts_with(' ')).then_some((key, rest))
}

/// Where the two ASCII bytes `pair` first stand together in `text`. Lines are short, and
/// scanning one costs less than `str::find` setting up its substring searcher per call.
fn find_pair(text: &str, pair: &[u8; 2]) -> Option<usize> {
    text.as_bytes().windows(2).position(|window| window[0] == pair[0] && window[1] == pair[1])
}

/// Whether a plain scalar may start this way (no indicator, no leading space, not empty).
fn is_plain_start(text: &str) -> bool {
    let mut chars = text.chars();
    match chars.next() {
        None | Some(' ') => false,
        Some('-') => chars.next().is_some_and(|next| next != ' '),
        Some(first) => !"?:,[]{}#&*!|>'\"%@`".contains(first),
    }
}

/// A value that ends on its line: a flow collection, a quoted scalar or a plain scalar,
/// `depth` collections deep.
fn inline_value(text: &str, depth: usize) -> Option<Value> {
    match text.as_bytes().first()? {
        b'[' | b'{' | b'"' | b'\'' => {
            let mut flow = Flow { text, at: 0, depth };
            let value = flow.node()?;
            is_line_end(&text[flow.at..]).then_some(value)
        }
        _ => {
            let value = find_pair(text, b" #").map_or(text, |comment| &text[..comment]).trim_end_matches(' ');
            if !is_plain_start(value) || find_pair(value, b": ").is_some() || value.ends_with(':') {
                return None;
            }
            Some(plain_scalar(value))
        }
    }
}

/// A quoted scalar at the start of `text` and what follows its closing quote.
fn quoted(text: &str) -> Option<(String, &str)> {
    if let Some(body) = text.strip_prefix('\'') {
        let mut value = String::new();
        let mut rest = body;
        loop {
            let quote = rest.find('\'')?;
            value.push_str(&rest[..quote]);
            rest = &rest[quote + 1..];
            match rest.strip_prefix('\'') {
                Some(after) => {
                    value.push('\'');
                    rest = after;
                }
                None => return Some((value, rest)),
            }
        }
    }
    let body = text.strip_prefix('"')?;
    let mut value = String::new();
    let mut rest = body;
    loop {
        let special = rest.find(['"', '\\'])?;
        value.push_str(&rest[..special]);
        let (marker, after) = rest[special..].split_at(1);
        if marker == "\"" {
            return Some((value, after));
        }
        let mut chars = after.chars();
        let unescaped = match chars.next()? {
            '"' => '"',
            '\\' => '\\',
            '/' => '/',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'u' => {
                let hex = after.get(1..5)?;
                if !hex.bytes().all(|byte| byte.is_ascii_hexdigit()) {
                    return None;
                }
                // Surrogates (JSON's way to write astral characters) are left to the full reader.
                let unescaped = char::from_u32(u32::from_str_radix(hex, 16).ok()?)?;
                value.push(unescaped);
                rest = &after[5..];
                continue;
            }
            _ => return None,
        };
        value.push(unescaped);
        rest = chars.as_str();
    }
}

/// A flow collection or quoted scalar on one line.
struct Flow<'t> {
    text: &'t str,
    at: usize,
    depth: usize,
}

impl<'t> Flow<'t> {
    fn rest(&self) -> &'t str {
        &self.text[self.at..]
    }

    fn skip_spaces(&mut self) {
        self.at = self.text.len() - self.rest().trim_start_matches(' ').len();
    }

    fn eat(&mut self, byte: u8) -> bool {
        let found = self.rest().as_bytes().first() == Some(&byte);
        self.at += usize::from(found);
        found
    }

    fn node(&mut self) -> Option<Value> {
        match self.rest().as_bytes().first()? {
            b'[' => self.collection(b']', |flow| flow.node().map(|value| (None, value))),
            b'{' => self.collection(b'}', |flow| flow.mapping_entry().map(|(key, value)| (Some(key), value))),
            b'"' | b'\'' => self.quoted().map(Value::String),
            _ => {
                let rest = self.rest();
                let end = rest.find([',', '[', ']', '{', '}', ':', '#']).unwrap_or(rest.len());
                let value = rest[..end].trim_end_matches(' ');
                if !is_plain_start(value) || value.contains(" -") || rest[end..].starts_with([':', '#', '[', '{']) {
                    return None;
                }
                self.at += value.len();
                Some(plain_scalar(value))
            }
        }
    }

    fn quoted(&mut self) -> Option<String> {
        let (text, after) = quoted(self.rest())?;
        self.at = self.text.len() - after.len();
        Some(text)
    }

    /// `key: value` in a flow mapping: a quoted key may touch its colon's value (JSON style),
    /// a plain key needs a space after the colon.
    fn mapping_entry(&mut self) -> Option<(String, Value)> {
        let key = if self.rest().starts_with(['"', '\'']) {
            let key = self.quoted()?;
            self.skip_spaces();
            if !self.eat(b':') {
                return None;
            }
            key
        } else {
            let rest = self.rest();
            let colon = find_pair(rest, b": ")?;
            let key = rest[..colon].trim_end_matches(' ');
            if !is_plain_start(key) || key.contains([',', '[', ']', '{', '}', '#', ':']) {
                return None;
            }
            self.at += colon + 1;
            key.to_string()
        };
        self.skip_spaces();
        Some((key, self.node()?))
    }

    /// `[a, b]` or `{k: v}`: entries separated by commas, a trailing comma allowed.
    fn collection(
        &mut self,
        close: u8,
        mut entry: impl FnMut(&mut Self) -> Option<(Option<String>, Value)>,
    ) -> Option<Value> {
        if self.depth >= MAX_NESTING {
            return None;
        }
        self.depth += 1;
        self.at += 1;
        let mut items = Vec::new();
        let mut entries = Map::new();
        loop {
            self.skip_spaces();
            if self.eat(close) {
                break;
            }
            match entry(self)? {
                (Some(key), value) => {
                    if entries.insert(key, value).is_some() {
                        return None;
                    }
                }
                (None, value) => items.push(value),
            }
            self.skip_spaces();
            if !self.eat(b',') {
                self.skip_spaces();
                if !self.eat(close) {
                    return None;
                }
                break;
            }
        }
        self.depth -= 1;
        Some(if close == b'}' { Value::Object(entries) } else { Value::Array(items) })
    }
}
