package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"charm.land/log/v2"
	"github.com/charmbracelet/x/vt"
	"github.com/coder/websocket"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/frame"
	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/server/lobby"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/bolt"
	"github.com/grotto-game/grotto/store/storetest"
)

const waitLong = 10 * time.Second

// memLive is a lobby.Memory as the web sees it (the server's own adapter
// is server/web.go; this one is for the package alone).
type memLive struct{ m *lobby.Memory }

func (l memLive) Games() []tuiLiveGame { return toLive(l.m.Games()) }
func (l memLive) Watch(id uint64) (<-chan *frame.Frame, func(), bool) {
	return l.m.Watch(id)
}

// site is a web server on a real bbolt store and a real lobby.
type site struct {
	srv   *Server
	http  *httptest.Server
	db    *bolt.Store
	lobby *lobby.Memory
}

func newSite(t testing.TB, cfg Config) *site {
	t.Helper()
	db := storetest.TempBolt(t)
	lob := lobby.NewMemory(nil)
	cfg.Scores, cfg.Live, cfg.Logger = db, memLive{lob}, log.New(io.Discard)
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { srv.Close(); hs.Close() })
	return &site{srv: srv, http: hs, db: db, lobby: lob}
}

// play claims a live game for a new key listed as name, at depth and turn,
// with a real game's frame.
func (s *site) play(t testing.TB, name string, depth, turn int) lobby.Slot {
	t.Helper()
	slot, err := s.lobby.Claim(lobby.Holder{Key: "SHA256:" + name, Name: name})
	if err != nil {
		t.Fatal(err)
	}
	blob, err := game.New(7, content.Default()).Encode()
	if err != nil {
		t.Fatal(err)
	}
	a := playing
	if depth <= 0 {
		a = lobby.Activity{} // on the title
	}
	slot.Publish(a, depth, turn, "", frame.New(blob, nil))
	t.Cleanup(slot.Release)
	return slot
}

func get(t *testing.T, url string) (int, http.Header, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(body)
}

func TestFrontPageListsTheScoresAndWhoIsPlayingWithNamesEscaped(t *testing.T) {
	s := newSite(t, Config{})
	for i, sc := range []store.Score{
		{Name: "<b>mallory</b>", Depth: 3, Turns: 420, Points: 350, Cause: "killed by an orc on level 3"},
		{Name: "alice", Depth: 6, Turns: 3000, Points: 1900, Cause: "escaped the grotto"},
	} {
		sc.Date = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
		if _, err := s.db.FinishGame(fmt.Sprintf("SHA256:k%d", i), sc); err != nil {
			t.Fatal(err)
		}
	}
	s.play(t, "bob", 2, 117)
	s.play(t, "<script>x</script>", 1, 5)

	status, h, body := get(t, s.http.URL+"/")
	if status != http.StatusOK {
		t.Fatalf("status %d", status)
	}
	for _, want := range []string{
		"<td>alice</td><td class=\"n\">1900</td><td class=\"n\">6</td><td class=\"n\">3000</td><td>escaped the grotto</td><td class=\"date\">2026-11-30</td>",
		"&lt;b&gt;mallory&lt;/b&gt;",
		"<td>bob</td><td class=\"n\">2</td><td class=\"n\">117</td>",
		"&lt;script&gt;x&lt;/script&gt;",
		`href="/watch/`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the front page lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "<b>mallory") || strings.Contains(body, "<script>x") {
		t.Errorf("a player's name reached the page unescaped:\n%s", body)
	}
	if i, j := strings.Index(body, "alice"), strings.Index(body, "mallory"); i > j {
		t.Error("the scores are not best first")
	}
	if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
		t.Errorf("Content-Security-Policy = %q", csp)
	}
}

// A visitor from a shared link learns how to play, not only how to watch
// (a community tester found no host or port on the page).
func TestTheFrontPageSaysHowToPlay(t *testing.T) {
	s := newSite(t, Config{SSH: func() string { return "ssh -p 2222 play.example.org" }})
	_, _, body := get(t, s.http.URL+"/")
	if !strings.Contains(body, `<code id="play">ssh -p 2222 play.example.org</code>`) {
		t.Errorf("the front page does not say what to type to play:\n%s", body)
	}
}

