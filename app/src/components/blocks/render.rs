//! Every block type's view, by type.

use leptos::prelude::*;

use super::elements::*;
use super::interactive::*;
use super::state::DocState;
use crate::markdown;
use palaver_contract::blocks::model::Block;

pub(super) fn render(block: Block, state: DocState) -> AnyView {
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
        Block::Image(image) => image_view(image.src, image.alt, None, state).into_any(),
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
                {gallery
                    .images
                    .into_iter()
                    .map(|image| image_view(image.src, image.alt, image.caption, state))
                    .collect_view()}
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
                                {item.image.map(|image| image_view(image.src, image.alt, None, state))} <div>
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
        Block::Html(html) => html_frame(html, state).into_any(),
    }
}
