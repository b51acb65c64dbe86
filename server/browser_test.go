package server

// A real headless Chromium (Debian's chromium, driven by chromedp) reads the
// front page and watches an SSH player's game on a watch page, as a visitor
// would. Screenshots go to a directory the test names in its log, and to
// $GROTTO_SHOTS too when that is set.

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"charm.land/log/v2"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/store"
)

// chromium returns the path of a Chromium to drive. Without one the test
// fails (CI installs the chromium package: .ci/run), unless -short.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if testing.Short() {
		t.Skip("no chromium on PATH (-short)")
	}
	t.Fatal("no chromium on PATH: the browser tests need Debian's chromium package (apt-get install -y chromium; .ci/run installs it)")
	return ""
}

// browser starts a headless Chromium for t, closed at cleanup, and returns
// its tab's context and the console messages it has written so far.
func browser(t *testing.T) (context.Context, func() []chromedp.ConsoleMessage) {
	t.Helper()
	return browserWith(t)
}

// browserWith is browser with more of Chromium's options.
func browserWith(t *testing.T, more ...chromedp.ExecAllocatorOption) (context.Context, func() []chromedp.ConsoleMessage) {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium(t)), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1100, 800))
	opts = append(opts, more...)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
	if _, err := chromedp.Run(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("chromium does not start: %v", err)
	}
	var mu sync.Mutex
	var msgs []chromedp.ConsoleMessage
	go func() {
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			mu.Lock()
			msgs = append(msgs, m)
			mu.Unlock()
		}
	}()
	return ctx, func() []chromedp.ConsoleMessage {
		mu.Lock()
		defer mu.Unlock()
		return append([]chromedp.ConsoleMessage(nil), msgs...)
	}
}

// shots is where this run's screenshots go: a new directory kept after the
// test (its path is logged).
func shots(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "grotto-shots-")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// shoot saves a screenshot of the whole page as dir/name, logs its path and
// copies it to $GROTTO_SHOTS when set.
func shoot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
	if to := os.Getenv("GROTTO_SHOTS"); to != "" {
		if err := os.MkdirAll(to, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("copied to %s", filepath.Join(to, name))
	}
}

// termText is the text of the watch page's terminal (xterm.js's active
// buffer, window.grottoTerm), one line a row.
const termText = `(() => {
  const t = window.grottoTerm; if (!t) return "";
  const b = t.buffer.active, out = [];
  for (let i = 0; i < b.length; i++) { const l = b.getLine(i); out.push(l ? l.translateToString(true) : ""); }
  return out.join("\n");
})()`

// readTerm polls the watch page until its terminal shows want, and returns
// the terminal's text.
func readTerm(t *testing.T, ctx context.Context, want string) string {
	t.Helper()
	var text string
	if !await.Within(waitLong, func() bool {
		var err error
		if text, err = chromedp.Run(ctx, chromedp.Evaluate[string](termText)); err != nil {
			t.Fatal(err)
		}
		return strings.Contains(text, want)
	}) {
		t.Fatalf("the watch page never showed %q; it shows:\n%s", want, text)
	}
	return text
}

