//! A page of the conversation list: at most `limit` conversations active before a cursor, most
//! recently active first (ties broken by id), so a list of any length is read a page at a time
//! and each page costs the same.

use serde::{Deserialize, Serialize};

use super::deadline::epoch_ms;
use super::model::HistorySummary;

/// How many conversations a page holds when the request does not say.
pub const DEFAULT_PAGE: u32 = 50;
/// The most conversations one page may hold.
pub const MAX_PAGE: u32 = 200;

/// Where the next page starts: after the conversation last active at `updated` whose id is `id`.
/// Sent as opaque text (`encode`), so clients pass it back without reading it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageCursor {
    pub updated: String,
    pub id: String,
}

impl PageCursor {
    /// The cursor of the page after the one that ends with `last`.
    pub fn after(last: &HistorySummary) -> Self {
        PageCursor { updated: last.updated.clone(), id: last.id.clone() }
    }

    /// The cursor as text: the hex digits of `updated`, a space and `id`.
    pub fn encode(&self) -> String {
        format!("{} {}", self.updated, self.id).bytes().map(|byte| format!("{byte:02x}")).collect()
    }

    /// Reads a cursor `encode` wrote; the error says what is wrong with it.
    pub fn parse(text: &str) -> Result<Self, String> {
        const MALFORMED: &str = "The before cursor is not one this server gave: pass nextBefore as it came.";
        let bytes: Option<Vec<u8>> = (text.len().is_multiple_of(2) && text.len() <= 400)
            .then(|| {
                (0..text.len())
                    .step_by(2)
                    .map(|at| text.get(at..at + 2).and_then(|hex| u8::from_str_radix(hex, 16).ok()))
            })
            .and_then(|bytes| bytes.collect());
        let decoded = bytes.and_then(|bytes| String::from_utf8(bytes).ok()).ok_or(MALFORMED)?;
        let (updated, id) = decoded.split_once(' ').ok_or(MALFORMED)?;
        let id_is_plain = !id.is_empty() && id.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_');
        if epoch_ms(updated).is_none() || !id_is_plain {
            return Err(MALFORMED.to_string());
        }
        Ok(PageCursor { updated: updated.to_string(), id: id.to_string() })
    }
}

/// Which page to read: at most `limit` conversations, from the start or after `before`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageRequest {
    pub limit: u32,
    pub before: Option<PageCursor>,
}

impl PageRequest {
    /// The first page, of the default size.
    pub fn first() -> Self {
        PageRequest { limit: DEFAULT_PAGE, before: None }
    }

    /// The page a request asks for (`limit` defaults to `DEFAULT_PAGE`); the error is a
    /// sentence saying what to send instead.
    pub fn new(limit: Option<u32>, before: Option<&str>) -> Result<Self, String> {
        let limit = limit.unwrap_or(DEFAULT_PAGE);
        if !(1..=MAX_PAGE).contains(&limit) {
            return Err(format!("limit was {limit}; send a number from 1 to {MAX_PAGE}."));
        }
        let before = before.filter(|before| !before.is_empty()).map(PageCursor::parse).transpose()?;
        Ok(PageRequest { limit, before })
    }
}

/// `{data, more, nextBefore}`: a page of a list, whether more follow, and the cursor that reads
/// the next one (sent as `before`). `data` is what the reference's unpaged list sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Paged<T> {
    pub data: T,
    /// More conversations follow this page.
    pub more: bool,
    /// The `before` of the next page, when `more`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_before: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_back_as_it_was_written() {
        let cursor = PageCursor { updated: "2026-12-06T14:00:00.123Z".into(), id: "0193abc".into() };
        assert_eq!(PageCursor::parse(&cursor.encode()), Ok(cursor));
    }

    #[test]
    fn a_malformed_cursor_or_limit_is_refused_with_a_reason() {
        for cursor in ["zz", "abc", "2026", &PageCursor { updated: "yesterday".into(), id: "x".into() }.encode()] {
            assert!(PageRequest::new(None, Some(cursor)).unwrap_err().contains("nextBefore"), "{cursor}");
        }
        assert!(PageRequest::new(Some(201), None).unwrap_err().contains("from 1 to 200"));
        assert!(PageRequest::new(Some(0), None).is_err());
        assert_eq!(PageRequest::new(None, Some("")), Ok(PageRequest::first()));
    }
}
