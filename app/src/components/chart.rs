//! Charts as plain SVG: line, area, bar and donut, each titled and labelled, with the data as a
//! table for screen readers. Small on purpose: no charting crate fits the wasm budget, and these
//! four shapes need little more than scaling.

use leptos::prelude::*;

use palaver_contract::blocks::model::ChartKind;
use palaver_contract::text::js_number;

const WIDTH: f64 = 600.0;
/// Room for axis labels.
const MARGIN_LEFT: f64 = 48.0;
const MARGIN_BOTTOM: f64 = 28.0;
const MARGIN_TOP: f64 = 12.0;
/// Slice colours come from the stylesheet (`--chart-1` … `--chart-8`).
const PALETTE_SIZE: usize = 8;

/// Pixel height for a chart's `height`.
pub fn chart_height(height: Option<&str>) -> f64 {
    match height {
        Some("sm") => 160.0,
        Some("lg") => 320.0,
        _ => 240.0,
    }
}

/// One plotted value.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartPoint {
    pub label: String,
    pub value: f64,
}

/// Maps values onto the plot's vertical extent; the baseline always includes zero.
struct Scale {
    low: f64,
    high: f64,
    top: f64,
    bottom: f64,
}

impl Scale {
    fn new(points: &[ChartPoint], height: f64) -> Self {
        let low = points.iter().map(|point| point.value).fold(0.0, f64::min);
        let mut high = points.iter().map(|point| point.value).fold(0.0, f64::max);
        if high == low {
            high = low + 1.0;
        }
        Scale { low, high, top: MARGIN_TOP, bottom: height - MARGIN_BOTTOM }
    }

    fn y(&self, value: f64) -> f64 {
        self.bottom - (value - self.low) / (self.high - self.low) * (self.bottom - self.top)
    }
}

/// The x position of point `index` of `count`, spread across the plot.
fn x_at(index: usize, count: usize) -> f64 {
    let span = WIDTH - MARGIN_LEFT - 12.0;
    if count <= 1 { MARGIN_LEFT + span / 2.0 } else { MARGIN_LEFT + span * index as f64 / (count - 1) as f64 }
}

/// The path of a line through the points, and of the area under it.
pub fn line_paths(points: &[ChartPoint], height: f64) -> (String, String) {
    let scale = Scale::new(points, height);
    let coords: Vec<(f64, f64)> =
        points.iter().enumerate().map(|(index, point)| (x_at(index, points.len()), scale.y(point.value))).collect();
    let line = coords
        .iter()
        .enumerate()
        .map(|(index, (x, y))| format!("{}{x:.1},{y:.1}", if index == 0 { "M" } else { "L" }))
        .collect::<Vec<_>>()
        .join(" ");
    let baseline = scale.y(0.0_f64.clamp(scale.low, scale.high));
    let area = match (coords.first(), coords.last()) {
        (Some((first, _)), Some((last, _))) => format!("{line} L{last:.1},{baseline:.1} L{first:.1},{baseline:.1} Z"),
        _ => String::new(),
    };
    (line, area)
}

/// Each slice of a donut as (offset, length) along a circle of circumference 100.
pub fn donut_slices(points: &[ChartPoint]) -> Vec<(f64, f64)> {
    let total: f64 = points.iter().map(|point| point.value.max(0.0)).sum();
    if total <= 0.0 {
        return Vec::new();
    }
    let mut offset = 0.0;
    points
        .iter()
        .map(|point| {
            let length = point.value.max(0.0) / total * 100.0;
            let slice = (offset, length);
            offset += length;
            slice
        })
        .collect()
}

