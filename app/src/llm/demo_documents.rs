//! The block documents the demo agent replies with ("dashboard", "checklist", "invoice
//! preview"). Each is a valid document under the server's default block settings (the
//! invoice needs html turned on); a test checks them.

pub const DASHBOARD: &str = "\
v: 1
datasets:
  signups_monthly:
    columns:
      - {name: month, type: string}
      - {name: signups, type: number}
    rows:
      - [Jan, 120]
      - [Feb, 160]
      - [Mar, 123]
  signups_weekly:
    columns:
      - {name: month, type: string}
      - {name: signups, type: number}
    rows:
      - [W1, 31]
      - [W2, 28]
      - [W3, 35]
      - [W4, 41]
      - [W5, 26]
      - [W6, 44]
blocks:
  - type: heading
    text: Signups this quarter
    size: lg
  - type: columns
    children:
      - type: metric
        label: Total signups
        value: \"403\"
        delta: \"+12%\"
        trend: up
      - type: metric
        label: Best month
        value: February
        helper: 160 signups
  - type: chart
    id: signups_chart
    kind: bar
    data: signups_monthly
    x: month
    y: signups
    title: Signups by period
  - type: actions
    id: chart_period
    elements:
      - type: segmented
        id: period
        target: signups_chart
        options:
          - {label: Monthly, data: signups_monthly}
          - {label: Weekly, data: signups_weekly}
  - type: table
    id: signups_table
    title: Signups by month
    data: signups_monthly
  - type: callout
    status: info
    text: February's spike follows the **pricing page** launch.
  - type: actions
    id: followups
    elements:
      - type: button
        id: explain_drop
        text: Why did March drop?
        action: {kind: reply, text: Why did signups drop in March?}
      - type: button
        id: copy_table
        text: Copy the table
        variant: outline
        action: {kind: copy, target: signups_table}";

pub const CHECKLIST: &str = "\
v: 1
blocks:
  - type: heading
    text: Sunday roast plan
  - type: card
    eyebrow: Shopping
    title: How much to buy
    children:
      - type: stepper
        id: guests
        label: Guests
        unit: people
        value: 4
        min: 1
        max: 12
        callback: {name: scaleStepper}
        itemsTitle: Shopping list
        items:
          - {label: Leg of lamb, amount: 1.6, unit: kg, decimals: 1}
          - {label: Potatoes, amount: 1200, unit: g}
          - {label: Carrots, amount: 6, round: up}
      - type: actions
        id: shopping_actions
        elements:
          - type: button
            id: copy_list
            text: Copy shopping list
            variant: outline
            action: {kind: copy, target: guests}
  - type: checklist
    id: cooking
    title: Cooking checklist
    callback: {name: toggleChecklist}
    items:
      - {id: preheat, text: Preheat the oven, meta: \"1:00 pm\", checked: true}
      - {id: lamb_in, text: Put the lamb in, meta: \"1:30 pm\"}
      - {id: potatoes, text: Roast the potatoes, meta: \"3:00 pm\"}
      - {id: rest, text: Rest the lamb, meta: \"4:15 pm\", detail: Cover loosely with foil for 20 minutes.}
  - type: details
    title: Why rest the lamb?
    text: Resting lets the juices settle, so the meat stays moist when you carve it.";

pub const INVOICE_PREVIEW: &str = "\
v: 1
blocks:
  - type: heading
    text: Invoice preview
  - type: html
    title: Invoice 1042
    height: md
    html: |-
      <h1>Invoice #1042</h1>
      <p><strong>Acme Ltd</strong>, billed on 1 December 2026.</p>
      <table>
        <thead><tr><th>Item</th><th>Seats</th><th>Amount</th></tr></thead>
        <tbody>
          <tr><td>Palaver Team</td><td>12</td><td>€ 240.00</td></tr>
          <tr><td>Onboarding</td><td>1</td><td>€ 150.00</td></tr>
        </tbody>
      </table>
      <p>Total due: <strong>€ 390.00</strong></p>
  - type: context
    text: The preview is display-only; the final invoice comes as a PDF.";
