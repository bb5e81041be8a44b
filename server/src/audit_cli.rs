//! `palaver audit verify` and `palaver audit key`: the audit chains checked from the database
//! or from an export, trusting this instance's key and the ones named with `--trust`.

use palaver_core::audit::chain::{Broken, ChainedEntry, ExportLine, Head, SignedHead, Verified, verify};
use palaver_core::audit::store;
use palaver_core::db::Pool;

use crate::asks_cli::Outcome;

fn counted(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

fn held(verified: &Verified, notes: &str) -> Outcome {
    let Verified { entries, chains, signatures, unsigned } = *verified;
    Outcome {
        code: 0,
        stdout: format!(
            "The audit trail holds: {} in {}, {}; {} newer than its chain's last signature.\n{notes}",
            counted(entries, "entry", "entries"),
            counted(chains, "chain", "chains"),
            counted(signatures, "signature", "signatures"),
            counted(unsigned, "entry is", "entries are"),
        ),
        stderr: String::new(),
    }
}

fn broken(Broken(what): Broken) -> Outcome {
    Outcome { code: 1, stdout: String::new(), stderr: format!("The audit trail does not hold. {what}\n") }
}

fn unreadable(what: String) -> Outcome {
    Outcome { code: 2, stdout: String::new(), stderr: format!("{what}\n") }
}

/// Checks every chain in the database against its head and its signatures.
pub async fn verify_database(pool: &Pool, trusted: &[String]) -> Outcome {
    let read = async {
        Ok::<_, palaver_core::error::Error>((
            store::chained_entries(pool, None).await?,
            store::heads(pool, None).await?,
            store::signatures(pool, None).await?,
            store::unchained_count(pool).await?,
        ))
    };
    let (entries, heads, signatures, unchained) = match read.await {
        Ok(read) => read,
        Err(err) => return unreadable(format!("Cannot read the audit trail: {err}")),
    };
    let notes = match unchained {
        0 => String::new(),
        count => format!(
            "{count} entries written before the chain existed are not chained yet: Palaver chains them when it starts.\n"
        ),
    };
    match verify(entries, Some(&heads), &signatures, trusted) {
        Ok(verified) => held(&verified, &notes),
        Err(found) => broken(found),
    }
}

/// Checks an export (JSON lines of entries, heads and signatures).
pub fn verify_export(text: &str, trusted: &[String]) -> Outcome {
    let (mut entries, mut heads, mut signatures) =
        (Vec::<ChainedEntry>::new(), Vec::<Head>::new(), Vec::<SignedHead>::new());
    for (number, line) in (1..).zip(text.lines()) {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<ExportLine>(line) {
            Ok(ExportLine::Entry(entry)) => entries.push(*entry),
            Ok(ExportLine::Head(head)) => heads.push(head),
            Ok(ExportLine::Signature(signed)) => signatures.push(signed),
            Err(err) => return unreadable(format!("Line {number} of the export is not an audit line: {err}.")),
        }
    }
    let notes = "What an export proves ends at each chain's last signature: newer entries could have been left out.\n";
    match verify(entries, Some(&heads), &signatures, trusted) {
        Ok(verified) => held(&verified, notes),
        Err(found) => broken(found),
    }
}