#[component]
pub fn ChartView(
    kind: ChartKind,
    points: Vec<ChartPoint>,
    title: Option<String>,
    height: Option<String>,
    #[prop(default = false)] legend: bool,
    empty_text: Option<String>,
) -> impl IntoView {
    let label = title.clone().unwrap_or_else(|| "Chart".to_string());
    if points.is_empty() {
        return view! {
            <figure class="chart chart--empty" data-testid="chart">
                <p>{empty_text.unwrap_or_else(|| "No data to show.".to_string())}</p>
            </figure>
        }
        .into_any();
    }
    let height = chart_height(height.as_deref());
    let plot = match kind {
        ChartKind::Donut => donut(&points).into_any(),
        ChartKind::Bar => bars(&points, height).into_any(),
        ChartKind::Line | ChartKind::Area => lines(&points, height, kind == ChartKind::Area).into_any(),
    };
    let view_box = if kind == ChartKind::Donut { "0 0 42 42".to_string() } else { format!("0 0 {WIDTH} {height}") };
    let show_legend = legend || kind == ChartKind::Donut;
    let legend_points = points.clone();
    view! {
        <figure class="chart" data-testid="chart" data-kind=format!("{kind:?}").to_lowercase()>
            {title.map(|title| view! { <figcaption class="chart__title">{title}</figcaption> })}
            <svg
                class="chart__svg"
                viewBox=view_box
                role="img"
                aria-label=label.clone()
                style=(kind != ChartKind::Donut).then(|| format!("aspect-ratio: {WIDTH} / {height}"))
            >
                <title>{label.clone()}</title>
                {plot}
            </svg>
            {show_legend
                .then(|| {
                    view! {
                        <ul class="chart__legend" aria-hidden="true">
                            {legend_points
                                .iter()
                                .enumerate()
                                .map(|(index, point)| {
                                    view! {
                                        <li>
                                            <span class=format!(
                                                "chart__swatch chart__fill-{}",
                                                index % PALETTE_SIZE + 1,
                                            )></span>
                                            {point.label.clone()}
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                    }
                })}
            <table class="visually-hidden">
                <caption>{label}</caption>
                <thead>
                    <tr>
                        <th scope="col">"Label"</th>
                        <th scope="col">"Value"</th>
                    </tr>
                </thead>
                <tbody>
                    {points
                        .into_iter()
                        .map(|point| {
                            view! {
                                <tr>
                                    <th scope="row">{point.label}</th>
                                    <td>{js_number(point.value)}</td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </figure>
    }
    .into_any()
}

/// The value axis (lowest and highest value) and the first and last category labels.
fn axes(points: &[ChartPoint], height: f64) -> impl IntoView + use<> {
    let scale = Scale::new(points, height);
    let last = points.len() - 1;
    let mut labelled = vec![(0, points[0].label.clone())];
    if last > 0 {
        labelled.push((last, points[last].label.clone()));
    }
    view! {
        <g class="chart__axis" aria-hidden="true">
            <line x1=MARGIN_LEFT y1=scale.bottom x2=WIDTH y2=scale.bottom />
            <text x=MARGIN_LEFT - 6.0 y=scale.y(scale.high) + 4.0 text-anchor="end">
                {js_number(scale.high)}
            </text>
            <text x=MARGIN_LEFT - 6.0 y=scale.bottom text-anchor="end">
                {js_number(scale.low)}
            </text>
            {labelled
                .into_iter()
                .map(|(index, label)| {
                    let anchor = if index == 0 && last > 0 {
                        "start"
                    } else if index == last && last > 0 {
                        "end"
                    } else {
                        "middle"
                    };
                    view! {
                        <text x=x_at(index, points.len()) y=height - 8.0 text-anchor=anchor>
                            {label}
                        </text>
                    }
                })
                .collect_view()}
        </g>
    }
}

fn lines(points: &[ChartPoint], height: f64, filled: bool) -> impl IntoView + use<> {
    let (line, area) = line_paths(points, height);
    view! {
        {axes(points, height)}
        {filled.then(|| view! { <path class="chart__area" d=area /> })}
        <path class="chart__line" d=line fill="none" />
    }
}

fn bars(points: &[ChartPoint], height: f64) -> impl IntoView + use<> {
    let scale = Scale::new(points, height);
    let slot = (WIDTH - MARGIN_LEFT - 12.0) / points.len() as f64;
    let zero = scale.y(0.0);
    let rects = points
        .iter()
        .enumerate()
        .map(|(index, point)| {
            let y = scale.y(point.value);
            let (top, size) = if y < zero { (y, zero - y) } else { (zero, y - zero) };
            view! {
                <rect
                    class="chart__bar"
                    x=MARGIN_LEFT + slot * index as f64 + slot * 0.15
                    y=top
                    width=slot * 0.7
                    height=size.max(0.5)
                >
                    <title>{format!("{}: {}", point.label, js_number(point.value))}</title>
                </rect>
            }
        })
        .collect_view();
    let labels: Vec<(usize, String)> = points.iter().map(|point| point.label.clone()).enumerate().collect();
    let every = labels.len().div_ceil(8).max(1);
    view! {
        <g class="chart__axis" aria-hidden="true">
            <line x1=MARGIN_LEFT y1=zero x2=WIDTH y2=zero />
            <text x=MARGIN_LEFT - 6.0 y=scale.y(scale.high) + 4.0 text-anchor="end">
                {js_number(scale.high)}
            </text>
            {labels
                .into_iter()
                .filter(|(index, _)| index % every == 0)
                .map(|(index, label)| {
                    view! {
                        <text x=MARGIN_LEFT + slot * (index as f64 + 0.5) y=height - 8.0 text-anchor="middle">
                            {label}
                        </text>
                    }
                })
                .collect_view()}
        </g>
        {rects}
    }
}

fn donut(points: &[ChartPoint]) -> impl IntoView + use<> {
    // r = 100 / 2π, so the circumference is 100 and dash lengths are percentages.
    let radius = 15.915_494;
    donut_slices(points)
        .into_iter()
        .zip(points.iter().map(|point| format!("{}: {}", point.label, js_number(point.value))))
        .enumerate()
        .map(|(index, ((offset, length), title))| {
            view! {
                <circle
                    class=format!("chart__slice chart__stroke-{}", index % PALETTE_SIZE + 1)
                    cx="21"
                    cy="21"
                    r=radius
                    fill="none"
                    stroke-width="6"
                    stroke-dasharray=format!("{length:.3} {:.3}", 100.0 - length)
                    stroke-dashoffset=format!("{:.3}", 25.0 - offset)
                >
                    <title>{title}</title>
                </circle>
            }
        })
        .collect_view()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(values: &[f64]) -> Vec<ChartPoint> {
        values
            .iter()
            .enumerate()
            .map(|(index, value)| ChartPoint { label: format!("p{index}"), value: *value })
            .collect()
    }

    #[test]
    fn a_line_spans_the_plot_and_its_area_closes_on_the_baseline() {
        let (line, area) = line_paths(&points(&[0.0, 10.0]), 240.0);
        assert_eq!(line, "M48.0,212.0 L588.0,12.0");
        assert_eq!(area, "M48.0,212.0 L588.0,12.0 L588.0,212.0 L48.0,212.0 Z");
    }

    #[test]
    fn donut_slices_share_the_circle() {
        let slices = donut_slices(&points(&[1.0, 3.0]));
        assert_eq!(slices, [(0.0, 25.0), (25.0, 75.0)]);
        assert!(donut_slices(&points(&[0.0])).is_empty());
    }
}