// painted waits until the page's terminal has taken in every write made so
// far and painted it: xterm.js calls an empty write back once the writes
// queued before it are parsed into its buffer, and the second animation
// frame after that comes once the first has painted them.
func painted(t *testing.T, ctx context.Context) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, waitLong)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise(done => {
  const paint = () => requestAnimationFrame(() => requestAnimationFrame(() => done(true)));
  const t = window.grottoTerm;
  if (t) t.write("", paint); else paint();
})`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("waiting for the page's terminal to paint: %v", err)
	}
}

func TestABrowserReadsTheScoresAndWatchesAnSSHPlayerMove(t *testing.T) {
	ctx, console := browser(t)
	srv, addr, base := serveWeb(t)
	if _, err := srv.Store().FinishGame("SHA256:ada", store.Score{Name: "ada", Depth: 4, Turns: 1234, Points: 720,
		Cause: "killed by a troll on level 4", Date: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	player := dial(t, addr, newKey(t), 100, 30)
	name := fmt.Sprintf("browsed%d", names.Add(1))
	namedGame(t, player, name)
	dir := shots(t)

	// The front page: the scores table, and the player among who is playing.
	if _, err := chromedp.Run(ctx, chromedp.Navigate(base+"/")); err != nil {
		t.Fatal(err)
	}
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[[][]string](
		`Array.from(document.querySelectorAll("#scores tbody tr")).map(tr => Array.from(tr.cells).map(td => td.textContent))`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"1", "ada", "720", "4", "1234", "killed by a troll on level 4", "2026-11-30"}
	if len(rows) != 1 || strings.Join(rows[0], "|") != strings.Join(want, "|") {
		t.Errorf("the scores table reads %q, want one row %q", rows, want)
	}
	live, err := chromedp.Run(ctx, chromedp.Evaluate[[][]string](
		`Array.from(document.querySelectorAll("#games tbody tr")).map(tr => Array.from(tr.cells).map(td => td.textContent))`))
	if err != nil {
		t.Fatal(err)
	}
	if len(live) != 1 || live[0][0] != name || live[0][2] != "0" {
		t.Errorf("who is playing reads %q, want %s at turn 0", live, name)
	}
	shoot(t, ctx, dir, "index.png")
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}}); err != nil {
		t.Fatal(err)
	}
	shoot(t, ctx, dir, "index-dark.png")
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{}); err != nil {
		t.Fatal(err)
	}

	// Its watch link: the game drawn by xterm.js, following the player.
	// Read the link and go to it: clicking inside Evaluate races the
	// navigation it starts ("Inspected target navigated or closed").
	href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#games a[href^='/watch/']").href`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(href, base+"/watch/") {
		t.Fatalf("the watch link is %q, want one under %s/watch/", href, base)
	}
	if _, err := chromedp.Run(ctx, chromedp.Navigate(href)); err != nil {
		t.Fatal(err)
	}
	readTerm(t, ctx, "Watching "+name)
	readTerm(t, ctx, "Turn: 0")
	waitText(t, player, "watched by 1")
	screen := walk(t, player, 3)
	got := readTerm(t, ctx, "Turn: "+turn(screen))
	if around(t, got) != around(t, screen) {
		t.Errorf("the browser's view differs:\nplayer:\n%s\nbrowser:\n%s", around(t, screen), around(t, got))
	}
	painted(t, ctx) // the last frame, before the picture
	shoot(t, ctx, dir, "watch.png")

	player.Send("S") // the player leaves: the page says the game has ended
	status, err := chromedp.Run(ctx, chromedp.Poll[string](`document.body.dataset.closed && document.getElementById("status").textContent`,
		chromedp.WithPollingTimeout(waitLong)))
	if err != nil || status != "The game has ended." {
		t.Errorf("the page's status reads %q (%v), want The game has ended.", status, err)
	}
	for _, m := range console() {
		if m.Type == "error" || m.IsException() {
			t.Errorf("the browser's console (%s): %s", m.URL, m)
		}
	}
}

// termTurn reads the turn off the page's terminal, -1 when none shows.
func termTurn(t *testing.T, ctx context.Context) int {
	t.Helper()
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](termText))
	if err != nil {
		t.Fatal(err)
	}
	if s := turn(text); s != "" {
		return atoi(s)
	}
	return -1
}

