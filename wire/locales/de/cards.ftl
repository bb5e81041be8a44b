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
allow-once = Einmal erlauben
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
