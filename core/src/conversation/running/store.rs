//! A turn's place among its user's running turns (taken atomically against the cap, then named
//! for its conversation), and what a turn waits for before it: the rows of `running_turns` and
//! `turn_drafts` the running registry reads (the rest of `running_turns` is in `conversation::store`).

use crate::conversation::store::{RunningTurnRow, add_running_turn};
use crate::db::{Backend, Pool, placeholders};
use crate::error::AppResult;

/// A turn's place among its user's running turns, before it is registered on a conversation.
pub struct TurnPlace<'a> {
    pub key: &'a str,
    pub user_id: &'a str,
    pub instance_id: &'a str,
    /// Keys of turns that ended though their rows stayed: they do not count.
    pub ended: &'a [String],
}

/// Holds a place for one more running turn of the user unless `cap` of theirs run already (a
/// lapsed lease does not count): false then, with nothing written. Admissions of one user take
/// turns, so the count and the insert see each other's rows. On SQLite the insert alone does it: a
/// writing statement takes the database's write lock before it reads. On PostgreSQL a statement's
/// subquery reads a snapshot older than a lock it waited for, so a transaction first writes the
/// user's row and holds its lock.
pub async fn reserve_running_turn(
    pool: &Pool,
    place: &TurnPlace<'_>,
    lease_seconds: i64,
    cap: usize,
) -> AppResult<bool> {
    let backend = Backend::of(pool);
    // The count and the insert are one statement: the place is taken only while under the cap.
    let sql = format!(
        "INSERT INTO running_turns (id, history_id, user_id, stream_id, prompt, instance_id, lease_until)
         SELECT $1, '', $2, '', NULL, $3, {}
         WHERE (SELECT COUNT(*) FROM running_turns WHERE {}) < $5",
        backend.seconds_from_now("$4"),
        live_turns_condition(backend, "$2", 6, place.ended.len()),
    );
    let mut insert = sqlx::query(&sql)
        .bind(place.key)
        .bind(place.user_id)
        .bind(place.instance_id)
        .bind(lease_seconds)
        .bind(i64::try_from(cap).unwrap_or(i64::MAX));
    for key in place.ended {
        insert = insert.bind(key);
    }
    let inserted = match backend {
        Backend::Sqlite => insert.execute(pool).await?,
        Backend::Postgres => {
            let mut tx = crate::db::begin(pool).await?;
            sqlx::query("UPDATE users SET id = id WHERE id = $1").bind(place.user_id).execute(&mut *tx).await?;
            let inserted = insert.execute(&mut *tx).await?;
            tx.commit().await?;
            inserted
        }
    };
    Ok(inserted.rows_affected() == 1)
}

/// Names the conversation, stream and prompt of a turn in the place it holds, and renews its
/// lease (its row again when the lease lapsed meanwhile: the instance could not renew it).
pub async fn place_running_turn(pool: &Pool, turn: &RunningTurnRow<'_>, lease_seconds: i64) -> AppResult<()> {
    let placed = sqlx::query(&format!(
        "UPDATE running_turns SET history_id = $2, stream_id = $3, prompt = $4, lease_until = {}
         WHERE id = $1",
        Backend::of(pool).seconds_from_now("$5")
    ))
    .bind(turn.key)
    .bind(turn.history_id)
    .bind(turn.stream_id)
    .bind(turn.prompt)
    .bind(lease_seconds)
    .execute(pool)
    .await?;
    if placed.rows_affected() == 0 {
        add_running_turn(pool, turn, lease_seconds).await?;
    }
    Ok(())
}

/// How many turns of `user_id` run on any instance (a lapsed lease, or one of `ended`, does
/// not count).
pub async fn running_turns_of(pool: &Pool, user_id: &str, ended: &[String]) -> AppResult<usize> {
    let sql = format!(
        "SELECT COUNT(*) FROM running_turns WHERE {}",
        live_turns_condition(Backend::of(pool), "$1", 2, ended.len())
    );
    let mut count = sqlx::query_as::<_, (i64,)>(&sql).bind(user_id);
    for key in ended {
        count = count.bind(key);
    }
    let (running,) = count.fetch_one(pool).await?;
    Ok(usize::try_from(running).unwrap_or_default())
}

/// The rows of `running_turns` of the user in parameter `user` that hold a live lease, leaving
/// out the `ended` keys bound from parameter `first_ended` on.
fn live_turns_condition(backend: Backend, user: &str, first_ended: usize, ended: usize) -> String {
    let mut condition = format!("user_id = {user} AND lease_until > {}", backend.now());
    if ended > 0 {
        condition.push_str(&format!(" AND id NOT IN ({})", placeholders(first_ended, ended)));
    }
    condition
}

/// Whether a turn of the conversation that began before the one registered as `key` is not
/// saved yet: its draft waits (for its owner, or a sweeper when the owner died), or, with
/// `other_instances`, it runs on an instance whose lease on it holds. Registration keys are
/// time-ordered.
pub async fn unsaved_before(pool: &Pool, history_id: &str, key: &str, other_instances: bool) -> AppResult<bool> {
    let (count,): (i64,) = sqlx::query_as(&format!(
        "SELECT (SELECT COUNT(*) FROM turn_drafts
                 WHERE history_id = $1 AND running_key < $2 AND swept_first_seq IS NULL)
              + (SELECT COUNT(*) FROM running_turns
                 WHERE $3 = 1 AND history_id = $1 AND id < $2 AND lease_until > {})",
        Backend::of(pool).now()
    ))
    .bind(history_id)
    .bind(key)
    .bind(i64::from(other_instances))
    .fetch_one(pool)
    .await?;
    Ok(count > 0)
}
