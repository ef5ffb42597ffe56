//! `whistle games`: every game and its options, and each game's rules page
//! (`docs/rules/GAME.md`, built into the binary).

use std::fmt::Write;

use clap::Args;
use serde::Serialize;
use whistle_rules::{Game, OptionSpec, Options, Variant};

/// Arguments of `whistle games`.
#[derive(Debug, Args)]
pub struct GamesArgs {
    /// Only this game (yogi, oneonta, israeli, honeymoon, illustrated).
    game: Option<String>,
    /// Print the game's rules page (docs/rules/GAME.md) instead of its options.
    #[arg(long, requires = "game", conflicts_with = "json")]
    rules: bool,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

/// One game as listed.
#[derive(Debug, Serialize)]
struct GameInfo {
    name: Variant,
    title: &'static str,
    seats: Option<usize>,
    rules: &'static str,
    options: Vec<OptionInfo>,
}

/// One option as listed.
#[derive(Debug, Serialize)]
struct OptionInfo {
    key: &'static str,
    default: &'static str,
    values: &'static str,
    doc: &'static str,
}

impl From<&OptionSpec> for OptionInfo {
    fn from(s: &OptionSpec) -> OptionInfo {
        OptionInfo {
            key: s.key,
            default: s.default,
            values: s.values,
            doc: s.doc,
        }
    }
}

fn list() -> Vec<GameInfo> {
    Variant::ALL
        .into_iter()
        .map(|v| GameInfo {
            name: v,
            title: v.title(),
            // The seat count is a property of a game value; every game
            // builds from its defaults.
            seats: v.new_game(&Options::new()).ok().map(|g| g.seats()),
            rules: whistle_pages::rules_page(v).0,
            options: v.option_specs().iter().map(OptionInfo::from).collect(),
        })
        .collect()
}

/// Runs `whistle games`, returning what to print.
pub fn run(args: &GamesArgs) -> anyhow::Result<String> {
    let mut games = list();
    if let Some(name) = &args.game {
        let game: Variant = name.parse().map_err(crate::usage)?;
        if args.rules {
            return Ok(whistle_pages::rules_page(game).1.to_string());
        }
        games.retain(|g| g.name == game);
    }
    if args.json {
        return Ok(serde_json::to_string_pretty(&games)? + "\n");
    }
    let options = || games.iter().flat_map(|g| &g.options);
    let key_w = options().map(|o| o.key.len()).max().unwrap_or(0).max(6);
    let default_w = options().map(|o| o.default.len()).max().unwrap_or(0).max(7);
    let values_w = options().map(|o| o.values.len()).max().unwrap_or(0).max(6);
    let mut out = String::new();
    for (i, g) in games.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let seats = g.seats.map_or(String::new(), |n| {
            format!(" ({n} seat{} by default)", if n == 1 { "" } else { "s" })
        });
        writeln!(out, "{}{seats}: {}", g.name, g.title)?;
        writeln!(
            out,
            "  {:key_w$}  {:default_w$}  {:values_w$}  what it does",
            "option", "default", "values"
        )?;
        for o in &g.options {
            writeln!(
                out,
                "  {:key_w$}  {:default_w$}  {:values_w$}  {}",
                o.key, o.default, o.values, o.doc
            )?;
        }
        writeln!(
            out,
            "  rules: {} (or `whistle games {} --rules`)",
            g.rules, g.name
        )?;
    }
    Ok(out)
}