// A session on the title has no game to watch: its row offers no watch
// link (a community tester followed one to a title screen).
func TestTheFrontPageOffersNoWatchLinkForASessionOnTheTitle(t *testing.T) {
	s := newSite(t, Config{})
	s.play(t, "tom", 0, 0)
	s.play(t, "ann", 2, 40)
	_, _, body := get(t, s.http.URL+"/")
	tom := body[strings.Index(body, "<td>tom</td>"):]
	tom = tom[:strings.Index(tom, "</tr>")]
	ann := body[strings.Index(body, "<td>ann</td>"):]
	ann = ann[:strings.Index(ann, "</tr>")]
	if strings.Contains(tom, "/watch/") || !strings.Contains(tom, "on the title") || !strings.Contains(ann, "/watch/") {
		t.Errorf("rows: %q and %q; want a watch link for ann's game only", tom, ann)
	}
}

func TestFrontPageWithNothingYetSaysSo(t *testing.T) {
	s := newSite(t, Config{})
	_, _, body := get(t, s.http.URL+"/")
	for _, want := range []string{"No scores yet.", "No one is playing."} {
		if !strings.Contains(body, want) {
			t.Errorf("the front page lacks %q", want)
		}
	}
}

func TestAnUnknownGameIsAClearNotFound(t *testing.T) {
	s := newSite(t, Config{})
	s.play(t, "bob", 1, 1)
	for _, path := range []string{"/watch/999", "/watch/abc", "/watch/999/ws?cols=80&rows=24", "/nothing"} {
		status, _, body := get(t, s.http.URL+path)
		if status != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", path, status)
		}
		if !strings.Contains(body, "Not found") || !strings.Contains(body, `href="/"`) {
			t.Errorf("%s: the page does not say what happened:\n%s", path, body)
		}
	}
}

func TestTheWatchPageLoadsOnlyFromHere(t *testing.T) {
	s := newSite(t, Config{})
	slot := s.play(t, "bob", 1, 1)
	status, _, body := get(t, fmt.Sprintf("%s/watch/%d", s.http.URL, slot.ID()))
	if status != http.StatusOK || !strings.Contains(body, "watching <strong>bob</strong>") {
		t.Fatalf("status %d:\n%s", status, body)
	}
	for _, asset := range []string{"/assets/xterm.js", "/assets/addon-fit.js", "/assets/watch.js", "/assets/xterm.css",
		"/assets/grotto.css", "/assets/LICENSE.xterm", "/assets/LICENSE.addon-fit"} {
		if status, _, _ := get(t, s.http.URL+asset); status != http.StatusOK {
			t.Errorf("%s: status %d", asset, status)
		}
	}
	if strings.Contains(body, "http://") || strings.Contains(body, "https://") {
		t.Errorf("the page names another site:\n%s", body)
	}
	// The assets are served one by one, never listed (found by a tester
	// of the web pages).
	if status, _, body := get(t, s.http.URL+"/assets/"); status != http.StatusNotFound || strings.Contains(body, "xterm.js") {
		t.Errorf("/assets/: status %d, want 404 and no listing:\n%s", status, body)
	}
}

// dialWatch opens game id's watch WebSocket at 80x24.
func dialWatch(t *testing.T, s *site, id uint64) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	u := fmt.Sprintf("ws%s/watch/%d/ws?cols=80&rows=24", strings.TrimPrefix(s.http.URL, "http"), id)
	c, resp, err := websocket.Dial(ctx, u, nil)
	if err == nil {
		t.Cleanup(func() { c.CloseNow() })
	}
	return c, resp, err
}

// screen reads c's binary messages into an 80x24 terminal until ok holds
// for its text, and returns the text; it fails the test on a close or after
// waitLong.
func screen(t *testing.T, c *websocket.Conn, ok func(string) bool) string {
	t.Helper()
	return screenAt(t, c, 80, 24, ok)
}

// screenAt is screen on a terminal of w x h.
func screenAt(t *testing.T, c *websocket.Conn, w, h int, ok func(string) bool) string {
	t.Helper()
	emu := vt.NewEmulator(w, h)
	go io.Copy(io.Discard, emu) // answers to queries, if any
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	for {
		typ, data, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("reading the watch stream: %v; the screen:\n%s", err, emu.String())
		}
		if typ == websocket.MessageBinary {
			emu.Write(data)
		}
		if s := emu.String(); ok(s) {
			return s
		}
	}
}

