//! `explain --html` in a real browser: Chromium (Debian's `chromium` package, which `.ci/run`
//! installs) renders the page headless; its DOM after parsing must hold the chart and the
//! objects, and its screenshot must show the chart's bars where the chart is, as long as the
//! counts say. These tests run in `cargo test --workspace` and fail, not skip, without Chromium.

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The chart's bar colours (src/html.rs `BAR_WARNING`, `BAR_NORMAL`).
const WARNING: [u8; 3] = [0xd9, 0x48, 0x0f];
const NORMAL: [u8; 3] = [0x1c, 0x7e, 0xd6];
/// The longest bar, in CSS pixels (src/html.rs `BAR_MAX`).
const BAR_MAX: f64 = 480.0;
const WIDTH: u32 = 1000;
const HEIGHT: u32 = 1400;

/// A temporary directory, removed on drop.
struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let path = std::env::temp_dir().join(format!("gpu-events-html-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        Dir(path)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Chromium: `CHROMIUM` if set, else `chromium` (Debian's package) on the PATH or in /usr/bin.
fn chromium() -> PathBuf {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return path.into();
    }
    let on_path = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).map(|p| p.join("chromium")).collect::<Vec<_>>())
        .unwrap_or_default();
    on_path.into_iter().chain([PathBuf::from("/usr/bin/chromium")]).find(|p| p.is_file()).unwrap_or_else(|| {
        panic!(
            "Chromium is not installed, and this test renders the --html page in it: install Debian's package \
             (`apt-get install chromium`; .ci/run does) or set CHROMIUM to a Chromium binary"
        )
    })
}

