//! `ASK_LIMITS`: the one source of every ask limit. Validators, tool schemas, the prompt
//! section, docs and tests all read it.

pub struct ChoiceLimits {
    pub option_description_max_length: usize,
    pub option_id_max_length: usize,
    pub option_id_pattern: &'static str,
    pub option_label_max_length: usize,
    pub options_max: usize,
    pub options_min: usize,
    pub other_max_length: usize,
}
pub struct ConfirmLimits {
    pub label_max_length: usize,
}
pub struct FilesLimits {
    pub default_max_file_size_bytes: u64,
    pub filename_max_length: usize,
    pub max_files: usize,
    pub min_files: usize,
    pub text_max_bytes: usize,
}
pub struct FormLimits {
    pub fields_max: usize,
    pub fields_min: usize,
    pub helper_text_max_length: usize,
    pub label_max_length: usize,
    pub phone_digits_max: usize,
    pub phone_digits_min: usize,
    pub text_max_length: usize,
    pub textarea_max_length: usize,
}
pub struct MarkdownLimits {
    pub max_length: usize,
    pub placeholder_max_length: usize,
}
/// Palaver's addition: question sets.
pub struct QuestionsLimits {
    pub answer_description_max_length: usize,
    pub answer_label_max_length: usize,
    pub answers_max: usize,
    pub answers_min: usize,
    pub custom_max_length: usize,
    pub question_title_max_length: usize,
    pub questions_max: usize,
    pub questions_min: usize,
}
pub struct SimpleCardLimits {
    pub button_label_max_length: usize,
    pub buttons_max: usize,
    pub text_max_length: usize,
    pub title_max_length: usize,
}

pub struct AskLimits {
    pub cancel_reason_max_length: usize,
    pub choice: ChoiceLimits,
    pub confirm: ConfirmLimits,
    pub files: FilesLimits,
    pub form: FormLimits,
    pub locale_max_length: usize,
    pub markdown: MarkdownLimits,
    pub pending_asks_per_history: usize,
    pub prompt_max_length: usize,
    pub questions: QuestionsLimits,
    pub simple_card: SimpleCardLimits,
    pub submit_label_max_length: usize,
    pub title_max_length: usize,
}

pub const ASK_LIMITS: AskLimits = AskLimits {
    cancel_reason_max_length: 200,
    choice: ChoiceLimits {
        option_description_max_length: 280,
        option_id_max_length: 64,
        option_id_pattern: "^[a-z0-9][a-z0-9_-]{0,63}$",
        option_label_max_length: 120,
        options_max: 50,
        options_min: 2,
        other_max_length: 500,
    },
    confirm: ConfirmLimits { label_max_length: 20 },
    files: FilesLimits {
        default_max_file_size_bytes: 10 * 1024 * 1024,
        filename_max_length: 255,
        max_files: 10,
        min_files: 1,
        text_max_bytes: 100_000,
    },
    form: FormLimits {
        fields_max: 8,
        fields_min: 1,
        helper_text_max_length: 280,
        label_max_length: 120,
        phone_digits_max: 15,
        phone_digits_min: 7,
        text_max_length: 2000,
        textarea_max_length: 10_000,
    },
    locale_max_length: 35,
    markdown: MarkdownLimits { max_length: 20_000, placeholder_max_length: 120 },
    pending_asks_per_history: 1,
    prompt_max_length: 500,
    questions: QuestionsLimits {
        answer_description_max_length: 280,
        answer_label_max_length: 120,
        answers_max: 8,
        answers_min: 1,
        custom_max_length: 500,
        question_title_max_length: 200,
        questions_max: 6,
        questions_min: 1,
    },
    simple_card: SimpleCardLimits {
        button_label_max_length: 20,
        buttons_max: 3,
        text_max_length: 140,
        title_max_length: 40,
    },
    submit_label_max_length: 24,
    title_max_length: 80,
};

impl AskLimits {
    /// Every limit keyed by its path, as the reference's Limits table lists them, then
    /// Palaver's additions ([`AskLimits::additions`]).
    pub fn entries(&self) -> Vec<(&'static str, String)> {
        let mut entries = self.reference_entries();
        entries.extend(self.additions());
        entries
    }

    /// The limits Palaver adds to the reference's: locales and question sets.
    pub fn additions(&self) -> Vec<(&'static str, String)> {
        let q = &self.questions;
        vec![
            ("localeMaxLength", self.locale_max_length.to_string()),
            ("questions.answerDescriptionMaxLength", q.answer_description_max_length.to_string()),
            ("questions.answerLabelMaxLength", q.answer_label_max_length.to_string()),
            ("questions.answersMax", q.answers_max.to_string()),
            ("questions.answersMin", q.answers_min.to_string()),
            ("questions.customMaxLength", q.custom_max_length.to_string()),
            ("questions.questionTitleMaxLength", q.question_title_max_length.to_string()),
            ("questions.questionsMax", q.questions_max.to_string()),
            ("questions.questionsMin", q.questions_min.to_string()),
        ]
    }

    fn reference_entries(&self) -> Vec<(&'static str, String)> {
        let c = &self.choice;
        let f = &self.files;
        let form = &self.form;
        let card = &self.simple_card;
        vec![
            ("cancelReasonMaxLength", self.cancel_reason_max_length.to_string()),
            ("choice.optionDescriptionMaxLength", c.option_description_max_length.to_string()),
            ("choice.optionIdMaxLength", c.option_id_max_length.to_string()),
            ("choice.optionIdPattern", c.option_id_pattern.to_string()),
            ("choice.optionLabelMaxLength", c.option_label_max_length.to_string()),
            ("choice.optionsMax", c.options_max.to_string()),
            ("choice.optionsMin", c.options_min.to_string()),
            ("choice.otherMaxLength", c.other_max_length.to_string()),
            ("confirm.labelMaxLength", self.confirm.label_max_length.to_string()),
            ("files.defaultMaxFileSizeBytes", f.default_max_file_size_bytes.to_string()),
            ("files.filenameMaxLength", f.filename_max_length.to_string()),
            ("files.maxFiles", f.max_files.to_string()),
            ("files.minFiles", f.min_files.to_string()),
            ("files.textMaxBytes", f.text_max_bytes.to_string()),
            ("form.fieldsMax", form.fields_max.to_string()),
            ("form.fieldsMin", form.fields_min.to_string()),
            ("form.helperTextMaxLength", form.helper_text_max_length.to_string()),
            ("form.labelMaxLength", form.label_max_length.to_string()),
            ("form.phoneDigitsMax", form.phone_digits_max.to_string()),
            ("form.phoneDigitsMin", form.phone_digits_min.to_string()),
            ("form.textMaxLength", form.text_max_length.to_string()),
            ("form.textareaMaxLength", form.textarea_max_length.to_string()),
            ("markdown.maxLength", self.markdown.max_length.to_string()),
            ("markdown.placeholderMaxLength", self.markdown.placeholder_max_length.to_string()),
            ("pendingAsksPerHistory", self.pending_asks_per_history.to_string()),
            ("promptMaxLength", self.prompt_max_length.to_string()),
            ("simpleCard.buttonLabelMaxLength", card.button_label_max_length.to_string()),
            ("simpleCard.buttonsMax", card.buttons_max.to_string()),
            ("simpleCard.textMaxLength", card.text_max_length.to_string()),
            ("simpleCard.titleMaxLength", card.title_max_length.to_string()),
            ("submitLabelMaxLength", self.submit_label_max_length.to_string()),
            ("titleMaxLength", self.title_max_length.to_string()),
        ]
    }
}
