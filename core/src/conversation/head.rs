//! A conversation's head as `store::HEAD_COLUMNS` reads it.

/// A conversation's own columns, and two things it has elsewhere: whether any of its turns has
/// other versions (only then are they read) and whether a turn grant lives in it (only then is
/// it ended).
#[derive(sqlx::FromRow)]
pub(super) struct HeadRow {
    pub(super) id: String,
    pub(super) owner_id: Option<String>,
    pub(super) title: Option<String>,
    /// JSON.
    pub(super) pending_ask: Option<String>,
    pub(super) model: Option<String>,
    pub(super) created_at: String,
    pub(super) updated_at: String,
    /// The row the running summary covers up to.
    pub(super) summarised_before: Option<i64>,
    pub(super) versioned: i64,
    pub(super) turn_granted: i64,
}

impl HeadRow {
    /// A conversation just created, with nothing in it.
    pub(super) fn created(
        id: String,
        owner_id: &str,
        model: Option<&str>,
        created_at: String,
        updated_at: String,
    ) -> Self {
        Self {
            id,
            owner_id: Some(owner_id.to_string()),
            title: None,
            pending_ask: None,
            model: model.map(str::to_string),
            created_at,
            updated_at,
            summarised_before: None,
            versioned: 0,
            turn_granted: 0,
        }
    }

    pub(super) fn versioned(&self) -> bool {
        self.versioned == 1
    }
}
