//! Quiet hours: a daily span, in the person's own time zone, in which no push goes out. The
//! zone is an IANA name, so a span stays at the same local hours across daylight saving.

use jiff::Timestamp;
use jiff::civil::Time;
use jiff::tz::TimeZone;

use crate::error::FieldError;
use palaver_wire::push::QuietHours;

/// Checked quiet hours.
#[derive(Clone, Debug)]
pub struct Quiet {
    from: Time,
    until: Time,
    zone: TimeZone,
}

fn refusal(path: &str, code: &str, message: &str, fix: &str) -> FieldError {
    FieldError { code: code.into(), fix: fix.into(), message: message.into(), path: path.into() }
}

/// `HH:MM` on a 24-hour clock.
fn clock_time(text: &str) -> Option<Time> {
    let (hours, minutes) = text.trim().split_once(':')?;
    let well_formed = hours.len() == 2 && minutes.len() == 2;
    let (hours, minutes) = (hours.parse::<i8>().ok()?, minutes.parse::<i8>().ok()?);
    (well_formed && (0..24).contains(&hours) && (0..60).contains(&minutes))
        .then(|| Time::new(hours, minutes, 0, 0).ok())
        .flatten()
}

impl Quiet {
    /// Checks a person's quiet hours: every refusal at once, each at its path.
    pub fn check(hours: &QuietHours) -> Result<Self, Vec<FieldError>> {
        let mut refusals = Vec::new();
        let mut time = |path: &str, text: &str| {
            let time = clock_time(text);
            if time.is_none() {
                refusals.push(refusal(
                    path,
                    "INVALID_TIME",
                    "The time is not a time of day.",
                    "Give it as HH:MM on a 24-hour clock, like 22:00.",
                ));
            }
            time
        };
        let (from, until) = (time("quietHours.from", &hours.from), time("quietHours.until", &hours.until));
        let zone = TimeZone::get(hours.time_zone.trim()).ok();
        if zone.is_none() {
            refusals.push(refusal(
                "quietHours.timeZone",
                "INVALID_TIME_ZONE",
                "The time zone is not one Palaver knows.",
                "Give an IANA time zone name, like Europe/Berlin or America/New_York.",
            ));
        }
        if let (Some(from), Some(until)) = (from, until)
            && from == until
        {
            refusals.push(refusal(
                "quietHours.until",
                "EMPTY_QUIET_HOURS",
                "Quiet hours that start and end at the same time are empty.",
                "Choose an end time other than the start, or turn quiet hours off.",
            ));
        }
        match (from, until, zone) {
            (Some(from), Some(until), Some(zone)) if refusals.is_empty() => Ok(Self { from, until, zone }),
            _ => Err(refusals),
        }
    }

    /// Whether `now` falls in the quiet hours (`from` included, `until` not).
    pub fn holds(&self, now: Timestamp) -> bool {
        let local = now.to_zoned(self.zone.clone()).time();
        if self.from < self.until {
            self.from <= local && local < self.until
        } else {
            local >= self.from || local < self.until
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet(from: &str, until: &str, zone: &str) -> Result<Quiet, Vec<FieldError>> {
        Quiet::check(&QuietHours { from: from.into(), until: until.into(), time_zone: zone.into() })
    }

    fn at(utc: &str) -> Timestamp {
        utc.parse().unwrap()
    }

    #[test]
    fn a_span_over_midnight_holds_on_both_sides_of_it() {
        let night = quiet("22:00", "07:00", "UTC").unwrap();
        assert!(night.holds(at("2026-12-06T22:00:00Z")));
        assert!(night.holds(at("2026-12-06T23:59:00Z")));
        assert!(night.holds(at("2026-12-07T06:59:59Z")));
        assert!(!night.holds(at("2026-12-07T07:00:00Z")));
        assert!(!night.holds(at("2026-12-06T21:59:59Z")));
        assert!(!night.holds(at("2026-12-06T12:00:00Z")));
    }

    #[test]
    fn a_span_within_a_day_holds_only_inside_it() {
        let lunch = quiet("12:00", "13:30", "UTC").unwrap();
        assert!(lunch.holds(at("2026-12-06T12:00:00Z")));
        assert!(lunch.holds(at("2026-12-06T13:29:00Z")));
        assert!(!lunch.holds(at("2026-12-06T13:30:00Z")));
        assert!(!lunch.holds(at("2026-12-06T11:59:00Z")));
    }

    #[test]
    fn the_hours_are_the_persons_own_across_daylight_saving() {
        let night = quiet("22:00", "07:00", "Europe/Berlin").unwrap();
        // 06:30 in Berlin: UTC+1 in winter, UTC+2 in summer.
        assert!(night.holds(at("2026-12-07T05:30:00Z")));
        assert!(night.holds(at("2026-07-07T04:30:00Z")));
        // 07:30 in Berlin.
        assert!(!night.holds(at("2026-12-07T06:30:00Z")));
        assert!(!night.holds(at("2026-07-07T05:30:00Z")));
    }

    #[test]
    fn bad_hours_are_refused_at_their_paths() {
        let paths = |result: Result<Quiet, Vec<FieldError>>| {
            result.unwrap_err().into_iter().map(|refusal| refusal.path).collect::<Vec<_>>()
        };
        assert_eq!(
            paths(quiet("25:00", "7:00", "Mars/Olympus")),
            ["quietHours.from", "quietHours.until", "quietHours.timeZone"]
        );
        assert_eq!(paths(quiet("08:00", "08:00", "UTC")), ["quietHours.until"]);
        assert_eq!(paths(quiet("08:60", "09:00", "UTC")), ["quietHours.from"]);
    }
}
