//! The bare limit `scripts/load.py` compares Palaver with: an axum server that does only a
//! cycle's database writes, on the same database, pool and tables, with no Palaver logic. Each
//! request makes as many inserts as Palaver's makes (the load script counts them) and one
//! guarded update, in one transaction:
//!
//!     cargo run --release -p palaver-server --example bare_cycle -- <address> <database url> \
//!         <inserts per prompt> <inserts per answer>
//!
//! `POST /histories` makes a conversation; `POST /histories/{id}/prompt` claims its pending slot,
//! `POST /histories/{id}/answer` clears it (409 when the slot is not as expected).

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::post;
use serde_json::json;

struct Bare {
    pool: palaver_core::db::Pool,
    prompt_inserts: usize,
    answer_inserts: usize,
}

type Shared = State<Arc<Bare>>;

#[tokio::main]
async fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let [_, address, url, prompt_inserts, answer_inserts] = args.as_slice() else {
        return Err("usage: bare_cycle <address> <database url> <inserts per prompt> <inserts per answer>".into());
    };
    let count = |text: &str| text.parse::<usize>().map_err(|err| format!("{text}: {err}"));
    let pool = palaver_core::db::connect(url).await.map_err(|err| err.to_string())?;
    let bare = Arc::new(Bare { pool, prompt_inserts: count(prompt_inserts)?, answer_inserts: count(answer_inserts)? });
    let router = Router::new()
        .route("/histories", post(create))
        .route("/histories/{id}/prompt", post(prompt))
        .route("/histories/{id}/answer", post(answer))
        .with_state(bare);
    let listener = tokio::net::TcpListener::bind(address).await.map_err(|err| err.to_string())?;
    axum::serve(listener, router).await.map_err(|err| err.to_string())
}

fn failed(err: sqlx::Error) -> StatusCode {
    eprintln!("{err}");
    StatusCode::INTERNAL_SERVER_ERROR
}

async fn create(State(bare): Shared) -> Result<String, StatusCode> {
    let id = palaver_core::db::new_id();
    sqlx::query("INSERT INTO histories (id) VALUES ($1)").bind(&id).execute(&bare.pool).await.map_err(failed)?;
    Ok(id)
}

async fn prompt(State(bare): Shared, Path(id): Path<String>) -> Result<StatusCode, StatusCode> {
    let claim = format!(
        "UPDATE histories SET pending_ask = {} WHERE id = $1 AND pending_ask IS NULL",
        palaver_core::db::Backend::of(&bare.pool).json("$2")
    );
    let ask = json!({"toolCallId": "call_1", "kind": "choice"}).to_string();
    cycle_step(&bare, &id, &claim, Some(ask), bare.prompt_inserts).await
}

async fn answer(State(bare): Shared, Path(id): Path<String>) -> Result<StatusCode, StatusCode> {
    let clear = "UPDATE histories SET pending_ask = NULL WHERE id = $1 AND pending_ask IS NOT NULL";
    cycle_step(&bare, &id, clear, None, bare.answer_inserts).await
}

/// The guarded update, then `inserts` rows, in one transaction.
async fn cycle_step(
    bare: &Bare,
    id: &str,
    guarded: &str,
    value: Option<String>,
    inserts: usize,
) -> Result<StatusCode, StatusCode> {
    let backend = palaver_core::db::Backend::of(&bare.pool);
    let mut tx = palaver_core::db::begin(&bare.pool).await.map_err(failed)?;
    let mut update = sqlx::query(guarded).bind(id);
    if let Some(value) = value {
        update = update.bind(value);
    }
    if update.execute(&mut *tx).await.map_err(failed)?.rows_affected() != 1 {
        return Ok(StatusCode::CONFLICT);
    }
    let insert = format!(
        "INSERT INTO history_rows (history_id, seq, turn_id, row_type, payload)
         VALUES ($1, (SELECT COALESCE(MAX(seq), -1) + 1 FROM history_rows WHERE history_id = $1), 't', 'bare', {})",
        backend.json("$2")
    );
    for _ in 0..inserts {
        sqlx::query(&insert).bind(id).bind(r#"{"type":"bare"}"#).execute(&mut *tx).await.map_err(failed)?;
    }
    tx.commit().await.map_err(failed)?;
    Ok(StatusCode::OK)
}
