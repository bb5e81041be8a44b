//! The block renderer: a reply document as semantic, accessible HTML. Every block type has its
//! view; steppers and checklists keep their state and call host actions; buttons reply, open
//! links, switch a chart's dataset, copy text or call the host.

use std::collections::{BTreeMap, HashMap};

use leptos::prelude::*;
use serde_json::{Map, Value, json};

use super::chart::{ChartPoint, ChartView};
use crate::markdown;
use crate::navigation::stays_on_this_site;
use palaver_contract::blocks::model::{
    Action, Block, BlocksDocument, Button, Chart, ColumnType, Dataset, Element, Html, Metric, Stepper, Table,
};
use palaver_contract::blocks::{
    BlocksCheck, HtmlHeight, block_plain_text, cell_text, checklist_element_id, document_of, frame_srcdoc,
    is_stepper_value_allowed, parse_blocks_partial, scale_stepper_block, stepper_element_ids,
};
use palaver_contract::site_path::is_site_path;

/// What a document's buttons can do beyond the document, provided by the page that shows it.
#[derive(Clone, Copy)]
pub struct BlockActionsContext {
    /// Sends a `reply` action's text as the user's next message.
    pub reply: Callback<String>,
    /// The conversation the document belongs to (host callbacks are checked against it).
    pub history_id: Signal<Option<String>>,
}

/// One document's shared state.
#[derive(Clone, Copy)]
struct DocState {
    datasets: StoredValue<BTreeMap<String, Dataset>>,
    /// The dataset each chart or table shows, by block id, after a select.
    selected: RwSignal<HashMap<String, String>>,
    /// Steppers and checklists as they are now (host callbacks replace them), by id.
    live: StoredValue<HashMap<String, RwSignal<Block>>>,
    /// Every block with an id as written, for copy targets.
    written: StoredValue<HashMap<String, Block>>,
    actions: Option<BlockActionsContext>,
}

impl DocState {
    fn new(document: &BlocksDocument) -> Self {
        let mut live = HashMap::new();
        let mut written = HashMap::new();
        fn collect(
            blocks: &[Block],
            live: &mut HashMap<String, RwSignal<Block>>,
            written: &mut HashMap<String, Block>,
        ) {
            for block in blocks {
                if let Some(id) = block.id() {
                    written.insert(id.to_string(), block.clone());
                    if matches!(block, Block::Stepper(_) | Block::Checklist(_)) {
                        live.insert(id.to_string(), RwSignal::new(block.clone()));
                    }
                }
                collect(block.children(), live, written);
            }
        }
        collect(&document.blocks, &mut live, &mut written);
        DocState {
            datasets: StoredValue::new(document.datasets.clone()),
            selected: RwSignal::new(HashMap::new()),
            live: StoredValue::new(live),
            written: StoredValue::new(written),
            actions: use_context::<BlockActionsContext>(),
        }
    }

    fn live(&self, id: &str) -> Option<RwSignal<Block>> {
        self.live.with_value(|live| live.get(id).copied())
    }

    /// Puts blocks a host returned in place of the blocks with their ids.
    #[cfg(feature = "hydrate")]
    fn replace(&self, blocks: Vec<Block>) {
        for block in blocks {
            if let Some(slot) = block.id().and_then(|id| self.live(id)) {
                slot.set(block);
            }
        }
    }

    /// The plain text of the block `id`, as it is now.
    fn plain_text(&self, id: &str) -> String {
        let block = match self.live(id) {
            Some(live) => Some(live.get_untracked()),
            None => self.written.with_value(|written| written.get(id).cloned()),
        };
        block
            .map(|block| self.datasets.with_value(|datasets| block_plain_text(&block, &HashMap::new(), datasets)))
            .unwrap_or_default()
    }

