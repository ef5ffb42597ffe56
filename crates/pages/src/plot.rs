//! Charts as inline SVG: the axes drawn with `plotters`, the lines drawn
//! here so that each carries its bot's name (a tooltip on hover) and can
//! be picked out by the page.

use std::fmt::Write as _;

use plotters::prelude::*;

/// One bot's rating after each of its matches: (match index, value,
/// uncertainty).
pub type Series = (String, Vec<(u64, f64, f64)>);

/// How many bots a ratings chart draws in colour, with their bands: the
/// rest are thin grey lines, named on hover and picked out on request.
pub const DRAWN: usize = 8;

/// The CSS colour of series `i` (the same as its line).
pub fn color_css(i: usize) -> String {
    let RGBAColor(r, g, b, _) = Palette99::pick(i).to_rgba();
    format!("rgb({r},{g},{b})")
}

/// Text for an SVG element or attribute.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Ratings over matches: an SVG document. `series` come best first; the
/// first [`DRAWN`] are coloured lines with their uncertainty (± one
/// standard deviation) as a band, the others thin grey lines beneath.
/// Every line is a `<polyline class="rating" data-bot="NAME">` with the
/// bot's name as its `<title>` (shown on hover); a page picks one out by
/// giving it the class `picked`.
pub fn ratings_svg(series: &[Series], width: u32, height: u32) -> String {
    let mut svg = String::new();
    let mut lines = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let last = series
            .iter()
            .flat_map(|(_, p)| p.iter().map(|x| x.0))
            .max()
            .unwrap_or(1)
            .max(1);
        // The axis spans the coloured bands and every line.
        let (lo, hi) = series
            .iter()
            .enumerate()
            .flat_map(|(i, (_, p))| {
                let band = if i < DRAWN { 1.0 } else { 0.0 };
                p.iter().map(move |x| (x.1 - band * x.2, x.1 + band * x.2))
            })
            .fold((f64::MAX, f64::MIN), |(a, b), (l, h)| (a.min(l), b.max(h)));
        let (lo, hi) = if lo < hi { (lo, hi) } else { (0.0, 1.0) };
        let mut chart = ChartBuilder::on(&root)
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(40)
            .build_cartesian_2d(0u64..last, lo..hi)
            .expect("a chart: margins and label areas fit any size given");
        let _ = chart
            .configure_mesh()
            .light_line_style(RGBColor(240, 240, 240))
            .x_desc("match")
            .y_desc("rating")
            .draw();
        let at = |x: u64, y: f64| chart.backend_coord(&(x, y));
        // The others first (beneath), then the drawn ones, best on top.
        let order: Vec<usize> = (DRAWN..series.len())
            .chain((0..series.len().min(DRAWN)).rev())
            .collect();
        for i in order {
            let (name, points) = &series[i];
            if points.is_empty() {
                continue;
            }
            let name = xml(name);
            if i < DRAWN {
                let band: Vec<String> = points
                    .iter()
                    .map(|p| at(p.0, p.1 + p.2))
                    .chain(points.iter().rev().map(|p| at(p.0, p.1 - p.2)))
                    .map(|(x, y)| format!("{x},{y}"))
                    .collect();
                let _ = write!(
                    lines,
                    r#"<polygon class="band" data-bot="{name}" points="{}" fill="{}" fill-opacity="0.09" stroke="none"/>"#,
                    band.join(" "),
                    color_css(i)
                );
            }
            let path: Vec<String> = points
                .iter()
                .map(|p| at(p.0, p.1))
                .map(|(x, y)| format!("{x},{y}"))
                .collect();
            let (stroke, width, class) = if i < DRAWN {
                (color_css(i), 2, "rating drawn")
            } else {
                ("rgb(150,150,150)".to_string(), 1, "rating other")
            };
            let _ = write!(
                lines,
                r#"<polyline class="{class}" data-bot="{name}" points="{}" fill="none" stroke="{stroke}" stroke-width="{width}"><title>{name}</title></polyline>"#,
                path.join(" ")
            );
        }
        let _ = root.present();
    }
    match svg.rfind("</svg>") {
        Some(end) => svg.insert_str(end, &lines),
        None => svg.push_str(&lines),
    }
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bot_is_a_named_line_and_only_the_top_ones_are_coloured() {
        let series: Vec<Series> = (0..30)
            .map(|i| {
                (
                    format!("bot<{i}>"),
                    (0..5u64)
                        .map(|m| (m * 3 + i as u64 % 3, 25.0 + i as f64, 2.0))
                        .collect(),
                )
            })
            .collect();
        let svg = ratings_svg(&series, 900, 360);
        assert_eq!(svg.matches("<polyline class=\"rating").count(), 30);
        assert_eq!(svg.matches("class=\"rating drawn\"").count(), DRAWN);
        assert_eq!(svg.matches("<polygon class=\"band\"").count(), DRAWN);
        assert!(
            svg.contains("<title>bot&lt;29&gt;</title>"),
            "names escaped"
        );
        assert!(!svg.contains("bot<"), "no raw markup from a name");
        assert!(svg.trim_end().ends_with("</svg>"));
    }
}
