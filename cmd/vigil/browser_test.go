package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"vigil/internal/cli"
	"vigil/verify"
)

// Every HTML page vigil writes is opened in a real headless browser
// (Debian's chromium: `make setup` installs it): it must render without a
// console message, its screenshot must not be blank, and each of its SVG
// plots must draw something. Set VIGIL_SCREENSHOTS=DIR to keep the
// screenshots for a person to look at.

// findChromium returns the browser's path, or "" when there is none.
func findChromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// noChromium is the message of the tests skipped without a browser.
const noChromium = "no chromium on PATH: skipping the browser check of HTML pages (apt-get install chromium, or make setup)"

// consoleLine matches a console message in chromium's log
// (--enable-logging=stderr): `[...:INFO:CONSOLE:1] "msg", source: ...`.
var consoleLine = regexp.MustCompile(`:CONSOLE[:(]`)

// checkPage checks the page at path with inspectPage, skipping the test
// without chromium, and returns the DOM chromium built.
func checkPage(t *testing.T, path string) string {
	t.Helper()
	bin := findChromium()
	if bin == "" {
		t.Skip(noChromium)
	}
	dom, problems := inspectPage(bin, path, t.TempDir())
	for _, p := range problems {
		t.Error(p)
	}
	return dom
}

// inspectPage checks the page at path in the browser bin and statically:
// it is well-formed XHTML, refers to no external file, renders without
// console messages, has a non-blank screenshot, and every <svg> draws at
// least one line, polyline, circle or rect (a polyline with two points at
// least). tmp is a scratch directory; the screenshot goes to
// $VIGIL_SCREENSHOTS when set. It returns the DOM chromium built and what
// is wrong.
func inspectPage(bin, path, tmp string) (dom string, problems []string) {
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(path+": "+format, args...)) }
	data, err := os.ReadFile(path)
	if err != nil {
		return "", []string{err.Error()}
	}
	checkXHTML(bad, data)
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", []string{err.Error()}
	}
	url := "file://" + abs
	ud := filepath.Join(tmp, "chromium-profile")
	run := func(args ...string) (string, string, bool) {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		base := []string{"--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars", "--user-data-dir=" + ud,
			"--enable-logging=stderr", "--v=0", "--window-size=1200,1400"}
		cmd := exec.CommandContext(ctx, bin, append(base, append(args, url)...)...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			bad("%s %v: %v\n%s", bin, args, err, errb.String())
			return "", "", false
		}
		return out.String(), errb.String(), true
	}
	dom, log, ok := run("--dump-dom")
	if !ok {
		return "", problems
	}
	for _, line := range strings.Split(log, "\n") {
		if consoleLine.MatchString(line) {
			bad("console message: %s", line)
		}
	}
	if !strings.Contains(dom, "<body") || strings.Count(dom, "<") < 10 {
		bad("chromium built an empty DOM:\n%s", dom)
	}
	shots := os.Getenv("VIGIL_SCREENSHOTS")
	if shots == "" {
		shots = tmp
	}
	shot := filepath.Join(shots, strings.TrimSuffix(filepath.Base(path), ".html")+".png")
	if _, _, ok := run("--screenshot=" + shot); ok {
		checkScreenshot(bad, shot)
	}
	checkSVGs(bad, data)
	return dom, problems
}

// checkXHTML parses the page as XML and refuses references to files
// outside it (src, or href with a scheme).
func checkXHTML(bad func(string, ...any), data []byte) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			bad("not well-formed XHTML: %v", err)
			return
		}
		if el, ok := tok.(xml.StartElement); ok {
			for _, a := range el.Attr {
				if a.Name.Local == "src" || (a.Name.Local == "href" && strings.Contains(a.Value, "://")) {
					bad("<%s %s=%q> loads an external resource; pages are self-contained", el.Name.Local, a.Name.Local, a.Value)
				}
			}
		}
	}
}

// checkScreenshot complains when the PNG is missing or a single colour.
func checkScreenshot(bad func(string, ...any), file string) {
	f, err := os.Open(file)
	if err != nil {
		bad("no screenshot: %v", err)
		return
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		bad("screenshot %s: %v", file, err)
		return
	}
	b := img.Bounds()
	r0, g0, b0, _ := img.At(b.Min.X, b.Min.Y).RGBA()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r != r0 || g != g0 || bl != b0 {
				return
			}
		}
	}
	bad("screenshot %s is blank", file)
}

// checkSVGs complains about an <svg> that draws nothing: no line, circle
// or rect, and no polyline or path with two points or more.
func checkSVGs(bad func(string, ...any), data []byte) {
	d := xml.NewDecoder(bytes.NewReader(data))
	depth, marks := 0, 0
	id := ""
	for {
		tok, err := d.Token()
		if err != nil {
			return
		}
		switch el := tok.(type) {
		case xml.StartElement:
			if el.Name.Local == "svg" {
				depth++
				marks, id = 0, ""
				for _, a := range el.Attr {
					if a.Name.Local == "id" || a.Name.Local == "class" {
						id += a.Value + " "
					}
				}
				continue
			}
			if depth == 0 {
				continue
			}
			switch el.Name.Local {
			case "line", "circle", "rect":
				marks++
			case "polyline", "path":
				for _, a := range el.Attr {
					if (a.Name.Local == "points" && len(strings.Fields(a.Value)) >= 2) || (a.Name.Local == "d" && strings.ContainsAny(a.Value, "Ll")) {
						marks++
					}
				}
			}
		case xml.EndElement:
			if el.Name.Local == "svg" {
				depth--
				if marks == 0 {
					bad("svg %q draws nothing", strings.TrimSpace(id))
				}
			}
		}
	}
}

