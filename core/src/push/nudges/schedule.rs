//! When an unanswered ask is pushed again: a list of moments, each a delay after the ask was
//! made (`10m`) or a time before it expires (`-1h`), as configured (`PALAVER_PUSH_NUDGES`).
//! Moments past the deadline, or not after the one before, are dropped, so an approval that
//! lives an hour is nudged at most at the moments that fit in its hour.

use std::str::FromStr;

use jiff::{SignedDuration, Timestamp};

/// The most moments a schedule may have.
const MOMENTS_MAX: usize = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Moment {
    AfterAsked(SignedDuration),
    BeforeDeadline(SignedDuration),
}

/// The configured re-nudges: at most as many pushes again as it has moments.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NudgeSchedule(Vec<Moment>);

fn duration(text: &str) -> Option<SignedDuration> {
    let split = text.find(|character: char| !character.is_ascii_digit())?;
    let (count, unit) = text.split_at(split);
    let count: i64 = count.parse().ok().filter(|count| *count > 0)?;
    let seconds = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => return None,
    };
    Some(SignedDuration::from_secs(count.checked_mul(seconds)?))
}

impl FromStr for NudgeSchedule {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text.is_empty() || text == "off" {
            return Ok(Self::default());
        }
        let moments = text
            .split(',')
            .map(|item| {
                let item = item.trim();
                let moment = match item.strip_prefix('-') {
                    Some(before) => duration(before).map(Moment::BeforeDeadline),
                    None => duration(item).map(Moment::AfterAsked),
                };
                moment.ok_or_else(|| {
                    format!(
                        "`{item}` is not a moment: give a delay after the ask (10m, 1h, 2d) or, with a minus, a time before it expires (-1h)"
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        if moments.len() > MOMENTS_MAX {
            return Err(format!("at most {MOMENTS_MAX} re-nudges may be configured"));
        }
        Ok(Self(moments))
    }
}

impl NudgeSchedule {
    /// The moments an ask made at `asked` that expires at `deadline` is pushed again, in order.
    pub fn moments(&self, asked: Timestamp, deadline: Option<Timestamp>) -> Vec<Timestamp> {
        let mut moments: Vec<Timestamp> = self
            .0
            .iter()
            .filter_map(|moment| match moment {
                Moment::AfterAsked(delay) => asked.checked_add(*delay).ok(),
                Moment::BeforeDeadline(ahead) => deadline?.checked_sub(*ahead).ok(),
            })
            .filter(|moment| *moment > asked && deadline.is_none_or(|deadline| *moment < deadline))
            .collect();
        moments.sort();
        moments.dedup();
        moments
    }

    /// The moment of the nudge after `sent` of them, if any is left.
    pub fn next(&self, asked: Timestamp, deadline: Option<Timestamp>, sent: usize) -> Option<Timestamp> {
        self.moments(asked, deadline).get(sent).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(utc: &str) -> Timestamp {
        utc.parse().unwrap()
    }

    #[test]
    fn moments_count_from_the_ask_or_back_from_its_deadline() {
        let schedule: NudgeSchedule = "10m, 1h, -1h".parse().unwrap();
        let asked = at("2026-12-06T08:00:00Z");
        assert_eq!(
            schedule.moments(asked, Some(at("2026-12-07T08:00:00Z"))),
            [at("2026-12-06T08:10:00Z"), at("2026-12-06T09:00:00Z"), at("2026-12-07T07:00:00Z"),]
        );
        assert_eq!(schedule.next(asked, Some(at("2026-12-07T08:00:00Z")), 2), Some(at("2026-12-07T07:00:00Z")));
        assert_eq!(schedule.next(asked, Some(at("2026-12-07T08:00:00Z")), 3), None);
    }

    #[test]
    fn moments_outside_the_asks_life_are_dropped() {
        let schedule: NudgeSchedule = "10m,1h,-1h".parse().unwrap();
        let asked = at("2026-12-06T08:00:00Z");
        // An approval that lives an hour: 1h is its deadline, -1h is when it was made.
        assert_eq!(schedule.moments(asked, Some(at("2026-12-06T09:00:00Z"))), [at("2026-12-06T08:10:00Z")]);
        // No deadline: nothing counts back from it.
        assert_eq!(schedule.moments(asked, None), [at("2026-12-06T08:10:00Z"), at("2026-12-06T09:00:00Z")]);
        // Two moments that fall together push once.
        let twice: NudgeSchedule = "30m,-30m".parse().unwrap();
        assert_eq!(twice.moments(asked, Some(at("2026-12-06T09:00:00Z"))), [at("2026-12-06T08:30:00Z")]);
    }

    #[test]
    fn a_schedule_is_read_or_refused_with_the_reason() {
        assert_eq!("".parse::<NudgeSchedule>().unwrap(), NudgeSchedule::default());
        assert_eq!("off".parse::<NudgeSchedule>().unwrap(), NudgeSchedule::default());
        for bad in ["10", "m", "0m", "-", "10 minutes", "1h,,2h", "99999999999999999d"] {
            assert!(bad.parse::<NudgeSchedule>().is_err(), "{bad}");
        }
        assert!("1m,2m,3m,4m,5m,6m,7m,8m,9m,10m,11m".parse::<NudgeSchedule>().unwrap_err().contains("at most 10"));
    }
}
