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
        if self.is_root() { "The value".to_string() } else { self.to_string() }
    }

    /// The subject inside a sentence: the path, or "the value" at the root.
    pub fn inline(&self) -> String {
        if self.is_root() { "the value".to_string() } else { self.to_string() }
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
        for (position, segment) in self.0.iter().enumerate() {
            match segment {
                Segment::Index(index) => write!(f, "[{index}]")?,
                Segment::Key(_) | Segment::Name(_) => {
                    if position > 0 {
                        f.write_char('.')?;
                    }
                    f.write_str(segment.text().unwrap_or_default())?;
                }
            }
        }
        Ok(())
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

    pub fn path(&self) -> Path {
        let mut segments = Vec::new();
        let mut node = self;
        loop {
            match node {
                Loc::Root => break,
                Loc::Key(parent, key) => {
                    segments.push(Segment::Key(key));
                    node = parent;
                }
                Loc::Name(parent, name) => {
                    segments.push(Segment::Name(name.to_string()));
                    node = parent;
                }
                Loc::Index(parent, index) => {
                    segments.push(Segment::Index(*index));
                    node = parent;
                }
            }
        }
        segments.reverse();
        Path(segments)
    }
}
