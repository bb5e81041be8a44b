//! Paths into JSON values, as the contracts' errors print them: `options[2].id`,
//! `blocks[0].children[1].text`, or the root `""`.

use std::cmp::Ordering;
use std::fmt::{self, Write};

use serde::Serialize;

/// One step of a path: an object key or a list index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    Key(&'static str),
    /// A key chosen at run time (a form value's field id, an unknown key).
    Name(String),
    Index(usize),
}

impl Segment {
    pub fn text(&self) -> Option<&str> {
        match self {
            Segment::Key(key) => Some(key),
            Segment::Name(name) => Some(name),
            Segment::Index(_) => None,
        }
    }
}

/// Where an error is: `options[2].id`, `content.selected[0]`, or the root `""`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Path(Vec<Segment>);

/// What messages call the root: as a sentence's subject, and inside a sentence.
pub(crate) const ROOT_SUBJECT: &str = "The value";
pub(crate) const ROOT_INLINE: &str = "the value";

impl Path {
    pub fn root() -> Self {
        Path(Vec::new())
    }

    pub fn key(&self, key: &'static str) -> Path {
        self.with(Segment::Key(key))
    }

    pub fn name(&self, name: &str) -> Path {
        self.with(Segment::Name(name.to_string()))
    }

    pub fn index(&self, index: usize) -> Path {
        self.with(Segment::Index(index))
    }

    fn with(&self, segment: Segment) -> Path {
        let mut segments = Vec::with_capacity(self.0.len() + 1);
        segments.extend_from_slice(&self.0);
        segments.push(segment);
        Path(segments)
    }

    pub fn segments(&self) -> &[Segment] {
        &self.0
    }

    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    pub fn parent(&self) -> Path {
        Path(self.0[..self.0.len().saturating_sub(1)].to_vec())
    }

    pub fn last(&self) -> Option<&Segment> {
        self.0.last()
    }

    /// The sentence subject: the path, or "The value" at the root.
    pub fn subject(&self) -> String {
        if self.is_root() { ROOT_SUBJECT.to_string() } else { self.text() }
    }

    /// The subject inside a sentence: the path, or "the value" at the root.
    pub fn inline(&self) -> String {
        if self.is_root() { ROOT_INLINE.to_string() } else { self.text() }
    }

    /// The path as [`fmt::Display`] prints it, in a string allocated once at its size
    /// (`to_string` would grow it piece by piece).
    pub fn text(&self) -> String {
        // A dot before each key, and room for "[" digits "]" for an index.
        let size = self.0.iter().map(|segment| segment.text().map_or(6, |key| key.len() + 1)).sum();
        let mut text = String::with_capacity(size);
        self.write_to(&mut text).expect("writing to a String does not fail");
        text
    }

    fn write_to(&self, out: &mut impl Write) -> fmt::Result {
        for (position, segment) in self.0.iter().enumerate() {
            match segment {
                Segment::Index(index) => write!(out, "[{index}]")?,
                Segment::Key(_) | Segment::Name(_) => {
                    if position > 0 {
                        out.write_char('.')?;
                    }
                    out.write_str(segment.text().unwrap_or_default())?;
                }
            }
        }
        Ok(())
    }

    /// The asks' error order: segment by segment, an index before a key, keys in UTF-16 order,
    /// a shorter path first.
    pub fn ask_order(&self, other: &Path) -> Ordering {
        for (a, b) in self.0.iter().zip(&other.0) {
            let order = match (a, b) {
                (Segment::Index(x), Segment::Index(y)) => x.cmp(y),
                (Segment::Index(_), _) => Ordering::Less,
                (_, Segment::Index(_)) => Ordering::Greater,
                // Plain code-unit order, as JavaScript's `<` on strings.
                _ => a.text().unwrap_or_default().encode_utf16().cmp(b.text().unwrap_or_default().encode_utf16()),
            };
            if order != Ordering::Equal {
                return order;
            }
        }
        self.0.len().cmp(&other.0.len())
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

/// As its [`Path`] prints (only ever for a message).
impl fmt::Display for Loc<'_> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.path().fmt(formatter)
    }
}

impl Serialize for Path {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A path under construction while a value is walked: a chain of stack frames, so walking
/// a valid value allocates nothing. It becomes a [`Path`] only when an error is reported.
#[derive(Clone, Copy, Debug)]
pub enum Loc<'a> {
    Root,
    Key(&'a Loc<'a>, &'static str),
    Name(&'a Loc<'a>, &'a str),
    Index(&'a Loc<'a>, usize),
}

impl<'a> Loc<'a> {
    pub fn key(&'a self, key: &'static str) -> Loc<'a> {
        Loc::Key(self, key)
    }

    pub fn name(&'a self, name: &'a str) -> Loc<'a> {
        Loc::Name(self, name)
    }

    pub fn index(&'a self, index: usize) -> Loc<'a> {
        Loc::Index(self, index)
    }

    fn parent(&self) -> Option<&Loc<'a>> {
        match self {
            Loc::Root => None,
            Loc::Key(parent, _) | Loc::Name(parent, _) | Loc::Index(parent, _) => Some(parent),
        }
    }

    pub fn path(&self) -> Path {
        let depth = std::iter::successors(Some(self), |node| node.parent()).count() - 1;
        let mut segments = Vec::with_capacity(depth);
        let mut node = self;
        loop {
            let (parent, segment) = match node {
                Loc::Root => break,
                Loc::Key(parent, key) => (parent, Segment::Key(key)),
                Loc::Name(parent, name) => (parent, Segment::Name(name.to_string())),
                Loc::Index(parent, index) => (parent, Segment::Index(*index)),
            };
            segments.push(segment);
            node = parent;
        }
        segments.reverse();
        Path(segments)
    }
}
