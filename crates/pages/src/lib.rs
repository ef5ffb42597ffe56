//! The pages people look at, as self-contained HTML (no network, no CDN:
//! styles, scripts and data are inside the page, so a page works from
//! `file://` and from the league's server alike).
//!
//! * [`viewer`]: the hand viewer's data, what every seat saw at every step,
//!   and [`viewer_page`], the page that steps through it.
//! * [`report`]: a tournament's `report.html` (standings, ratings over the
//!   matches, pairwise verdicts, faults and decision times, every hand
//!   linked to its viewer page).
//! * [`plot`]: charts as inline SVG (`plotters`).
//!
//! Pages are made with `maud` (markup checked at compile time, text escaped);
//! data a page carries is compressed JSON ([`packed_json`]), and the scripts
//! put bot-supplied text on the page as text only.

pub mod plot;
pub mod report;
pub mod viewer;

use maud::{DOCTYPE, Markup, PreEscaped, html};

/// The viewer's script and style.
const VIEWER_JS: &str = include_str!("../assets/viewer.js");
const VIEWER_CSS: &str = include_str!("../assets/viewer.css");

/// The gzip level of a page's data: a tournament writes one page a match
/// while it plays, on cores the matches need. One page's data compressed
/// (zlib-rs with its SIMD code, on 2 loaded cores; best of 15):
///
/// | level | 8-hand Israeli match (the demo's: 591 KB of JSON) | 50 hands (3.6 MB) |
/// |---|---|---|
/// | 2 | 0.58 ms, 47.8 KB | 3.7 ms, 292 KB |
/// | 3 | 0.82 ms, 40.4 KB | 5.0 ms, 244 KB |
/// | 4 | 1.16 ms, 37.6 KB | 7.3 ms, 228 KB |
/// | 6 | 2.32 ms, 33.4 KB | 18.0 ms, 203 KB |
///
/// Level 3 (zlib-rs's medium matcher, as 4 to 6, with shorter searches: 6
/// hash chain links against 4's 24, a match of 16 bytes good enough against
/// 32) takes 30 % less time than 4 on the demo's matches and a third less
/// on long ones, for 7 % more bytes; level 2 (the fast matcher, no lazy
/// matches) would add another 18 %.
const PAGE_GZIP_LEVEL: u32 = 3;

/// `value` as gzip-compressed JSON in base64, for a page to carry in a
/// `<script type="application/gzip+base64">` element and open with the
/// browser's `DecompressionStream`. A match's views repeat themselves from
/// step to step; compressed, a page's data is some sixteen times smaller
/// (and the views already carry only what changed). Base64 has no `<`, so
/// nothing can close the element.
pub fn packed_json(value: &impl serde::Serialize) -> String {
    let mut packer = Packer::default();
    packer
        .pack(|w| serde_json::to_writer(w, value).map_err(std::io::Error::other))
        .expect("page data serializes");
    packer.base64
}

/// Packs page data as [`packed_json`] does, keeping its compressor and
/// buffers from page to page: a caller that writes many pages (a
/// tournament's) makes the compressor's tables once, not once a page.
pub struct Packer {
    /// Raw deflate into a buffer that starts with the gzip header; between
    /// pages it holds an empty buffer and a fresh state.
    deflate: flate2::write::DeflateEncoder<Vec<u8>>,
    /// The buffer the next page's compressed data is written into.
    spare: Vec<u8>,
    /// The last page's data in base64.
    base64: String,
}

impl Default for Packer {
    fn default() -> Packer {
        Packer {
            deflate: flate2::write::DeflateEncoder::new(
                Vec::new(),
                flate2::Compression::new(PAGE_GZIP_LEVEL),
            ),
            spare: Vec::new(),
            base64: String::new(),
        }
    }
}

/// The gzip header `flate2::write::GzEncoder` writes at this level: no
/// name, no time, the level's hint (2 for the best, 4 for the fastest, 0
/// between), an unknown system.
const GZIP_HEADER: [u8; 10] = {
    let hint = match PAGE_GZIP_LEVEL {
        9.. => 2,
        0 | 1 => 4,
        _ => 0,
    };
    [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, hint, 255]
};

/// Writes into the compressor and sums what it wrote for the gzip trailer.
struct Summed<'a> {
    deflate: &'a mut flate2::write::DeflateEncoder<Vec<u8>>,
    crc: flate2::Crc,
}

