//! The pages people look at, as self-contained HTML (no network, no CDN:
//! styles, scripts and data are inside the page, so a page works from
//! `file://` and from the league's server alike).
//!
//! * [`viewer`]: the hand viewer's data, what every seat saw at every step,
//!   and [`viewer_page`], the page that steps through it.
//!
//! Pages are made with `maud` (markup checked at compile time, text escaped);
//! data a page carries is JSON in a `<script type="application/json">`
//! element, written so that nothing in it can close the element, and the
//! scripts put bot-supplied text on the page as text only.

pub mod viewer;

use maud::{DOCTYPE, Markup, PreEscaped, html};

/// The viewer's script and style.
const VIEWER_JS: &str = include_str!("../assets/viewer.js");
const VIEWER_CSS: &str = include_str!("../assets/viewer.css");

/// `value` as JSON safe inside a `<script>` element: `<` is escaped, so no
/// `</script>` or `<!--` can appear.
pub fn script_json(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value)
        .expect("page data serializes")
        .replace('<', "\\u003c")
}

fn page(title: &str, css: &str, body: Markup) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                style { (PreEscaped(css)) }
            }
            body { (body) }
        }
    }
    .into_string()
}

/// The hand viewer for one match: a page that steps through every hand,
/// drawing the table as the chosen seat saw it at each step.
pub fn viewer_page(m: &viewer::Match) -> String {
    let title = format!("{} match {} ({})", m.tournament, m.match_index, m.game);
    page(
        &title,
        VIEWER_CSS,
        html! {
            header {
                h1 #title { (title) }
                p #verdict {}
                ul #problems {}
                div.controls {
                    label { "hand " select #hand {} }
                    label { "seat " select #seat {} }
                    button #prev type="button" { "\u{2190} back" }
                    input #step type="range" min="0" value="0" aria-label="step";
                    button #next type="button" { "next \u{2192}" }
                    span #step-label {}
                }
            }
            main {
                div #board {
                    div #seats style="display: contents" {}
                    section #middle {}
                }
                div #panels {
                    section { h2 { "this step" } div #action {} div #legal {} }
                    section { h2 { "what this seat has seen this hand" } ol #history {} }
                    section { h2 { "notes" } table { tbody #notes {} } }
                }
            }
            script #match-data type="application/json" { (PreEscaped(script_json(m))) }
            script { (PreEscaped(VIEWER_JS)) }
        },
    )
}
