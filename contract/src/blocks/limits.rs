//! The reply document's limits (`BLOCK_LIMITS`) and closed value lists.

pub const MAX_BLOCKS: usize = 50;
pub const MAX_DEPTH: usize = 2;
pub const MAX_DATASETS: usize = 8;
pub const DATASET_COLUMN_MAX: usize = 12;
pub const DATASET_ROW_MAX: usize = 500;
pub const REF_LIMIT_MAX: i64 = 1000;
pub const ACTION_ELEMENTS_MAX: usize = 25;
pub const COLUMNS_MIN: usize = 2;
pub const COLUMNS_MAX: usize = 4;

pub const HEADING_TEXT_MAX: usize = 200;
pub const BLOCK_TEXT_MAX: usize = 4000;
pub const DOCUMENT_TEXT_MAX: usize = 20_000;
pub const BADGE_TEXT_MAX: usize = 80;
pub const CONTEXT_TEXT_MAX: usize = 280;
pub const CARD_TITLE_MAX: usize = 120;
pub const CARD_EYEBROW_MAX: usize = 60;
pub const COPY_TEXT_MAX: usize = 4000;
pub const HTML_MAX_BYTES: usize = 100_000;

pub const METRIC_LABEL_MAX: usize = 80;
pub const METRIC_VALUE_MAX: usize = 80;
pub const METRIC_DELTA_MAX: usize = 40;
pub const METRIC_HELPER_MAX: usize = 120;

pub const CHECKLIST_ID_MAX: usize = 31;
pub const CHECKLIST_ITEM_ID_MAX: usize = 32;
pub const CHECKLIST_ITEMS_MIN: usize = 1;
pub const CHECKLIST_ITEMS_MAX: usize = 30;
pub const CHECKLIST_ITEM_TEXT_MAX: usize = 120;
pub const CHECKLIST_ITEM_META_MAX: usize = 40;
pub const CHECKLIST_ITEM_DETAIL_MAX: usize = 280;
pub const CHECKLIST_TITLE_MAX: usize = 120;

pub const GALLERY_IMAGES_MIN: usize = 2;
pub const GALLERY_IMAGES_MAX: usize = 6;
pub const GALLERY_ALT_MAX: usize = 200;
pub const GALLERY_CAPTION_MAX: usize = 120;

pub const LIST_ITEMS_MIN: usize = 1;
pub const LIST_ITEMS_MAX: usize = 12;
pub const LIST_ITEM_TITLE_MAX: usize = 120;
pub const LIST_ITEM_TEXT_MAX: usize = 500;
pub const LIST_ITEM_META_MAX: usize = 40;

pub const STEPPER_ID_MAX: usize = 54;
pub const STEPPER_LABEL_MAX: usize = 80;
pub const STEPPER_UNIT_MAX: usize = 40;
pub const STEPPER_NOTE_MAX: usize = 280;
pub const STEPPER_ITEMS_MAX: usize = 12;
pub const STEPPER_ITEM_UNIT_MAX: usize = 20;
pub const STEPPER_DECIMALS_MAX: i64 = 3;

/// Bar charts above this many categories get a warning.
pub const BAR_CATEGORY_WARNING: usize = 60;
/// Donut charts above this many slices get a warning.
pub const DONUT_SLICE_WARNING: usize = 8;

pub const HEADING_SIZES: &[&str] = &["sm", "md", "lg", "xl", "2xl"];
pub const METRIC_TRENDS: &[&str] = &["up", "down", "flat"];
pub const BADGE_STATUSES: &[&str] = &["info", "error", "warning", "success", "neutral", "active"];
pub const CHART_KINDS: &[&str] = &["line", "bar", "area", "donut"];
pub const CHART_HEIGHTS: &[&str] = &["sm", "md", "lg"];
pub const HTML_HEIGHTS: &[&str] = &["sm", "md", "lg"];
pub const CALLOUT_STATUSES: &[&str] = &["info", "warning", "alert"];
pub const BUTTON_VARIANTS: &[&str] = &["primary", "secondary", "outline", "ghost", "destructive"];
pub const STEPPER_ROUNDING: &[&str] = &["nearest", "up"];
pub const DATASET_COLUMN_TYPES: &[&str] = &["string", "number", "date"];
pub const DATASET_GRAINS: &[&str] = &["hour", "day", "week", "month"];
/// Block types a copy action may target.
pub const COPY_TARGET_TYPES: &[&str] = &["stepper", "checklist", "list", "table", "text"];