// closed reads c until it closes and returns the close error.
func closed(t *testing.T, c *websocket.Conn) websocket.CloseError {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	for {
		if _, _, err := c.Read(ctx); err != nil {
			var ce websocket.CloseError
			if !errors.As(err, &ce) {
				t.Fatalf("the connection ended without a close frame: %v", err)
			}
			return ce
		}
	}
}

func TestAWatchPageDrawsTheGameCountsAsAWatcherAndHearsItEnd(t *testing.T) {
	s := newSite(t, Config{})
	slot := s.play(t, "bob", 1, 0)
	c, _, err := dialWatch(t, s, slot.ID())
	if err != nil {
		t.Fatal(err)
	}
	screen(t, c, func(s string) bool { return strings.Contains(s, "Turn: 0") && strings.Contains(s, "Watching bob") })
	if n := slot.Watchers(); n != 1 {
		t.Errorf("the game has %d watchers, want 1", n)
	}
	slot.Release()
	ce := closed(t, c)
	if ce.Code != websocket.StatusNormalClosure || ce.Reason != "The game has ended." {
		t.Errorf("closed with %v %q, want 1000 \"The game has ended.\"", ce.Code, ce.Reason)
	}
}

func TestHugeOrMalformedMessagesCloseTheWatchPage(t *testing.T) {
	s := newSite(t, Config{})
	slot := s.play(t, "bob", 1, 0)
	for _, tc := range []struct {
		name string
		typ  websocket.MessageType
		msg  []byte
		want websocket.StatusCode
	}{
		{"a megabyte", websocket.MessageText, []byte(`{"cols":` + strings.Repeat("9", 1<<20) + `}`), websocket.StatusMessageTooBig},
		{"not JSON", websocket.MessageText, []byte("hello"), websocket.StatusUnsupportedData},
		{"a zero size", websocket.MessageText, []byte(`{"cols":0,"rows":24}`), websocket.StatusUnsupportedData},
		{"a key (binary)", websocket.MessageBinary, []byte("l"), websocket.StatusUnsupportedData},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _, err := dialWatch(t, s, slot.ID())
			if err != nil {
				t.Fatal(err)
			}
			c.Write(context.Background(), tc.typ, tc.msg) // may fail once the server closes
			if ce := closed(t, c); ce.Code != tc.want {
				t.Errorf("closed with %v %q, want %v", ce.Code, ce.Reason, tc.want)
			}
		})
	}
	// The game goes on, and a good page still watches it.
	c, _, err := dialWatch(t, s, slot.ID())
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Write(context.Background(), websocket.MessageText, []byte(`{"cols":100,"rows":30}`)); err != nil {
		t.Fatal(err)
	}
	screenAt(t, c, 100, 30, func(s string) bool { return strings.Contains(s, "Turn: 0") })
}

func TestABadSizeIsRefusedBeforeTheWebSocket(t *testing.T) {
	s := newSite(t, Config{})
	slot := s.play(t, "bob", 1, 0)
	for _, q := range []string{"", "cols=80", "cols=0&rows=24", "cols=-1&rows=24", "cols=x&rows=24"} {
		status, _, _ := get(t, fmt.Sprintf("%s/watch/%d/ws?%s", s.http.URL, slot.ID(), q))
		if status != http.StatusBadRequest {
			t.Errorf("%q: status %d, want 400", q, status)
		}
	}
}

func TestWatchPagesBeyondTheCapAreRefused(t *testing.T) {
	s := newSite(t, Config{MaxWatchers: 1})
	slot := s.play(t, "bob", 1, 0)
	c, _, err := dialWatch(t, s, slot.ID())
	if err != nil {
		t.Fatal(err)
	}
	screen(t, c, func(s string) bool { return strings.Contains(s, "Turn: 0") })
	over, _, err := dialWatch(t, s, slot.ID())
	if err != nil {
		t.Fatalf("a second page over a cap of 1 got no WebSocket to read the reason on: %v", err)
	}
	if ce := closed(t, over); ce.Code != websocket.StatusTryAgainLater || !strings.Contains(ce.Reason, "Too many people are watching") {
		t.Errorf("a second page over a cap of 1: %v %q, want 1013 saying too many are watching", ce.Code, ce.Reason)
	}
	c.Close(websocket.StatusNormalClosure, "")
	// The slot frees once the first page has gone.
	var last error // why the last page was not let in
	if !await.Within(waitLong, func() bool {
		c2, _, err := dialWatch(t, s, slot.ID())
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), waitLong)
			_, _, err = c2.Read(ctx) // a frame, or the refusal's close
			cancel()
			c2.Close(websocket.StatusNormalClosure, "")
		}
		last = err
		return err == nil
	}) {
		t.Fatalf("the cap never freed: %v", last)
	}
}

