//! The leaf blocks' views: metrics, images, html frames, charts, tables, elements and buttons.

use leptos::prelude::*;
use serde_json::Value;

use super::interactive::*;
use super::state::DocState;
use crate::components::chart::{ChartPoint, ChartView};
use crate::navigation::stays_on_this_site;
use palaver_contract::blocks::model::{Action, Button, Chart, ColumnType, Dataset, Element, Html, Metric, Table};
use palaver_contract::blocks::{HtmlHeight, cell_text, frame_srcdoc};
use palaver_contract::site_path::is_site_path;

pub(super) fn metric_view(metric: Metric) -> impl IntoView {
    let trend = metric.trend.as_deref().map(|trend| match trend {
        "up" => ("▲", "up"),
        "down" => ("▼", "down"),
        _ => ("▬", "flat"),
    });
    view! {
        <div class="metric">
            <p class="metric__label">{metric.label}</p>
            <p class="metric__value">{metric.value}</p>
            {metric
                .delta
                .map(|delta| {
                    view! {
                        <p class=format!(
                            "metric__delta metric__delta--{}",
                            trend.map_or("flat", |(_, name)| name),
                        )>
                            {trend
                                .map(|(arrow, name)| {
                                    view! {
                                        <span aria-label=format!("trend {name}")>{arrow}</span>
                                        " "
                                    }
                                })} {delta}
                        </p>
                    }
                })}
            {metric.helper.map(|helper| view! { <p class="metric__helper">{helper}</p> })}
        </div>
    }
}

pub(super) fn image_view(src: String, alt: String, caption: Option<String>, state: DocState) -> impl IntoView {
    // `file:` refs name uploads the browser cannot fetch directly, and a streaming document's
    // image its check would refuse must not be fetched: show the alt text instead.
    let image = if src.starts_with("file:") || !state.may_load_image(&src) {
        let label = alt.clone();
        view! {
            <div class="blocks-image__missing" role="img" aria-label=label>
                {alt}
            </div>
        }
        .into_any()
    } else {
        view! { <img class="blocks-image" src=src alt=alt loading="lazy" referrerpolicy="no-referrer" /> }.into_any()
    };
    view! {
        <figure class="blocks-figure">
            {image} {caption.map(|caption| view! { <figcaption>{caption}</figcaption> })}
        </figure>
    }
}

pub(super) fn html_frame(html: Html, state: DocState) -> AnyView {
    let height = HtmlHeight::parse(html.height.as_deref()).pixels();
    // Only the server sanitizes html, once the reply is complete: until then it is not drawn.
    if state.streaming() {
        return view! {
            <figure class="blocks-html" data-testid="html-block-pending">
                <p class="blocks-html__pending" style=format!("min-height: {height}px")>
                    "The preview is shown when the reply is complete."
                </p>
                <figcaption>"Agent-generated preview"</figcaption>
            </figure>
        }
        .into_any();
    }
    let title = html.title.clone().unwrap_or_else(|| "Agent-generated preview".to_string());
    // `allow-same-origin` without `allow-scripts`: no script runs in the frame (whatever its
    // HTML says), so only the page can use the shared origin, to read how tall the content is;
    // the block's height is then the most the frame takes (docs/security.md, html blocks).
    view! {
        <figure class="blocks-html" data-testid="html-block">
            <iframe
                sandbox="allow-same-origin"
                referrerpolicy="no-referrer"
                srcdoc=frame_srcdoc(&html.html)
                title=title
                style=format!("height: {height}px")
                on:load=move |event| crate::browser::fit_frame(&event, height)
            ></iframe>
            <figcaption>"Agent-generated preview"</figcaption>
        </figure>
    }
    .into_any()
}

pub(super) fn chart_view(chart: Chart, state: DocState) -> impl IntoView {
    let id = chart.id.clone().unwrap_or_default();
    let points = move || match (&chart.points, &chart.x, &chart.y) {
        (Some(points), _, _) => {
            points.iter().map(|point| ChartPoint { label: point.label.clone(), value: point.value }).collect()
        }
        (None, Some(x), Some(y)) => {
            let data = state.selected.with(|selected| selected.get(&id).cloned()).or_else(|| chart.data.clone());
            data.map(|data| state.points(&data, x, y)).unwrap_or_default()
        }
        _ => Vec::new(),
    };
    let (kind, title, height, legend, empty_text) = (
        chart.kind,
        chart.title.clone(),
        chart.height.clone(),
        chart.legend.unwrap_or(false),
        chart.empty_text.clone(),
    );
    move || {
        view! {
            <ChartView
                kind
                points=points()
                title=title.clone()
                height=height.clone()
                legend
                empty_text=empty_text.clone()
            />
        }
    }
}