impl std::io::Write for Summed<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.deflate.write(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Packer {
    /// The JSON `write` writes, gzip-compressed (the same bytes as
    /// `flate2::write::GzEncoder` makes at [`PAGE_GZIP_LEVEL`]), in base64.
    fn pack(
        &mut self,
        write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
    ) -> std::io::Result<&str> {
        use base64::Engine as _;
        let mut out = std::mem::take(&mut self.spare);
        out.clear();
        out.extend_from_slice(&GZIP_HEADER);
        // Finishes the empty stream the encoder held (into the buffer it
        // held, dropped) and starts afresh into `out`.
        drop(self.deflate.reset(out)?);
        let mut summed = Summed {
            deflate: &mut self.deflate,
            crc: flate2::Crc::new(),
        };
        {
            // The JSON goes straight into the compressor in large pieces.
            let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut summed);
            write(&mut w)?;
            std::io::Write::flush(&mut w)?;
        }
        let crc = summed.crc;
        let mut out = self.deflate.reset(Vec::new())?;
        out.extend_from_slice(&crc.sum().to_le_bytes());
        out.extend_from_slice(&crc.amount().to_le_bytes());
        self.base64.clear();
        base64::engine::general_purpose::STANDARD.encode_string(&out, &mut self.base64);
        self.spare = out;
        Ok(&self.base64)
    }
}

/// A whole page: `title`, its style sheet `css` inline, `body`.
pub fn page(title: &str, css: &str, body: Markup) -> String {
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

/// The rules page of `game`: its path in the repository and its text.
pub fn rules_page(game: whistle_rules::Variant) -> (&'static str, &'static str) {
    match game {
        whistle_rules::Variant::Yogi => (
            "docs/rules/yogi.md",
            include_str!("../../../docs/rules/yogi.md"),
        ),
        whistle_rules::Variant::Oneonta => (
            "docs/rules/oneonta.md",
            include_str!("../../../docs/rules/oneonta.md"),
        ),
        whistle_rules::Variant::Israeli => (
            "docs/rules/israeli.md",
            include_str!("../../../docs/rules/israeli.md"),
        ),
        whistle_rules::Variant::Honeymoon => (
            "docs/rules/honeymoon.md",
            include_str!("../../../docs/rules/honeymoon.md"),
        ),
        whistle_rules::Variant::Illustrated => (
            "docs/rules/illustrated.md",
            include_str!("../../../docs/rules/illustrated.md"),
        ),
    }
}

/// A game's rules page as the viewer shows it: the page's text without its
/// anchors.
fn rules_text(game: &str) -> Option<(&'static str, String)> {
    let variant: whistle_rules::Variant = game.parse().ok()?;
    let (path, text) = rules_page(variant);
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("<a id=\"") {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        let end = after.find("</a>").map_or(after.len(), |e| e + 4);
        rest = &after[end..];
    }
    out.push_str(rest);
    Some((path, out))
}

/// The hand viewer for one match: a page that steps through every hand,
/// drawing the table as the chosen seat saw it at each step.
pub fn viewer_page(m: &viewer::Match) -> String {
    viewer_page_with(m, &mut Packer::default())
}

/// [`viewer_page`] with `packer`'s compressor and buffers.
pub fn viewer_page_with(m: &viewer::Match, packer: &mut Packer) -> String {
    let data = packer
        .pack(|w| m.write_json(w))
        .expect("page data serializes");
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
                @if let Some((path, text)) = rules_text(&m.game) {
                    details #rules {
                        summary { "the rules of " (m.game) " (" (path) ", or " code { "whistle games " (m.game) " --rules" } ")" }
                        pre { (text) }
                    }
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
            // Base64 has nothing to escape: written as it is, not scanned.
            script #match-data type="application/gzip+base64" { (PreEscaped(data)) }
            script { (PreEscaped(VIEWER_JS)) }
        },
    )
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;

    use base64::Engine as _;

    /// A packer's data is what `GzEncoder` makes of the same JSON, page
    /// after page (its compressor is reset between them), and opens again.
    #[test]
    fn a_packer_writes_what_gzip_writes() {
        let mut packer = super::Packer::default();
        let pages: Vec<Vec<u8>> = (0..3u32)
            .map(|k| {
                let items: Vec<String> = (0..5000 * k + 1).map(|i| format!("step {i}")).collect();
                serde_json::to_vec(&items).unwrap()
            })
            .collect();
        for json in &pages {
            let mut gz = flate2::write::GzEncoder::new(
                Vec::new(),
                flate2::Compression::new(super::PAGE_GZIP_LEVEL),
            );
            gz.write_all(json).unwrap();
            let want = base64::engine::general_purpose::STANDARD.encode(gz.finish().unwrap());
            let got = packer.pack(|w| w.write_all(json)).unwrap();
            assert_eq!(got, want);
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(got)
                .unwrap();
            let mut back = Vec::new();
            std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut back)
                .unwrap();
            assert_eq!(&back, json);
        }
    }
}