/// Run `command` for at most `limit`, its output captured.
fn run_for(command: &mut Command, limit: Duration) -> Output {
    let mut child = command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let (mut stdout, mut stderr) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let out = std::thread::spawn(move || {
        let mut buf = Vec::new();
        stdout.read_to_end(&mut buf).map(|_| buf)
    });
    let err = std::thread::spawn(move || {
        let mut buf = Vec::new();
        stderr.read_to_end(&mut buf).map(|_| buf)
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output { status, stdout: out.join().unwrap().unwrap(), stderr: err.join().unwrap().unwrap() }
}

/// Chromium headless on `page` with `args` (`--screenshot=…`, `--dump-dom`).
fn browse(dir: &Path, page: &Path, args: &[&str]) -> Output {
    let profile = dir.join(format!("profile-{}", args.len()));
    let output = run_for(
        Command::new(chromium())
            .args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run"])
            .args(["--force-color-profile=srgb", "--force-device-scale-factor=1"])
            .arg(format!("--window-size={WIDTH},{HEIGHT}"))
            .arg(format!("--user-data-dir={}", profile.display()))
            .args(args)
            .arg(format!("file://{}", page.display()))
            .env("HOME", dir),
        Duration::from_secs(30),
    );
    assert!(output.status.success(), "chromium {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    output
}

fn gpu_events(args: &[&str], stdin: &str) -> Output {
    let output = common::gpu_events_output(args, stdin.as_bytes());
    assert!(output.status.success(), "gpu-events {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    output
}

fn event(object: &str, reason: &str, type_: &str, count: u32, first: &str, last: &str, message: &str) -> String {
    serde_json::json!({
        "apiVersion": "v1", "kind": "Event",
        "metadata": {"name": format!("{object}.{reason}"), "namespace": "ml"},
        "involvedObject": {"kind": "Pod", "namespace": "ml", "name": object},
        "reason": reason, "type": type_, "message": message, "count": count,
        "firstTimestamp": format!("2026-11-30T{first}Z"), "lastTimestamp": format!("2026-11-30T{last}Z"),
    })
    .to_string()
}

/// Two stuck Pods: 40 FailedScheduling, 20 TriggeredScaleUp, 10 NotTriggerScaleUp, 5 BackOff.
fn events() -> String {
    let items = [
        event(
            "train-0",
            "FailedScheduling",
            "Warning",
            40,
            "05:00:00",
            "05:50:00",
            "0/4 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.",
        ),
        event(
            "train-0",
            "TriggeredScaleUp",
            "Normal",
            20,
            "05:05:00",
            "05:45:00",
            "pod triggered scale-up: [{gpu-pool 1->2 (max: 4)}]",
        ),
        event(
            "train-0",
            "NotTriggerScaleUp",
            "Normal",
            10,
            "05:46:00",
            "05:55:00",
            "pod didn't trigger scale-up: 1 max node group size reached",
        ),
        event(
            "infer-0",
            "BackOff",
            "Warning",
            5,
            "05:30:00",
            "05:55:00",
            "Back-off restarting failed container main in pod infer-0_ml(u) <script>alert(1)</script>",
        ),
    ];
    format!("{{\"kind\":\"List\",\"apiVersion\":\"v1\",\"items\":[{}]}}", items.join(","))
}

/// A horizontal band of bar pixels in the screenshot: its rows, where it starts, its length.
#[derive(Debug)]
struct Band {
    top: u32,
    bottom: u32,
    left: u32,
    length: u32,
    colour: [u8; 3],
}

/// The bands of pixels of exactly the chart's colours, top to bottom.
fn bands(png: &[u8]) -> (Vec<Band>, u32, u32) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut buf).unwrap();
    let channels = frame.color_type.samples();
    assert!(channels >= 3, "an RGB(A) screenshot, got {:?}", frame.color_type);
    let (width, height) = (frame.width, frame.height);
    let pixel = |x: u32, y: u32| {
        let i = (y as usize * width as usize + x as usize) * channels;
        [buf[i], buf[i + 1], buf[i + 2]]
    };
    let mut bands: Vec<Band> = Vec::new();
    for y in 0..height {
        let hits: Vec<(u32, [u8; 3])> =
            (0..width).map(|x| (x, pixel(x, y))).filter(|(_, p)| *p == WARNING || *p == NORMAL).collect();
        let Some(&(left, colour)) = hits.first() else { continue };
        let right = hits.last().unwrap().0;
        match bands.last_mut() {
            Some(band) if band.bottom + 1 == y && band.colour == colour => band.bottom = y,
            _ => bands.push(Band { top: y, bottom: y, left, length: right - left + 1, colour }),
        }
    }
    (bands, width, height)
}

#[test]
fn the_page_renders_in_a_browser_with_bars_as_long_as_the_counts() {
    let started = Instant::now();
    let dir = Dir::new("render");
    let input = dir.0.join("events.json");
    std::fs::write(&input, events()).unwrap();
    let page = dir.0.join("page.html");
    gpu_events(
        &["explain", input.to_str().unwrap(), "--html", page.to_str().unwrap(), "--now", "2026-11-30T06:00:00Z"],
        "",
    );

    // The DOM after parsing: the chart with its four bars, both objects with their timelines,
    // the note's `<script>` as text, no script element.
    let dom = String::from_utf8(browse(&dir.0, &page, &["--dump-dom"]).stdout).unwrap();
    assert!(dom.contains("<svg id=\"reason-chart\""), "{dom}");
    assert_eq!(dom.matches("<rect class=\"bar\"").count(), 4, "{dom}");
    assert_eq!(dom.matches("<section class=\"object\"").count(), 2, "{dom}");
    assert_eq!(dom.matches("<svg class=\"timeline\"").count(), 2, "{dom}");
    assert!(dom.contains("pod/train-0") && dom.contains("pod/infer-0"), "{dom}");
    assert!(!dom.contains("<script"), "no script element: {dom}");
    assert!(dom.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the note, as text: {dom}");

    // The screenshot: four bars, one above the other in the chart's place (the top of the page,
    // right of their labels), aligned on the left, as long as their counts, in their type's colour.
    let shot = dir.0.join("shot.png");
    browse(&dir.0, &page, &[&format!("--screenshot={}", shot.display())]);
    let (bands, width, height) = bands(&std::fs::read(&shot).unwrap());
    assert_eq!((width, height), (WIDTH, HEIGHT));
    let counts = [40.0, 20.0, 10.0, 5.0];
    assert_eq!(bands.len(), counts.len(), "one band of bar colour per reason: {bands:?}");
    let colours: Vec<[u8; 3]> = bands.iter().map(|b| b.colour).collect();
    assert_eq!(colours, [WARNING, NORMAL, NORMAL, WARNING], "Warning and Normal bars: {bands:?}");
    for (band, count) in bands.iter().zip(counts) {
        assert_eq!(band.left, bands[0].left, "bars start at one x: {bands:?}");
        let want = count / counts[0] * BAR_MAX;
        assert!(
            (f64::from(band.length) - want).abs() <= 2.0,
            "bar of {count} is {} px, want {want}: {bands:?}",
            band.length
        );
        assert!((14..=18).contains(&(band.bottom - band.top + 1)), "bar height: {band:?}");
        assert!(band.bottom < height / 3, "the chart is at the top of the page: {band:?}");
    }
    assert!(bands.windows(2).all(|w| w[0].length > w[1].length && w[0].bottom < w[1].top), "{bands:?}");
    assert!((WIDTH / 5..WIDTH / 2).contains(&bands[0].left), "bars start right of their labels: {bands:?}");
    // Not asserted (a loaded CI machine is slower): about 2 s on 2 idle cores.
    eprintln!("rendered and checked in {:?}", started.elapsed());
}

#[test]
fn every_input_gives_a_page_and_redaction_holds() {
    // The bundled sample, on standard output.
    let sample = String::from_utf8(gpu_events(&["explain", "--sample", "--html", "-"], "").stdout).unwrap();
    assert!(sample.starts_with("<!DOCTYPE html>") && sample.trim_end().ends_with("</html>"));
    assert!(sample.contains("gpunode/gpu-node-1") && sample.contains("<svg id=\"reason-chart\""));
    // A pasted `kubectl describe` Events section from standard input: relative ages, approximate.
    let paste = "Events:\n  Type     Reason            Age                From               Message\n  ----     ------            ----               ----               -------\n  Warning  FailedScheduling  4m43s (x93 over 24m)  default-scheduler  0/2 nodes are available: 2 Insufficient nvidia.com/gpu.\n";
    let page = String::from_utf8(gpu_events(&["explain", "-", "--html", "-"], paste).stdout).unwrap();
    assert!(page.contains("insufficient-gpu") && page.contains("<svg class=\"timeline\""), "{page}");
    assert!(page.contains("<h3>Timeline <span class=\"meta\">~20"), "times from ages are approximate: {page}");
    // --redact: the secret in a note never reaches the page.
    let secret = "AKIAIOSFODNN7EXAMPLE";
    let input = format!(
        "{{\"kind\":\"List\",\"apiVersion\":\"v1\",\"items\":[{}]}}",
        event("web-0", "Failed", "Warning", 3, "05:00:00", "05:10:00", &format!("Error: ErrImagePull: key {secret}"))
    );
    let redacted = String::from_utf8(gpu_events(&["explain", "-", "--html", "-", "--redact"], &input).stdout).unwrap();
    assert!(redacted.contains("pod/web-0") && !redacted.contains(secret), "{redacted}");
    assert!(redacted.contains("&lt;aws-access-key-id&gt;"), "{redacted}");
    // --html is a page, not a table or a summary.
    let refused = Command::new(env!("CARGO_BIN_EXE_gpu-events"))
        .args(["explain", "--sample", "--html", "-", "-o", "json"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
}
