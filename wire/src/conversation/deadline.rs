//! An ask's deadline as a card shows it: the time left once under an hour, and the moment an
//! expired ask ended. Times are the server's ISO 8601 UTC strings (`2026-12-01T18:40:05.123Z`);
//! the moment is written in UTC, so the server's page and the browser's agree.

const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// The parts of `2026-12-01T18:40:05.123Z`: year, month, day, hour, minute, second, millisecond.
fn parts(iso: &str) -> Option<[i64; 7]> {
    let iso = iso.strip_suffix('Z')?;
    let (date, time) = iso.split_once('T')?;
    let mut date = date.splitn(3, '-').map(str::parse::<i64>);
    let (year, month, day) = (date.next()?.ok()?, date.next()?.ok()?, date.next()?.ok()?);
    let (time, millis) = time.split_once('.').unwrap_or((time, "0"));
    let mut time = time.splitn(3, ':').map(str::parse::<i64>);
    let (hour, minute, second) = (time.next()?.ok()?, time.next()?.ok()?, time.next()?.ok()?);
    let valid = (1..=12).contains(&month) && (1..=31).contains(&day) && hour < 24 && minute < 60 && second < 61;
    valid.then_some([year, month, day, hour, minute, second, millis.parse().ok()?])
}

/// Milliseconds since 1970 of an ISO 8601 UTC time.
pub fn epoch_ms(iso: &str) -> Option<i64> {
    let [year, month, day, hour, minute, second, millis] = parts(iso)?;
    // Days from the civil date (H. Hinnant's algorithm), years counted from March.
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    let days = era * 146_097 + day_of_era - 719_468;
    Some((((days * 24 + hour) * 60 + minute) * 60 + second) * 1000 + millis)
}

/// `2026-12-01T18:40:05.123Z` → `1 Dec 2026, 18:40 UTC`.
pub fn moment(iso: &str) -> Option<String> {
    let [year, month, day, hour, minute, ..] = parts(iso)?;
    let month = MONTHS[usize::try_from(month - 1).ok()?];
    Some(format!("{day} {month} {year}, {hour:02}:{minute:02} UTC"))
}

/// What a pending card says of the time left, once under an hour, in the card's words.
pub fn time_left(remaining_ms: i64, words: &crate::words::Words) -> Option<String> {
    const MINUTE: i64 = 60_000;
    match remaining_ms {
        ms if ms >= 60 * MINUTE => None,
        ms if ms >= MINUTE => {
            let minutes = usize::try_from(ms / MINUTE).unwrap_or_default();
            Some(words.with_count("expires-in-minutes", "minutes", minutes))
        }
        ms if ms > 0 => Some(words.get("expires-soon")),
        _ => Some(words.get("time-is-up")),
    }
}

/// How long ago something happened, in words: `just now`, `5 minutes ago`, `3 hours ago`.
pub fn age(elapsed_ms: i64) -> String {
    let minutes = elapsed_ms / 60_000;
    let (count, unit) = match minutes {
        ..1 => return "just now".into(),
        1..60 => (minutes, "minute"),
        60..1440 => (minutes / 60, "hour"),
        _ => (minutes / 1440, "day"),
    };
    format!("{count} {unit}{} ago", if count == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_servers_times() {
        assert_eq!(epoch_ms("1970-01-01T00:00:00.000Z"), Some(0));
        assert_eq!(epoch_ms("2000-03-01T00:00:00Z"), Some(951_868_800_000));
        assert_eq!(epoch_ms("2026-12-01T18:40:05.123Z"), Some(1_796_150_405_123));
        assert_eq!(epoch_ms("2024-02-29T23:59:59.999Z"), Some(1_709_251_199_999));
        for bad in ["", "2026-12-01", "2026-13-01T00:00:00Z", "2026-12-01T18:40:05", "x-y-zTa:b:cZ"] {
            assert_eq!(epoch_ms(bad), None, "{bad}");
        }
        assert_eq!(moment("2026-12-01T08:05:59.999Z").as_deref(), Some("1 Dec 2026, 08:05 UTC"));
    }

    #[test]
    fn the_time_left_shows_under_an_hour() {
        let en = crate::words::Words::default();
        assert_eq!(time_left(61 * 60_000, &en), None);
        assert_eq!(time_left(60 * 60_000, &en), None);
        assert_eq!(time_left(59 * 60_000 + 59_999, &en).as_deref(), Some("Expires in 59 minutes"));
        assert_eq!(time_left(90_000, &en).as_deref(), Some("Expires in 1 minute"));
        assert_eq!(time_left(5_000, &en).as_deref(), Some("Expires in less than a minute"));
        assert_eq!(time_left(0, &en).as_deref(), Some("Time is up: this question is ending"));
        let de = crate::words::Words::for_tag("de").unwrap();
        assert_eq!(time_left(3 * 60_000, &de).as_deref(), Some("Läuft in 3 Minuten ab"));
    }

    #[test]
    fn ages_read_as_words() {
        assert_eq!(age(30_000), "just now");
        assert_eq!(age(60_000), "1 minute ago");
        assert_eq!(age(59 * 60_000), "59 minutes ago");
        assert_eq!(age(3 * 3_600_000), "3 hours ago");
        assert_eq!(age(49 * 3_600_000), "2 days ago");
    }
}