// browserCheck is the testscript command `browsercheck PAGE...`: each page
// passes inspectPage (a note, not a failure, without chromium).
func browserCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: browsercheck PAGE...")
	}
	bin := findChromium()
	if bin == "" {
		ts.Logf("%s", noChromium)
		return
	}
	tmp, err := os.MkdirTemp("", "browsercheck")
	ts.Check(err)
	defer os.RemoveAll(tmp)
	for _, page := range args {
		_, problems := inspectPage(bin, ts.MkAbs(page), tmp)
		if len(problems) > 0 {
			ts.Fatalf("%s", strings.Join(problems, "\n"))
		}
	}
}

// verify --html: the counterexample's table highlights changed cells and
// each plotted variable has a plot; a safe verdict writes a page too.
func TestVerifyHTMLInBrowser(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "verify_oneway.html")
	var out, errb bytes.Buffer
	code := cli.Main([]string{"verify", "../../specs/oneway.spec", "--policy", "driver", "--html", page}, &cli.Env{Stdout: &out, Stderr: &errb})
	if code != cli.ExitUnsafe {
		t.Fatalf("exit %d, stderr %s", code, errb.String())
	}
	dom := checkPage(t, page)
	for _, want := range []string{`id="plot-pos"`, `id="plot-speed"`, `class="changed"`, `id="cex-table"`, "accelerate"} {
		if !strings.Contains(dom, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(dom, `id="plot-load"`) {
		t.Error("load does not change along the run but is plotted")
	}
	safe := filepath.Join(dir, "verify_flappy.html")
	if code := cli.Main([]string{"verify", "../../specs/flappy.spec", "--html", safe}, &cli.Env{Stdout: &out, Stderr: &errb}); code != cli.ExitOK {
		t.Fatalf("flappy: exit %d, stderr %s", code, errb.String())
	}
	if dom := checkPage(t, safe); !strings.Contains(dom, "No counterexample") {
		t.Error("the safe page does not say there is no counterexample")
	}
}

// testHTMLPage runs vigil test with --html on spec (written to a file)
// and returns the page's path.
func testHTMLPage(t *testing.T, name, spec string, want int, args ...string) string {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, name+".spec")
	if err := os.WriteFile(file, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, name+".html")
	var out, errb bytes.Buffer
	if code := cli.Main(append([]string{"test", file, "--html", page}, args...), &cli.Env{Stdout: &out, Stderr: &errb}); code != want {
		t.Fatalf("exit %d, want %d; stderr %s", code, want, errb.String())
	}
	return page
}

// vigil test --html, both modes: a safety page whose unsafe runs have no
// bug shows them all and says why; a goal page with bugs.
func TestTestHTMLInBrowser(t *testing.T) {
	// Every start state is doomed: x only grows, and 2 is unsafe.
	page := testHTMLPage(t, "test_safety_doomed", `model doomed
var x : 0 .. 3 = 0
action step when x < 3 -> x' = x + 1
action jump when x < 2 -> x' = 2
policy rules pi {
    otherwise -> step
}
property p {
    start x <= 1
    unsafe x == 2
}
`, cli.ExitOK, "--runs", "20", "--config", "1-sampling")
	dom := checkPage(t, page)
	if n := strings.Count(dom, `class="unsafe-run no-bug"`); n != 2 {
		t.Errorf("%d unsafe runs without a bug drawn, want 2 (from x=0 and x=1)", n)
	}
	if !strings.Contains(dom, "the unsafety is unavoidable from the start state") {
		t.Error("the page does not say why the runs have no bug")
	}
	goal := testHTMLPage(t, "test_goal", goalLineSpec, cli.ExitUnsafe, "--mode", "goal")
	checkPage(t, goal)
}

// A long counterexample lists its first and last steps in the table and
// plots its line at the plot's resolution.
func TestVerifyHTMLLongRun(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "long.spec")
	src := "model long\nvar x : 0 .. 3000 = 0\naction step when x < 3000 -> x' = x + 1\nproperty p {\n    unsafe x == 3000\n}\n"
	if err := os.WriteFile(spec, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "long.html")
	var out, errb bytes.Buffer
	if code := cli.Main([]string{"verify", spec, "--html", page}, &cli.Env{Stdout: &out, Stderr: &errb}); code != cli.ExitUnsafe {
		t.Fatalf("exit %d, stderr %s", code, errb.String())
	}
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	if n := strings.Count(s, `<tr class="step`); n != verify.MaxTableRows {
		t.Errorf("%d table rows, want %d", n, verify.MaxTableRows)
	}
	if !strings.Contains(s, "... steps 200 to 2200 are not listed") {
		t.Error("the omitted steps are not announced")
	}
	// Beyond verify.MaxPlotMarks steps a plot is a line drawn per
	// half-pixel column, without a dot per step (s24: a 20,000-step run
	// made a 6.9 MB page).
	if n := strings.Count(s, "<circle"); n != 0 {
		t.Errorf("the plot of x has %d dots, want none", n)
	}
	if !strings.Contains(s, "<title>x over 3000 steps, from 0 to 3000") {
		t.Error("the plot does not say what it draws")
	}
	checkPage(t, page)
}