func TestShutdownClosesWatchPagesSayingWhy(t *testing.T) {
	s := newSite(t, Config{})
	slot := s.play(t, "bob", 1, 0)
	c, _, err := dialWatch(t, s, slot.ID())
	if err != nil {
		t.Fatal(err)
	}
	screen(t, c, func(s string) bool { return strings.Contains(s, "Turn: 0") })
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLong)
		defer cancel()
		done <- s.srv.Shutdown(ctx)
	}()
	if ce := closed(t, c); ce.Code != websocket.StatusGoingAway || ce.Reason != ShutdownWatch {
		t.Errorf("closed with %v %q", ce.Code, ce.Reason)
	}
	if err := recv(t, "Shutdown to return", done); err != nil {
		t.Errorf("Shutdown: %v", err)
	}
	if n := slot.Watchers(); n != 0 {
		t.Errorf("%d watchers left after shutdown", n)
	}
}

func TestAPageThatStopsReadingIsDroppedNotWaitedFor(t *testing.T) {
	closed := make(chan *bridge, 1)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		b := newBridge(context.Background(), conn, 200*time.Millisecond)
		chunk := make([]byte, 1<<20)
		for i := 0; i < 1000; i++ { // a gigabyte: far more than the sockets' buffers
			if _, err := b.Write(chunk); err != nil {
				break
			}
		}
		closed <- b
		b.finish()
	}))
	defer hs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(hs.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow() // and never read
	select {
	case b := <-closed:
		if b.ctx.Err() == nil || b.status != websocket.StatusPolicyViolation {
			t.Errorf("the bridge's status is %v (ended: %v), want 1008 and its program ended", b.status, b.ctx.Err())
		}
	case <-ctx.Done():
		t.Fatal("the server still writes to a page that reads nothing")
	}
}

func TestAHostsBroadcastReachesWatchPages(t *testing.T) {
	s := newSite(t, Config{})
	slot := s.play(t, "bob", 1, 0)
	c, _, err := dialWatch(t, s, slot.ID())
	if err != nil {
		t.Fatal(err)
	}
	screen(t, c, func(s string) bool { return strings.Contains(s, "Watching bob") })
	if n := s.srv.Announce("The server restarts at noon."); n != 1 {
		t.Errorf("Announce reached %d pages, want the 1 watch page", n)
	}
	screen(t, c, func(s string) bool { return strings.Contains(s, "The server restarts at noon.") })
}

// TestAWatchPageKeepsItsLastFrameAtShutdown: the page's terminal still
// shows the game once the server has closed it, and the close reason
// says what to do.
func TestAWatchPageKeepsItsLastFrameAtShutdown(t *testing.T) {
	s := newSite(t, Config{})
	slot := s.play(t, "bob", 1, 0)
	c, _, err := dialWatch(t, s, slot.ID())
	if err != nil {
		t.Fatal(err)
	}
	emu := vt.NewEmulator(80, 24)
	go io.Copy(io.Discard, emu)
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	shut := false
	for {
		typ, data, err := c.Read(ctx)
		if err != nil {
			var ce websocket.CloseError
			if !errors.As(err, &ce) {
				t.Fatalf("the connection ended without a close frame: %v", err)
			}
			if ce.Code != websocket.StatusGoingAway || !strings.Contains(ce.Reason, "shutting down") || !strings.Contains(ce.Reason, "reload") || strings.Contains(ce.Reason, "in a moment") {
				t.Errorf("closed with %v %q, want 1001 saying the server is shutting down and to reload later", ce.Code, ce.Reason)
			}
			break
		}
		if typ == websocket.MessageBinary {
			emu.Write(data)
		}
		if !shut && strings.Contains(emu.String(), "Turn: 0") {
			shut = true
			go s.srv.Shutdown(ctx)
		}
	}
	if got := emu.String(); !strings.Contains(got, "Turn: 0") {
		t.Errorf("after the server closed the page, its terminal no longer shows the game:\n%s", got)
	}
}