    /// The points of dataset `name` along columns `x` and `y` (inline datasets only).
    fn points(&self, name: &str, x: &str, y: &str) -> Vec<ChartPoint> {
        self.datasets.with_value(|datasets| {
            let Some(Dataset::Inline(dataset)) = datasets.get(name) else { return Vec::new() };
            let column = |wanted: &str| dataset.columns.iter().position(|column| column.name == wanted);
            let (Some(x), Some(y)) = (column(x), column(y)) else { return Vec::new() };
            dataset
                .rows
                .iter()
                .filter_map(|row| Some(ChartPoint { label: cell_text(row.get(x)?), value: row.get(y)?.as_f64()? }))
                .collect()
        })
    }
}

/// A checked reply: its blocks, or (for a document that did not validate) a banner with the
/// errors and the raw text. A reply that is not a document at all is shown as markdown.
#[component]
pub fn BlocksReply(check: BlocksCheck, raw: String) -> impl IntoView {
    if let Some(document) = check.doc {
        return view! { <BlocksDocumentView document /> }.into_any();
    }
    if check.is_prose() {
        return view! { <div class="markdown" inner_html=markdown::to_html(document_of(&raw))></div> }.into_any();
    }
    view! {
        <div class="blocks-error" role="alert" data-testid="blocks-error">
            <p class="blocks-error__title">"This reply could not be shown: its document has errors."</p>
            <ul>
                {check
                    .errors
                    .into_iter()
                    .map(|error| {
                        view! {
                            <li>
                                <code>{error.path}</code>
                                " "
                                <code>{error.code.as_str()}</code>
                                " "
                                {error.message}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
            <details>
                <summary>"Show the reply as sent"</summary>
                <pre class="blocks-error__raw">{raw}</pre>
            </details>
        </div>
    }
    .into_any()
}

/// A document's blocks. In the browser the renderer (with its charts) is a wasm chunk of its own:
/// a page that shows a document fetches it before it is hydrated (`crate::hydration::prepare`),
/// a document that arrives later fetches it when it first shows, and a chat without documents
/// never downloads it.
#[component]
pub fn BlocksDocumentView(document: BlocksDocument) -> impl IntoView {
    #[cfg(feature = "hydrate")]
    return renderer::view_when_loaded(Rendered::Document(document));
    #[cfg(not(feature = "hydrate"))]
    document_view(document)
}

/// A reply document still streaming: its complete top-level blocks as they arrive, then a
/// pending tail. They are shown inert (nothing to click) until the checked document
/// replaces them when the reply ends.
#[component]
pub fn StreamingBlocks(text: String) -> impl IntoView {
    #[cfg(feature = "hydrate")]
    return renderer::view_when_loaded(Rendered::Streaming(text));
    #[cfg(not(feature = "hydrate"))]
    streaming_view(&text)
}

/// What the renderer's chunk is asked to render. One split function serves both: each has a
/// loader of its own, and only one whose chunk is loaded answers on its first poll.
#[cfg(feature = "hydrate")]
#[derive(Clone)]
enum Rendered {
    Document(BlocksDocument),
    Streaming(String),
}

#[cfg(feature = "hydrate")]
impl Rendered {
    fn view(self) -> AnyView {
        match self {
            Rendered::Document(document) => document_view(document),
            Rendered::Streaming(text) => streaming_view(&text),
        }
    }
}

fn streaming_view(text: &str) -> AnyView {
    let document = parse_blocks_partial(text).into_document();
    view! {
        {(!document.blocks.is_empty())
            .then(|| {
                view! {
                    <div class="blocks-streaming" inert=true data-testid="blocks-streaming">
                        {document_view(document)}
                    </div>
                }
            })}
        <p class="blocks-pending" role="status" data-testid="blocks-pending">
            "Preparing the reply…"
        </p>
    }
    .into_any()
}

fn document_view(document: BlocksDocument) -> AnyView {
    let state = DocState::new(&document);
    view! {
        <div class="blocks" data-testid="blocks">
            {document.blocks.into_iter().map(|block| render(block, state)).collect_view()}
        </div>
    }
    .into_any()
}

/// The renderer's chunk, fetched on demand in the browser.
#[cfg(feature = "hydrate")]
pub(crate) mod renderer {
    use std::pin::pin;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::task::{Context, Poll, Waker};

    use leptos::prelude::*;
    use leptos::wasm_split::{SplitLoaderError, wasm_split};

    use super::Rendered;

    static LOADED: AtomicBool = AtomicBool::new(false);

    #[wasm_split(palaver_blocks, wasm_split_path = ::leptos::wasm_split, fallible, preload(load_chunk))]
    fn split_view(rendered: Rendered) -> Result<AnyView, SplitLoaderError> {
        Ok(rendered.view())
    }

    /// Fetches the chunk (once it has loaded, at once); whether it is loaded.
    pub(crate) async fn load() -> bool {
        if !LOADED.load(Ordering::Relaxed) && load_chunk().await.is_ok() {
            LOADED.store(true, Ordering::Relaxed);
        }
        LOADED.load(Ordering::Relaxed)
    }

    /// Rendered at once when the chunk is loaded (which hydration relies on), or a placeholder
    /// until it is. Calls made while it is in flight share its one fetch.
    pub(super) fn view_when_loaded(rendered: Rendered) -> AnyView {
        if let Some(view) = view_now(rendered.clone()) {
            return view;
        }
        let loaded = RwSignal::new(None::<bool>);
        leptos::task::spawn_local(async move { loaded.set(Some(load().await)) });
        (move || match loaded.get() {
            None => view! { <p class="blocks-pending">"Preparing the reply…"</p> }.into_any(),
            Some(true) => view_now(rendered.clone()).unwrap_or_else(unavailable),
            Some(false) => unavailable(),
        })
        .into_any()
    }

    /// Calls into the chunk when it is loaded: the call then completes on its first poll.
    fn view_now(rendered: Rendered) -> Option<AnyView> {
        if !LOADED.load(Ordering::Relaxed) {
            return None;
        }
        match pin!(split_view(rendered)).poll(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(Ok(view)) => Some(view),
            _ => None,
        }
    }

    fn unavailable() -> AnyView {
        view! {
            <p class="blocks-error" role="alert">
                "This reply's blocks could not be loaded. Reload the page to try again."
            </p>
        }
        .into_any()
    }
}

fn render(block: Block, state: DocState) -> AnyView {
    match block {
        Block::Heading(heading) => {
            let class = format!("blocks-heading blocks-heading--{}", heading.size.as_deref().unwrap_or("md"));
            view! { <h3 class=class>{heading.text}</h3> }.into_any()
        }
        Block::Text(text) => {
            view! { <div class="markdown blocks-text" inner_html=markdown::to_html(&text.markdown)></div> }.into_any()
        }
        Block::Metric(metric) => metric_view(metric).into_any(),
        Block::Badge(badge) => {
            let class = format!("badge badge--{}", badge.status.as_deref().unwrap_or("neutral"));
            view! { <span class=class>{badge.text}</span> }.into_any()
        }
        Block::Divider(_) => view! { <hr class="blocks-divider" /> }.into_any(),
        Block::Context(context) => view! { <p class="blocks-context">{context.text}</p> }.into_any(),
        Block::Chart(chart) => chart_view(chart, state).into_any(),
        Block::Table(table) => table_view(table, state).into_any(),
        Block::Actions(actions) => view! {
            <div class="blocks-actions" role="group" aria-label="Actions" data-testid=format!("actions-{}", actions.id)>
                {actions.elements.into_iter().map(|element| element_view(element, state)).collect_view()}
            </div>
        }
        .into_any(),
        Block::Columns(columns) => view! {
            <div class="blocks-columns">
                {columns
                    .children
                    .into_iter()
                    .map(|child| view! { <div class="blocks-columns__cell">{render(child, state)}</div> })
                    .collect_view()}
            </div>
        }
        .into_any(),
        Block::Card(card) => view! {
            <section class="blocks-card">
                {card.eyebrow.map(|eyebrow| view! { <p class="blocks-card__eyebrow">{eyebrow}</p> })}
                {card.title.map(|title| view! { <h3 class="blocks-card__title">{title}</h3> })}
                {card.children.into_iter().map(|child| render(child, state)).collect_view()}
            </section>
        }
        .into_any(),
        Block::Callout(callout) => {
            let status = callout.status.unwrap_or_else(|| "info".into());
            view! {
                <div class=format!("callout callout--{status}") role="note">
                    <div class="markdown" inner_html=markdown::to_html(&callout.text)></div>
                </div>
            }
            .into_any()
        }
        Block::Image(image) => image_view(image.src, image.alt, None).into_any(),
        Block::Details(details) => view! {
            <details class="blocks-details">
                <summary>{details.title}</summary>
                <div class="markdown" inner_html=markdown::to_html(&details.text)></div>
            </details>
        }
        .into_any(),
        Block::Stepper(stepper) => {
            let id = stepper.id.clone();
            let live = state.live(&id).unwrap_or_else(|| RwSignal::new(Block::Stepper(stepper.clone())));
            view! { <StepperView original=stepper live state /> }.into_any()
        }
        Block::Checklist(checklist) => {
            let live = state.live(&checklist.id).unwrap_or_else(|| RwSignal::new(Block::Checklist(checklist)));
            view! { <ChecklistView live state /> }.into_any()
        }
        Block::Gallery(gallery) => view! {
            <div class="blocks-gallery">
                {gallery.images.into_iter().map(|image| image_view(image.src, image.alt, image.caption)).collect_view()}
            </div>
        }
        .into_any(),
        Block::List(list) => view! {
            <ul class="blocks-list">
                {list
                    .items
                    .into_iter()
                    .map(|item| {
                        view! {
                            <li class="blocks-list__item">
                                {item.image.map(|image| image_view(image.src, image.alt, None))} <div>
                                    <p class="blocks-list__title">
                                        <strong>{item.title}</strong>
                                        {item
                                            .meta
                                            .map(|meta| {
                                                view! {
                                                    " "
                                                    <span class="blocks-list__meta">{meta}</span>
                                                }
                                            })}
                                    </p>
                                    {item.text.map(|text| view! { <p class="blocks-list__text">{text}</p> })}
                                </div>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        }
        .into_any(),
        Block::Html(html) => html_frame(html).into_any(),
    }
}

fn metric_view(metric: Metric) -> impl IntoView {
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

fn image_view(src: String, alt: String, caption: Option<String>) -> impl IntoView {
    // `file:` refs name uploads the browser cannot fetch directly; show the alt text instead.
    let image = if src.starts_with("file:") {
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

fn html_frame(html: Html) -> impl IntoView {
    let height = HtmlHeight::parse(html.height.as_deref()).pixels();
    let title = html.title.clone().unwrap_or_else(|| "Agent-generated preview".to_string());
    view! {
        <figure class="blocks-html" data-testid="html-block">
            <iframe
                sandbox=""
                referrerpolicy="no-referrer"
                srcdoc=frame_srcdoc(&html.html)
                title=title
                style=format!("height: {height}px")
            ></iframe>
            <figcaption>"Agent-generated preview"</figcaption>
        </figure>
    }
}

fn chart_view(chart: Chart, state: DocState) -> impl IntoView {
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

fn table_view(table: Table, state: DocState) -> impl IntoView {
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

fn element_view(element: Element, state: DocState) -> AnyView {
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

fn button_view(button: Button, state: DocState) -> AnyView {
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
fn is_web_link(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    lower.starts_with("https://") || lower.starts_with("http://")
}

/// What the last host action of a stepper or checklist said, announced to screen readers.
#[component]
fn ActionStatus(status: RwSignal<Option<String>>) -> impl IntoView {
    move || {
        status.get().map(|status| {
            view! {
                <p class="blocks-status" role="status">
                    {status}
                </p>
            }
        })
    }
}

#[component]
fn StepperView(original: Stepper, live: RwSignal<Block>, state: DocState) -> impl IntoView {
    let busy = RwSignal::new(false);
    let status = RwSignal::new(None::<String>);
    let current = move || match live.get() {
        Block::Stepper(stepper) => stepper,
        _ => unreachable!("a stepper's slot holds a stepper"),
    };
    let [decrease_id, increase_id] = stepper_element_ids(&original.id);
    let step = original.step.unwrap_or(1.0);
    let original = StoredValue::new(original);
    let change = move |delta: f64| {
        let next = current().value + delta;
        original.with_value(|original| {
            if !is_stepper_value_allowed(original, next) {
                return;
            }
            match state.actions.and_then(|actions| actions.history_id.get_untracked()) {
                Some(_) => {
                    let mut payload = original.callback.payload.clone().unwrap_or_default();
                    payload.insert("value".into(), json!(next));
                    call_host(
                        state,
                        original.callback.name.clone(),
                        Value::Object(payload),
                        Some(original.id.clone()),
                        busy,
                        status,
                    );
                }
                // Outside a conversation (the storybook) the device scales it the way the host would.
                None => live.set(Block::Stepper(scale_stepper_block(original, next))),
            }
        });
    };
    let can =
        move |delta: f64| original.with_value(|original| is_stepper_value_allowed(original, current().value + delta));
    let label = original.with_value(|original| original.label.clone());
    view! {
        <div class="stepper" data-testid="stepper">
            <div class="stepper__control" role="group" aria-label=label.clone()>
                <span class="stepper__label">{label.clone()}</span>
                <button
                    type="button"
                    data-element-id=decrease_id
                    class="stepper__button"
                    aria-label=format!("Decrease {label}")
                    disabled=move || busy.get() || !can(-step)
                    on:click=move |_| change(-step)
                >
                    "−"
                </button>
                <output class="stepper__value" aria-live="polite" data-testid="stepper-value">
                    {move || {
                        let stepper = current();
                        let value = palaver_contract::text::js_number(stepper.value);
                        stepper.unit.map_or(value.clone(), |unit| format!("{value} {unit}"))
                    }}
                </output>
                <button
                    type="button"
                    data-element-id=increase_id
                    class="stepper__button"
                    aria-label=format!("Increase {label}")
                    disabled=move || busy.get() || !can(step)
                    on:click=move |_| change(step)
                >
                    "+"
                </button>
            </div>
            {move || {
                let stepper = current();
                (!stepper.items.is_empty())
                    .then(|| {
                        view! {
                            <div class="stepper__items">
                                {stepper
                                    .items_title
                                    .clone()
                                    .map(|title| view! { <p class="stepper__items-title">{title}</p> })}
                                <ul>
                                    {stepper
                                        .items
                                        .iter()
                                        .map(|item| {
                                            let amount = palaver_contract::text::js_to_fixed(
                                                item.amount,
                                                usize::from(item.decimals.unwrap_or(0)),
                                            );
                                            let amount = item
                                                .unit
                                                .as_ref()
                                                .map_or(amount.clone(), |unit| format!("{amount} {unit}"));
                                            view! {
                                                <li>
                                                    <span>{item.label.clone()}</span>
                                                    <strong>{amount}</strong>
                                                </li>
                                            }
                                        })
                                        .collect_view()}
                                </ul>
                            </div>
                        }
                    })
            }}
            {original
                .with_value(|original| original.note.clone())
                .map(|note| view! { <p class="blocks-context">{note}</p> })}
            <ActionStatus status />
        </div>
    }
}

#[component]
fn ChecklistView(live: RwSignal<Block>, state: DocState) -> impl IntoView {
    let busy = RwSignal::new(false);
    let status = RwSignal::new(None::<String>);
    let current = move || match live.get() {
        Block::Checklist(checklist) => checklist,
        _ => unreachable!("a checklist's slot holds a checklist"),
    };
    let tick = move |item_id: String, checked: bool| {
        let Block::Checklist(mut checklist) = live.get_untracked() else { return };
        for item in &mut checklist.items {
            if item.id == item_id {
                item.checked = Some(checked);
            }
        }
        let ticks: Map<String, Value> =
            checklist.items.iter().map(|item| (item.id.clone(), json!(item.checked == Some(true)))).collect();
        let callback = checklist.callback.clone();
        let id = checklist.id.clone();
        live.set(Block::Checklist(checklist));
        let in_conversation = state.actions.and_then(|actions| actions.history_id.get_untracked()).is_some();
        if let Some(callback) = callback.filter(|_| in_conversation) {
            let mut payload = callback.payload.unwrap_or_default();
            payload.insert("itemId".into(), json!(item_id));
            payload.insert("checked".into(), json!(checked));
            payload.insert("state".into(), Value::Object(ticks));
            call_host(state, callback.name, Value::Object(payload), Some(id), busy, status);
        }
    };
    view! {
        {move || {
            let checklist = current();
            let done = checklist.items.iter().filter(|item| item.checked == Some(true)).count();
            let total = checklist.items.len();
            let title = checklist.title.clone().unwrap_or_else(|| "Checklist".into());
            let label = title.clone();
            view! {
                <section class="checklist" data-testid="checklist" aria-label=label>
                    <p class="checklist__header">
                        <span class="checklist__title">{title}</span>
                        <span class="checklist__count" data-testid="checklist-count">
                            {format!("{done} of {total}")}
                        </span>
                    </p>
                    <ul>
                        {checklist
                            .items
                            .iter()
                            .map(|item| {
                                let element_id = checklist_element_id(&checklist.id, &item.id);
                                let item_id = item.id.clone();
                                view! {
                                    <li class="checklist__item">
                                        // Element ids go in data attributes: a transcript can show one document twice.
                                        <label>
                                            <input
                                                type="checkbox"
                                                data-element-id=element_id
                                                prop:checked=item.checked == Some(true)
                                                disabled=move || busy.get()
                                                on:change=move |event| tick(
                                                    item_id.clone(),
                                                    event_target_checked(&event),
                                                )
                                            />
                                            <span class="checklist__text">{item.text.clone()}</span>
                                            {item
                                                .meta
                                                .clone()
                                                .map(|meta| {
                                                    view! {
                                                        " "
                                                        <span class="checklist__meta">{meta}</span>
                                                    }
                                                })}
                                        </label>
                                        {item
                                            .detail
                                            .clone()
                                            .map(|detail| view! { <p class="checklist__detail">{detail}</p> })}
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ul>
                </section>
            }
        }}
        <ActionStatus status />
    }
}

/// Calls a host action through `POST /gpt/actions`; blocks it returns replace their namesakes.
fn call_host(
    state: DocState,
    name: String,
    payload: Value,
    block_id: Option<String>,
    busy: RwSignal<bool>,
    status: RwSignal<Option<String>>,
) {
    let Some(history_id) = state.actions.and_then(|actions| actions.history_id.get_untracked()) else {
        status.set(Some("This action works inside a conversation.".into()));
        return;
    };
    let body = json!({"historyId": history_id, "name": name, "payload": payload, "blockId": block_id});
    busy.set(true);
    status.set(None);
    #[cfg(feature = "hydrate")]
    leptos::task::spawn_local(async move {
        match crate::http::call("POST", "/gpt/actions", Some(body)).await {
            Ok(response) => {
                let blocks: Vec<Block> = serde_json::from_value(response["data"]["blocks"].clone()).unwrap_or_default();
                state.replace(blocks);
                status.set(response["data"]["message"].as_str().map(str::to_string));
            }
            Err(error) => status.set(Some(error)),
        }
        busy.set(false);
    });
    #[cfg(not(feature = "hydrate"))]
    let _ = body;
}

fn copy_to_clipboard(text: String, copied: RwSignal<bool>) {
    #[cfg(feature = "hydrate")]
    if let Some(window) = web_sys::window() {
        let promise = window.navigator().clipboard().write_text(&text);
        leptos::task::spawn_local(async move {
            copied.set(wasm_bindgen_futures::JsFuture::from(promise).await.is_ok());
        });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (text, copied);
}