func TestABrowserFollowsAnSSHWebLinkAndPlaysAMoveThatWhoShows(t *testing.T) {
	ctx, console := browser(t)
	_, addr, base := serveWeb(t)
	key := newKey(t)
	player := dial(t, addr, key, 100, 30)
	name := fmt.Sprintf("clicked%d", names.Add(1))
	namedGame(t, player, name)
	walk(t, player, 1)
	player.Send("S") // saved: the browser continues it
	ended(t, player)
	link := webLinkOf(t, addr, key)
	dir := shots(t)

	if _, err := chromedp.Run(ctx, chromedp.Navigate(link)); err != nil {
		t.Fatal(err)
	}
	if u, err := chromedp.Run(ctx, chromedp.Location()); err != nil || u != base+"/play" {
		t.Errorf("the link led to %q (%v), want %s/play", u, err, base)
	}
	readTerm(t, ctx, "Continue")
	// Keys typed into xterm.js (its focused textarea) play the game.
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(".xterm-helper-textarea")), chromedp.KeyEvent("c")); err != nil {
		t.Fatal(err)
	}
	readTerm(t, ctx, "Turn: ")
	before := termTurn(t, ctx)
	moved := false
	for _, k := range []string{"l", "j", "h", "k", "y", "u", "b", "n"} {
		if _, err := chromedp.Run(ctx, chromedp.KeyEvent(k)); err != nil {
			t.Fatal(err)
		}
		// A key into a wall plays no turn: after 2 s, the next key.
		await.Within(2*time.Second, func() bool { return termTurn(t, ctx) != before })
		if termTurn(t, ctx) > before {
			moved = true
			break
		}
	}
	if !moved {
		t.Fatalf("no key pressed in the browser played a turn (turn %d)", before)
	}
	// A key that was slow to play (a loaded machine) may still land after
	// the next one: who must show the turn the browser shows, read again
	// each time, not the turn of the first move seen.
	var now, shown string
	if !await.Within(waitLong, func() bool {
		now = fmt.Sprint(termTurn(t, ctx))
		shown = whoTurn(t, addr, name)
		return shown == now
	}) {
		t.Fatalf("ssh host who shows %s at turn %q, want %s (the browser's)", name, shown, now)
	}
	painted(t, ctx) // the last frame, before the picture
	shoot(t, ctx, dir, "play.png")

	// The link a second time, in a fresh tab: refused.
	tab, cancel := chromedp.NewContext(ctx)
	defer cancel()
	resp, err := chromedp.Run(tab, chromedp.NavigateResponse(link))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != 410 {
		t.Errorf("the link a second time: status %d, want 410 Gone", resp.Status)
	}
	why, err := chromedp.Run(tab, chromedp.Text(chromedp.ID("why")))
	if err != nil || !strings.Contains(why, "used already") {
		t.Errorf("the link a second time shows %q (%v), want that it was used already", why, err)
	}
	shoot(t, tab, dir, "play-link-used.png")
	for _, m := range console() {
		if m.Type == "error" || m.IsException() {
			t.Errorf("the browser's console (%s): %s", m.URL, m)
		}
	}
}

// TestABrowserWatchPageKeepsTheGameWhenTheServerRestarts: at shutdown the
// watch page's terminal still shows the game, and its status line says to
// reload.
func TestABrowserWatchPageKeepsTheGameWhenTheServerRestarts(t *testing.T) {
	ctx, console := browser(t)
	srv, served := listenAndServe(t, Config{Listen: "127.0.0.1:0", HTTP: "127.0.0.1:0", DataDir: t.TempDir(), Logger: log.New(io.Discard)})
	player := dial(t, srv.Addr().String(), newKey(t), 100, 30)
	name := fmt.Sprintf("restart%d", names.Add(1))
	namedGame(t, player, name)
	links, _ := webGames(t, "http://"+srv.HTTPAddr().String())
	if _, err := chromedp.Run(ctx, chromedp.Navigate("http://"+srv.HTTPAddr().String()+links[name])); err != nil {
		t.Fatal(err)
	}
	readTerm(t, ctx, "Turn: 0")

	sctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		t.Errorf("Shutdown: %v", err)
	}
	if err := recv(t, "Serve to return after Shutdown", served); err != nil {
		t.Errorf("Serve: %v", err)
	}
	status, err := chromedp.Run(ctx, chromedp.Poll[string](`document.body.dataset.closed && document.getElementById("status").textContent`,
		chromedp.WithPollingTimeout(waitLong)))
	if err != nil || !strings.Contains(status, "shutting down") || !strings.Contains(status, "reload") || strings.Contains(status, "in a moment") {
		t.Errorf("the page's status reads %q (%v), want the server shutting down and to reload later", status, err)
	}
	// Every frame came before the close, and the terminal has parsed them
	// all once a write queued after them calls back: a frame that wiped
	// the game would show now.
	painted(t, ctx)
	if text, err := chromedp.Run(ctx, chromedp.Evaluate[string](termText)); err != nil || !strings.Contains(text, "Turn: 0") {
		t.Errorf("after the server closed the page its terminal reads (%v):\n%s\nwant the game's last frame", err, text)
	}
	for _, m := range console() {
		if m.Type == "error" || m.IsException() {
			t.Errorf("the browser's console (%s): %s", m.URL, m)
		}
	}
}
