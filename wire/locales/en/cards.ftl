# Palaver's own words on ask cards, their summaries and the watch. Values (labels, names,
# counts) come in as arguments; the card isolates each with <bdi>.

## The card
question = Question
submit = Submit
skip = Skip
cancel = Cancel
confirm = Confirm
other = Other
your-own-answer = Your own answer
choose-one = Choose one
choose-exactly = Choose { $count }
choose-range = Choose { $min } to { $max }
choose-any = Choose one or more
search-options = Search the options
approval-needed = Approval needed for
on-server = On the MCP server
asked-by = Asked by the MCP server
link-opens = The link opens
arguments = Arguments
no-arguments = No arguments.
outside-schema = Not in the tool's schema
characters = { $count ->
    [one] 1 character
   *[other] { $count } characters
}
needed-by = Values needed by
impact-summary = What it does:
impact-undo = To undo it:
impact-cannot-undo = It cannot be undone.
impact-cost = Estimated cost:
server-hints = The server describes it as:
hint-read-only = read-only
hint-destructive = possibly destructive
hint-additive = adds without deleting
hint-idempotent = the same when run twice
hint-open-world = reaching outside systems
hint-closed-world = works only within its own system
allow-once = Allow once
deny = Deny
app-call = The app of the MCP server { $server } wants to run a tool
allow-in-conversation = Allow in this conversation
always-allow = Always allow
use-suggested = Use suggested
use-default = Use "{ $label }"
approve-draft = Approve draft
submit-defaults = Submit defaults
question-of = Question { $number } of { $total }

pick-files = { $count ->
    [one] Pick 1 file
   *[other] Pick { $count } files
}
pick-files-range = Pick { $min } to { $max } files
uploading = Uploading { $name }
remove = Remove
draft = Draft
choose-placeholder = Choose…

## Hand-off lines on small screens
handoff-edit = Edit on your phone
handoff-form = Fill it in on your phone
handoff-files = Upload on your phone
handoff-continue = Continue on your phone

## The time left
expires-in-minutes = { $minutes ->
    [one] Expires in 1 minute
   *[other] Expires in { $minutes } minutes
}
expires-soon = Expires in less than a minute
time-is-up = Time is up: this question is ending

digit-group = ,

## Summaries of asks no longer pending
you-chose = You chose: { $choices }
you-chose-none = You chose none of the options.
you-answered = You answered this question.
you-skipped = You skipped this question.
you-confirmed = You confirmed: { $label }
you-declined = You declined: { $label }
draft-as-is = You approved the draft as is
draft-edited = { $count ->
    [one] You edited the draft (1 character)
   *[other] You edited the draft ({ $shown } characters)
}
form-sent = { $count ->
    [one] You sent the form (1 field)
   *[other] You sent the form ({ $shown } fields)
}
files-sent = { $count ->
    [0] You sent 0 files
    [one] You sent 1 file: { $names }
   *[other] You sent { $count } files: { $names }
}
question-answered = { $question } { $answers }
answers-sent = { $count ->
    [one] You answered 1 question
   *[other] You answered { $count } questions
}
own-answer = your own: { $text }
not-answered-message = Not answered: you sent a message instead.
not-asked = Not asked: the assistant asked another question first.
not-answered-stopped = Not answered: you stopped the reply.
not-answered-withdrawn = Not answered: the server withdrew its question.
expired-nothing-done = Expired: nobody answered in time, so nothing was done.
not-answered-restart = Not answered in time: Palaver restarted, and the server's question ended with it.
cancelled = This question was cancelled.
expired = Expired: nobody answered in time.
waiting = Waiting for your answer.

## Problems with an answer, by the field's label
files = Files
answer-needed = { $label } is needed.
answer-misfit = { $label }: this answer does not fit.
answer-at-most = { $label } can be at most { $max }.
answer-at-least = { $label } must be at least { $min }.
answer-whole = { $label } takes whole numbers only.
answer-number = { $label } needs a number.
answer-email = { $label } needs an email address, such as ada@example.com.
answer-url = { $label } needs a web address that starts with https://.
answer-phone = { $label } needs a phone number, such as +1 555 010 0199.
answer-date = { $label } needs a date, such as 2026-10-01.
answer-time = { $label } needs a time between 00:00 and 23:59, such as 09:30.
answer-datetime = { $label } needs a date and a time, such as 2026-10-01 09:30.
answer-too-long = { $count ->
    [one] { $label } can be at most 1 character.
   *[other] { $label } can be at most { $count } characters.
}
answer-too-short = { $label } needs at least { $count } characters.
answer-pattern = { $label } is not written the way it needs to be.
answer-pattern-helped = { $label } is not written the way it needs to be: { $helper }
answer-option = { $label }: that choice is not on offer.
answer-at-least-one = { $label } needs at least one answer.
answer-just-one = { $label } takes one answer.
answer-pick-exactly = { $count ->
    [one] Pick exactly 1.
   *[other] Pick exactly { $count }.
}
answer-pick-at-most = Pick at most { $count }.
answer-pick-at-least = Pick at least { $count }.
answer-file-too-large = { $name } is larger than a file may be here.
answer-file-type = { $name } is not a type this question accepts.
answer-file-contents = { $name } says it is { $type }, but its contents are something else.
