# Palavers eigene Wörter auf Fragekarten, ihren Zusammenfassungen und der Uhr.

## Die Karte
question = Frage
submit = Senden
skip = Überspringen
cancel = Abbrechen
confirm = Bestätigen
other = Andere
your-own-answer = Eigene Antwort
choose-one = Wähle eine Antwort
choose-exactly = Wähle { $count }
choose-range = Wähle { $min } bis { $max }
choose-any = Wähle eine oder mehrere
search-options = Optionen durchsuchen
approval-needed = Freigabe nötig für
on-server = Auf dem MCP-Server
asked-by = Gefragt vom MCP-Server
link-opens = Der Link öffnet
arguments = Argumente
no-arguments = Keine Argumente.
outside-schema = Nicht im Schema des Werkzeugs
characters = { $count ->
    [one] 1 Zeichen
   *[other] { $count } Zeichen
}
needed-by = Werte benötigt für
impact-summary = Was er tut:
impact-undo = So wird es rückgängig gemacht:
impact-cannot-undo = Das lässt sich nicht rückgängig machen.
impact-cost = Geschätzte Kosten:
server-hints = Der Server beschreibt ihn als:
hint-read-only = nur lesend
hint-destructive = möglicherweise zerstörend
hint-additive = fügt hinzu, ohne zu löschen
hint-idempotent = zweimal ausgeführt dasselbe wie einmal
hint-open-world = greift auf Systeme außerhalb zu
hint-closed-world = arbeitet nur in seinem eigenen System
allow-once = Einmal erlauben
deny = Ablehnen
app-call = Die App des MCP-Servers { $server } möchte ein Werkzeug ausführen
allow-in-conversation = In diesem Gespräch erlauben
always-allow = Immer erlauben
use-suggested = Vorschlag übernehmen
use-default = „{ $label }“ nehmen
approve-draft = Entwurf annehmen
submit-defaults = Vorgaben senden
question-of = Frage { $number } von { $total }

pick-files = { $count ->
    [one] Wähle 1 Datei
   *[other] Wähle { $count } Dateien
}
pick-files-range = Wähle { $min } bis { $max } Dateien
uploading = { $name } wird hochgeladen
remove = Entfernen
draft = Entwurf
choose-placeholder = Auswählen…

## Hinweise auf kleinen Bildschirmen
handoff-edit = Auf dem Handy bearbeiten
handoff-form = Auf dem Handy ausfüllen
handoff-files = Auf dem Handy hochladen
handoff-continue = Auf dem Handy weitermachen

## Die verbleibende Zeit
expires-in-minutes = { $minutes ->
    [one] Läuft in 1 Minute ab
   *[other] Läuft in { $minutes } Minuten ab
}
expires-soon = Läuft in weniger als einer Minute ab
time-is-up = Die Zeit ist um: diese Frage endet

digit-group = .

## Zusammenfassungen beantworteter Fragen
you-chose = Deine Wahl: { $choices }
you-chose-none = Du hast keine der Optionen gewählt.
you-answered = Du hast diese Frage beantwortet.
you-skipped = Du hast diese Frage übersprungen.
you-confirmed = Bestätigt: { $label }
you-declined = Abgelehnt: { $label }
draft-as-is = Du hast den Entwurf unverändert angenommen
draft-edited = { $count ->
    [one] Du hast den Entwurf bearbeitet (1 Zeichen)
   *[other] Du hast den Entwurf bearbeitet ({ $shown } Zeichen)
}
form-sent = { $count ->
    [one] Du hast das Formular gesendet (1 Feld)
   *[other] Du hast das Formular gesendet ({ $shown } Felder)
}
files-sent = { $count ->
    [0] Du hast 0 Dateien gesendet
    [one] Du hast 1 Datei gesendet: { $names }
   *[other] Du hast { $count } Dateien gesendet: { $names }
}
question-answered = { $question } { $answers }
answers-sent = { $count ->
    [one] Du hast 1 Frage beantwortet
   *[other] Du hast { $count } Fragen beantwortet
}
own-answer = eigene Antwort: { $text }
not-answered-message = Nicht beantwortet: Du hast stattdessen eine Nachricht geschickt.
not-asked = Nicht gestellt: Der Assistent hat zuerst eine andere Frage gestellt.
not-answered-stopped = Nicht beantwortet: Du hast die Antwort angehalten.
not-answered-withdrawn = Nicht beantwortet: Der Server hat seine Frage zurückgezogen.
expired-nothing-done = Abgelaufen: Niemand hat rechtzeitig geantwortet, also ist nichts geschehen.
not-answered-restart = Nicht rechtzeitig beantwortet: Palaver wurde neu gestartet, und die Frage des Servers endete damit.
cancelled = Diese Frage wurde abgebrochen.
expired = Abgelaufen: Niemand hat rechtzeitig geantwortet.
waiting = Wartet auf deine Antwort.

## Probleme mit einer Antwort, nach der Beschriftung des Felds
files = Dateien
answer-needed = { $label } wird benötigt.
answer-misfit = { $label }: Diese Antwort passt nicht.
answer-at-most = { $label } darf höchstens { $max } sein.
answer-at-least = { $label } muss mindestens { $min } sein.
answer-whole = { $label } nimmt nur ganze Zahlen.
answer-number = { $label } braucht eine Zahl.
answer-email = { $label } braucht eine E-Mail-Adresse, etwa ada@example.com.
answer-url = { $label } braucht eine Webadresse, die mit https:// beginnt.
answer-phone = { $label } braucht eine Telefonnummer, etwa +49 30 901820.
answer-date = { $label } braucht ein Datum, etwa 2026-10-01.
answer-time = { $label } braucht eine Uhrzeit zwischen 00:00 und 23:59, etwa 09:30.
answer-datetime = { $label } braucht Datum und Uhrzeit, etwa 2026-10-01 09:30.
answer-too-long = { $count ->
    [one] { $label } darf höchstens 1 Zeichen lang sein.
   *[other] { $label } darf höchstens { $count } Zeichen lang sein.
}
answer-too-short = { $label } braucht mindestens { $count } Zeichen.
answer-pattern = { $label } ist nicht in der nötigen Form geschrieben.
answer-pattern-helped = { $label } ist nicht in der nötigen Form geschrieben: { $helper }
answer-option = { $label }: Diese Auswahl wird nicht angeboten.
answer-at-least-one = { $label } braucht mindestens eine Antwort.
answer-just-one = { $label } nimmt eine Antwort.
answer-pick-exactly = Wähle genau { $count }.
answer-pick-at-most = Wähle höchstens { $count }.
answer-pick-at-least = Wähle mindestens { $count }.
answer-file-too-large = { $name } ist größer, als eine Datei hier sein darf.
answer-file-type = { $name } hat einen Typ, den diese Frage nicht annimmt.
answer-file-contents = { $name } gibt sich als { $type } aus, enthält aber etwas anderes.
