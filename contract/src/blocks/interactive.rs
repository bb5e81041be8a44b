//! What a stepper's −/+ and a checklist's ticks do: the host side of their callbacks and the
//! checks the device makes before calling (`blocks/src/interactive.ts`).

use std::collections::{BTreeMap, HashSet};

use super::model::{Checklist, Stepper};
use crate::text::js_to_fixed;

/// The host action a stepper's −/+ call (`scaleStepper`).
pub const SCALE_STEPPER: &str = "scaleStepper";
/// The host action a checklist's ticks call (`toggleChecklist`).
pub const TOGGLE_CHECKLIST: &str = "toggleChecklist";

/// Whether `value` is a step the stepper can reach: within `min..=max`, on the grid of `step`
/// anchored on the value the agent wrote.
pub fn is_stepper_value_allowed(stepper: &Stepper, value: f64) -> bool {
    let steps = (value - stepper.value) / stepper.step.unwrap_or(1.0);
    value.is_finite() && stepper.min <= value && value <= stepper.max && (steps - steps.round()).abs() < 1e-9
}

/// The stepper at `value`: every item amount scaled from the block as the agent wrote it
/// (never from a previous result, so rounding does not drift), rounded to its decimals.
pub fn scale_stepper_block(original: &Stepper, value: f64) -> Stepper {
    let ratio = if original.value == 0.0 { 1.0 } else { value / original.value };
    let mut scaled = original.clone();
    scaled.value = value;
    for item in &mut scaled.items {
        let decimals = item.decimals.unwrap_or(0);
        let factor = 10f64.powi(i32::from(decimals));
        let amount = item.amount * ratio * factor;
        let rounded = if item.round.as_deref() == Some("up") { (amount - 1e-9).ceil() } else { js_round(amount) };
        item.amount = js_to_fixed(rounded / factor, usize::from(decimals)).parse().unwrap_or(rounded / factor);
    }
    scaled
}

/// JavaScript's `Math.round`: halves round up, towards positive infinity.
fn js_round(value: f64) -> f64 {
    (value + 0.5).floor()
}

/// The checklist after a tick: the ticked item takes `checked`, every other item the state the
/// device sent (a missing entry means unchecked).
pub fn apply_checklist_state(
    checklist: &Checklist,
    item_id: &str,
    checked: bool,
    state: &BTreeMap<String, bool>,
) -> Checklist {
    let mut next = checklist.clone();
    for item in &mut next.items {
        let ticked = if item.id == item_id { checked } else { state.get(&item.id) == Some(&true) };
        item.checked = Some(ticked);
    }
    next
}

/// The ids in a tick (`item_id` and the state's keys) that the checklist does not have, each
/// once. Linear in the tick's size, however many keys a device sends.
pub fn unknown_checklist_item_ids(checklist: &Checklist, item_id: &str, state: &BTreeMap<String, bool>) -> Vec<String> {
    let known: HashSet<&str> = checklist.items.iter().map(|item| item.id.as_str()).collect();
    // The state's keys are unique already; only `item_id` can repeat one of them.
    let state_ids = state.keys().map(String::as_str).filter(|id| *id != item_id);
    std::iter::once(item_id).chain(state_ids).filter(|id| !known.contains(id)).map(str::to_string).collect()
}
