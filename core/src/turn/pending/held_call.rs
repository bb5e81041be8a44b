//! A host tool call held on the person's input, as the pending ask stores it: what its MCP
//! server asked (the 2026-07-28 revision's `input_required`), what was answered so far, and the
//! step's later calls (the turn's side is `turn::held_call`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::error::FieldError;
use crate::llm::ToolCall;
use crate::turn::tools::input::{InputAnswers, InputRequired};
use crate::turn::tools::question::{QuestionAnswer, Step, ToolQuestion};
use palaver_contract::asks::AskResponse;
use palaver_wire::conversation::model::AppAsk;

/// A call waiting on the person's answers to what its server asked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HeldCall {
    /// The call as the model made it.
    pub call: ToolCall,
    /// The MCP server that asks.
    pub server: String,
    pub input: InputRequired,
    /// The answers given so far, by request key (`ElicitResult`s).
    #[serde(default)]
    pub answers: Map<String, Value>,
    /// The card being asked (an index into [`HeldCall::cards`]) and its page.
    #[serde(default)]
    pub asking: usize,
    #[serde(default)]
    pub page: usize,
    /// What the request's earlier pages gave.
    #[serde(default)]
    pub content: Map<String, Value>,
    /// The step's calls after this one: they run once it has its result.
    #[serde(default)]
    pub rest: Vec<ToolCall>,
    /// How many times the call was sent again with answers.
    #[serde(default)]
    pub rounds: u32,
}

/// Where a held call stands after an answer.
pub enum Taken {
    /// Ask the next page or request.
    More,
    /// Every request is answered: send the call again.
    Answered,
}

impl HeldCall {
    pub fn new(call: &ToolCall, server: &str, input: InputRequired, rounds: u32) -> HeldCall {
        HeldCall {
            call: call.clone(),
            server: server.to_string(),
            input,
            answers: Map::new(),
            asking: 0,
            page: 0,
            content: Map::new(),
            rest: Vec::new(),
            rounds,
        }
    }

    /// The requests asked together, as indexes into `input.requests`, in order: each run of
    /// form requests is one card (their fields side by side), a link a card of its own.
    fn cards(&self) -> Vec<Vec<usize>> {
        let mut cards: Vec<Vec<usize>> = Vec::new();
        for (index, (_, request)) in self.input.requests.iter().enumerate() {
            let form = ToolQuestion::is_form_request(request);
            match cards.last_mut() {
                Some(card) if form && ToolQuestion::is_form_request(&self.input.requests[card[0]].1) => {
                    card.push(index)
                }
                _ => cards.push(vec![index]),
            }
        }
        cards
    }

    /// Whether every card can be asked (each request is one Palaver asks).
    pub fn check(&self) -> Result<(), String> {
        self.cards().iter().try_for_each(|card| self.question_of(card).map(drop))
    }

    /// The question of the card being asked.
    pub fn question(&self) -> Result<ToolQuestion, String> {
        let cards = self.cards();
        let card = cards.get(self.asking).ok_or("the stored ask names a question the server did not ask")?;
        self.question_of(card)
    }

    fn question_of(&self, card: &[usize]) -> Result<ToolQuestion, String> {
        match card {
            [one] => ToolQuestion::input_request(&self.server, &self.input.requests[*one].1),
            several => {
                let forms: Vec<&Value> = several.iter().map(|index| &self.input.requests[*index].1["params"]).collect();
                ToolQuestion::forms(&self.server, &forms)
            }
        }
    }

    /// The app of the server that may draw `question` (the card being asked), with the
    /// server's request as it came.
    pub fn app_ask(&self, question: &ToolQuestion) -> Option<AppAsk> {
        let resource_uri = question.app()?.to_string();
        let card = self.cards().into_iter().nth(self.asking)?;
        let [request] = card[..] else { return None };
        Some(AppAsk { resource_uri, params: self.input.requests[request].1["params"].clone() })
    }

    /// The answer of the app drawing the card being asked (an `ElicitResult`), as the card's;
    /// `None` when no app draws it.
    pub fn app_response(&self, result: &Value) -> Option<Result<Value, Vec<FieldError>>> {
        let question = self.question().ok()?;
        question.app()?;
        Some(question.app_response(result))
    }

    /// What in an accepted answer the requested schema refuses (see [`ToolQuestion::refusals`]).
    pub fn refusals(&self, response: &AskResponse) -> Vec<FieldError> {
        self.question().map(|question| question.refusals(self.page, response)).unwrap_or_default()
    }

    /// Takes the answer to the page asked.
    pub fn take(&mut self, response: &AskResponse) -> Result<Taken, String> {
        let question = self.question()?;
        let cards = self.cards();
        match question.answer(self.page, response, &mut self.content) {
            Step::Next => self.page += 1,
            Step::Done(answer) => {
                let card = &cards[self.asking];
                let mut parts = match (&answer, card.len()) {
                    (QuestionAnswer::Accept(content), 2..) => ToolQuestion::split_forms(content, card.len()),
                    _ => Vec::new(),
                };
                for (part, index) in card.iter().enumerate() {
                    let answered = match parts.get_mut(part) {
                        Some(content) => QuestionAnswer::Accept(Value::Object(std::mem::take(content))),
                        None => answer.clone(),
                    };
                    self.answers.insert(self.input.requests[*index].0.clone(), answered.elicit_result());
                }
                (self.asking, self.page) = (self.asking + 1, 0);
                self.content.clear();
            }
        }
        Ok(if self.asking < cards.len() { Taken::More } else { Taken::Answered })
    }

    /// The call's retry: every answer, and the server's state as it came.
    pub fn retry(&self) -> InputAnswers {
        InputAnswers {
            responses: self.answers.clone(),
            request_state: self.input.request_state.clone(),
            task_id: self.input.task_id.clone(),
        }
    }

    /// What the call's result says when its question ended unanswered (`reason`: the cancel's).
    pub fn unfinished(reason: Option<&str>) -> Value {
        json!({
            "error": "The MCP server's question ended before it was answered, so the call did not finish.",
            "reason": reason.unwrap_or("user_cancelled"),
        })
    }
}