pub(super) fn table_view(table: Table, state: DocState) -> impl IntoView {
    let id = table.id.clone().unwrap_or_default();
    let title = table.title.clone();
    move || {
        let data = state.selected.with(|selected| selected.get(&id).cloned()).unwrap_or_else(|| table.data.clone());
        let Some(Dataset::Inline(dataset)) = state.datasets.with_value(|datasets| datasets.get(&data).cloned()) else {
            return view! { <p class="blocks-context">"This table's data is not available here."</p> }.into_any();
        };
        let names: Vec<String> =
            table.columns.clone().unwrap_or_else(|| dataset.columns.iter().map(|column| column.name.clone()).collect());
        let positions: Vec<Option<usize>> =
            names.iter().map(|name| dataset.columns.iter().position(|column| &column.name == name)).collect();
        let numeric: Vec<bool> =
            positions.iter().map(|at| at.is_some_and(|at| dataset.columns[at].kind == ColumnType::Number)).collect();
        view! {
            <div class="blocks-table" data-testid="table">
                <table>
                    {title.clone().map(|title| view! { <caption>{title}</caption> })} <thead>
                        <tr>
                            {names
                                .iter()
                                .map(|name| view! { <th scope="col">{name.replace('_', " ")}</th> })
                                .collect_view()}
                        </tr>
                    </thead>
                    <tbody>
                        {dataset
                            .rows
                            .iter()
                            .map(|row| {
                                view! {
                                    <tr>
                                        {positions
                                            .iter()
                                            .zip(&numeric)
                                            .map(|(at, number)| {
                                                view! {
                                                    <td class:numeric=*number>
                                                        {at
                                                            .and_then(|at| row.get(at))
                                                            .map(cell_text)
                                                            .unwrap_or_default()}
                                                    </td>
                                                }
                                            })
                                            .collect_view()}
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            </div>
        }
        .into_any()
    }
}

pub(super) fn element_view(element: Element, state: DocState) -> AnyView {
    match element {
        Element::Segmented(segmented) => {
            let target = StoredValue::new(segmented.target);
            // Until one is picked, the first option is the one shown.
            let shown =
                move || target.with_value(|target| state.selected.with(|selected| selected.get(target).cloned()));
            view! {
                <div class="segmented" role="group" aria-label="Show" data-testid=format!("segmented-{}", segmented.id)>
                    {segmented
                        .options
                        .into_iter()
                        .enumerate()
                        .map(|(index, option)| {
                            let data = StoredValue::new(option.data);
                            let pressed = move || {
                                shown().map_or(index == 0, |shown| data.with_value(|data| shown == *data))
                            };
                            let pick = move |_| {
                                state
                                    .selected
                                    .update(|selected| {
                                        selected.insert(target.get_value(), data.get_value());
                                    })
                            };
                            view! {
                                <button
                                    type="button"
                                    class="segmented__option"
                                    aria-pressed=move || pressed().to_string()
                                    on:click=pick
                                >
                                    {option.label}
                                </button>
                            }
                        })
                        .collect_view()}
                </div>
            }
            .into_any()
        }
        Element::Button(button) => button_view(button, state),
    }
}

pub(super) fn button_view(button: Button, state: DocState) -> AnyView {
    let class = format!("block-button block-button--{}", button.variant.as_deref().unwrap_or("secondary"));
    let testid = format!("block-button-{}", button.id);
    match button.action {
        Action::Open { url, route } => {
            let href = url.filter(|url| is_web_link(url)).or_else(|| route.filter(|route| is_site_path(route)));
            match href {
                Some(href) => {
                    let external = is_web_link(&href);
                    // A route is checked again where it is followed, by the browser's own URL parser.
                    let route = (!external).then(|| href.clone());
                    view! {
                        <a
                            class=class
                            href=href
                            data-testid=testid
                            target=external.then_some("_blank")
                            rel=external.then_some("noopener noreferrer")
                            on:click=move |event| {
                                if route.as_deref().is_some_and(|route| !stays_on_this_site(route)) {
                                    event.prevent_default();
                                }
                            }
                        >
                            {button.text}
                        </a>
                    }
                    .into_any()
                }
                None => view! {
                    <button type="button" class=class disabled title="This link is not allowed">
                        {button.text}
                    </button>
                }
                .into_any(),
            }
        }
        Action::Reply { text } => {
            let reply = state.actions.map(|actions| actions.reply);
            view! {
                <button
                    type="button"
                    class=class
                    data-testid=testid
                    disabled=reply.is_none()
                    on:click=move |_| {
                        if let Some(reply) = reply {
                            reply.run(text.clone())
                        }
                    }
                >
                    {button.text}
                </button>
            }
            .into_any()
        }
        Action::Select { target, data } => view! {
            <button
                type="button"
                class=class
                data-testid=testid
                on:click=move |_| {
                    state
                        .selected
                        .update(|selected| {
                            selected.insert(target.clone(), data.clone());
                        })
                }
            >
                {button.text}
            </button>
        }
        .into_any(),
        Action::Copy { text, target } => {
            let copied = RwSignal::new(false);
            view! {
                <button
                    type="button"
                    class=class
                    data-testid=testid
                    on:click=move |_| {
                        let content = match (&text, &target) {
                            (Some(text), _) => text.clone(),
                            (None, Some(target)) => state.plain_text(target),
                            (None, None) => String::new(),
                        };
                        copy_to_clipboard(content, copied);
                    }
                >
                    {move || if copied.get() { "Copied".to_string() } else { button.text.clone() }}
                </button>
            }
            .into_any()
        }
        Action::Callback { name, payload } => {
            let status = RwSignal::new(None::<String>);
            let busy = RwSignal::new(false);
            view! {
                <button
                    type="button"
                    class=class
                    data-testid=testid
                    disabled=move || busy.get()
                    on:click=move |_| {
                        let payload = Value::Object(payload.clone().unwrap_or_default());
                        call_host(state, name.clone(), payload, None, busy, status);
                    }
                >
                    {button.text}
                </button>
                {move || {
                    status
                        .get()
                        .map(|status| {
                            view! {
                                <span class="blocks-status" role="status">
                                    {status}
                                </span>
                            }
                        })
                }}
            }
            .into_any()
        }
    }
}

/// An http(s) URL, the only links an `open` action may open in a new tab.
pub(super) fn is_web_link(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    lower.starts_with("https://") || lower.starts_with("http://")
}

pub(super) fn copy_to_clipboard(text: String, copied: RwSignal<bool>) {
    crate::browser::copy_text(text, copied);
}
